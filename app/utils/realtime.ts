import type { ClientLoaderFunctionArgs, ShouldRevalidateFunction } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import type { Socket } from 'socket.io-client';
import { RealtimeEvent } from '#contract/realtime';

/**
 * The realtime connection: opened after authentication, dropped on entering the unauthenticated
 * area, reconnecting without limit with a delay of 1 s growing to 10 s, and sending auth/login with the token
 * after each reconnect. socket.io-client is loaded with a dynamic import, so it stays out of the first bundle
 * and a fan on a slow connection gets an interactive page before it arrives. Nothing here runs on the server: the
 * connection opens from effects, and useRealtimeEvent only listens from one.
 */

let socket: Socket | null = null;
let currentToken: string | null = null;
/** Bumped by every connect and disconnect, so a connect whose import resolves late does not resurrect a dropped one. */
let generation = 0;
/** The open socket's listener for the browser's offline event, removed with the socket. */
let dropTransport: (() => void) | null = null;

export function getSocket() {
  return socket;
}

/** Opens the connection for this token; a no-op when it is already open for the same token. */
export async function connect(token: string): Promise<Socket | null> {
  if (socket && currentToken === token) return socket;
  disconnect();
  const mine = ++generation;
  currentToken = token;
  // root.tsx puts the public configuration on window.ENV; its type is declared there.
  const url = (window as unknown as { ENV?: { PUBLIC_API_URL?: string } }).ENV?.PUBLIC_API_URL;
  if (!url) return null;
  const { io } = await import('socket.io-client');
  if (mine !== generation) return null;
  const next = io(url, {
    query: { token },
    transports: ['websocket', 'polling'],
    reconnection: true,
    reconnectionAttempts: Infinity,
    reconnectionDelay: 1000,
    reconnectionDelayMax: 10_000,
  });
  next.io.on('reconnect', () => {
    next.emit(RealtimeEvent.login, token);
  });
  // The connection's state on <html data-realtime>, for styles and for browser tests that wait for it.
  next.on('connect', () => (document.documentElement.dataset.realtime = 'connected'));
  next.on('disconnect', () => (document.documentElement.dataset.realtime = 'disconnected'));
  // A phone that reports losing its network would otherwise keep a dead socket until the ping times out (up to
  // 45 s): closing the transport now starts the reconnection (and connection-state recovery) at once.
  dropTransport = () => next.io.engine?.close();
  window.addEventListener('offline', dropTransport);
  socket = next;
  attachAll(next);
  return next;
}

export function disconnect() {
  generation += 1;
  currentToken = null;
  if (dropTransport) window.removeEventListener('offline', dropTransport);
  dropTransport = null;
  if (!socket) return;
  delete document.documentElement.dataset.realtime;
  socket.removeAllListeners();
  socket.io.removeAllListeners();
  socket.disconnect();
  socket = null;
}

type Listener = (...args: never[]) => void;
/** Pages' listeners, kept here so they attach to whichever socket is open, including one opened after them. */
const listeners = new Set<{ event: string; handler: Listener }>();

function attach(target: Socket, event: string, handler: Listener) {
  target.on(event, handler as (...args: unknown[]) => void);
}

/** Listens to a server event for as long as the caller wants; returns the function that stops listening. */
export function subscribe(event: string, handler: Listener) {
  const entry = { event, handler };
  listeners.add(entry);
  if (socket) attach(socket, event, handler);
  return () => {
    listeners.delete(entry);
    socket?.off(event, handler as (...args: unknown[]) => void);
  };
}

/** Called by connect() once the socket exists: every listener registered so far attaches to it. */
function attachAll(target: Socket) {
  for (const { event, handler } of listeners) attach(target, event, handler);
}

/**
 * Runs `handler` for each `event` the realtime connection delivers while the component is mounted. The latest
 * handler is always the one called, so it may read current state without re-subscribing on every render.
 * `connect` fires on the first connection and on every reconnect (the socket's own event).
 */
export function useRealtimeEvent<T>(event: string, handler: (payload: T) => void) {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => subscribe(event, ((payload: T) => latest.current(payload)) as never), [event]);
}

/**
 * For the layouts above the conversation page: a message sent, deleted or marked read changes nothing a layout holds
 * (the token, the artist), so after those fetchers only the root (its unread badge) and the page load again. Without
 * single fetch every loader that reruns is a request of its own from the fan's phone. It lives beside the connection
 * that carries the messages because every signed-in page loads this module: in a module of its own it was one
 * script more on each.
 */
export const skipAfterMessageActions: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction !== undefined && /\/account\/messages\/[^/?]+/.test(formAction) ? false : defaultShouldRevalidate;

/**
 * The offline worker's answer to a data request it could not send (app/service-worker/worker.ts) is a redirect to its
 * offline page. The path is written here rather than imported from ~/offline/saved, which would become a script of its
 * own on every page.
 */
const OFFLINE_PAGE = '/offline';

/**
 * The client loader of the pages the realtime connection refreshes by itself (the inbox, a conversation, the
 * notifications) and of the layouts above them. Such a refresh of the page on screen can be on its way when the phone
 * loses its signal (a connection that came up just before a tunnel): its requests fail, and Remix would show the error
 * page (or, with the offline worker, the offline page) in place of a conversation the fan can still read and write in.
 * Instead the refresh waits, the page as it was, until the browser is back online and asks again, as the connection
 * does (1 s growing to 10 s); a navigation cancels it. A navigation to another page, and any other failure, go on as
 * without it.
 */
export async function refreshWhenBackOnline({ request, serverLoader }: ClientLoaderFunctionArgs) {
  const { pathname, search } = new URL(request.url);
  const shownPage = pathname === location.pathname && search === location.search;
  for (let delay = 1000; ; delay = Math.min(delay * 2, 10_000)) {
    try {
      return await serverLoader();
    } catch (error) {
      const unreachable = error instanceof TypeError || (error instanceof Response && error.headers.get('Location') === OFFLINE_PAGE);
      if (!shownPage || !unreachable) throw error;
      await backOnline(delay);
      request.signal.throwIfAborted();
    }
  }
}

/** Resolves `delay` ms after the browser is back online (from now when it is online). */
const backOnline = (delay: number) =>
  new Promise<void>((resolve) => {
    const wait = () => setTimeout(resolve, delay);
    if (navigator.onLine) wait();
    else window.addEventListener('online', wait, { once: true });
  });
