import type { Socket } from 'socket.io-client';

/**
 * The realtime connection (spec §4, §7): opened after authentication, dropped on entering the unauthenticated
 * area, reconnecting without limit with a delay of 1 s growing to 10 s, and sending auth/login with the token
 * after each reconnect. socket.io-client is loaded with a dynamic import, so it stays out of the first bundle
 * and a fan on a slow connection gets an interactive page before it arrives.
 */

let socket: Socket | null = null;
let currentToken: string | null = null;
/** Bumped by every connect and disconnect, so a connect whose import resolves late does not resurrect a dropped one. */
let generation = 0;

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
    next.emit('auth/login', token);
  });
  socket = next;
  return next;
}

export function disconnect() {
  generation += 1;
  currentToken = null;
  if (!socket) return;
  socket.removeAllListeners();
  socket.io.removeAllListeners();
  socket.disconnect();
  socket = null;
}
