import { describe, expect, it, vi } from 'vitest';
import type { PushPayload } from '#contract/notifications';
import { listenForPushes } from '~/service-worker/push';
import type { WorkerScope } from '~/service-worker/scope';

/**
 * The service worker's push handling (app/service-worker/push.ts, bundled into /sw.js), given a stand-in for the
 * worker's global: its registration and its clients, and the events a push service and a click deliver. (Chromium
 * delivers a real push to the built worker in tests/e2e/notifications.spec.ts.)
 */
const ORIGIN = 'https://stagedoor.example';

function loadWorker(windows: { url: string; focus: () => Promise<unknown> }[] = []) {
  const handlers = new Map<string, (event: unknown) => void>();
  const shown: { title: string; options: Record<string, unknown> }[] = [];
  const openWindow = vi.fn(async (url: string) => ({ url }));
  const self = {
    location: new URL(`${ORIGIN}/sw.js`),
    addEventListener: (type: string, handler: (event: unknown) => void) => handlers.set(type, handler),
    skipWaiting: vi.fn(),
    registration: { showNotification: async (title: string, options: Record<string, unknown>) => void shown.push({ title, options }) },
    clients: { claim: vi.fn(), matchAll: async () => windows, openWindow },
  };
  listenForPushes(self as unknown as WorkerScope);
  /** Dispatches an event and waits for what it handed to waitUntil. */
  const dispatch = async (type: string, event: Record<string, unknown>) => {
    let work: Promise<unknown> = Promise.resolve();
    handlers.get(type)!({ ...event, waitUntil: (promise: Promise<unknown>) => (work = promise) });
    await work;
  };
  return { dispatch, shown, openWindow };
}

const pushData = (body: unknown) => ({
  json: () => (typeof body === 'string' ? JSON.parse(body) : body),
  text: () => (typeof body === 'string' ? body : JSON.stringify(body)),
});

describe('the service worker', () => {
  it('shows a push as the api sends it: title, body, icon, one notification per item, the page to open', async () => {
    const worker = loadWorker();
    const payload: PushPayload = {
      title: 'Juniper Lane posted',
      body: 'Porch session',
      url: `${ORIGIN}/juniperlane/vault/1?type=post&from=home`,
      icon: 'https://api.stagedoor.example/media/avatar.png',
      tag: 'item-1',
    };
    await worker.dispatch('push', { data: pushData(payload) });
    expect(worker.shown).toEqual([
      {
        title: 'Juniper Lane posted',
        options: { body: 'Porch session', icon: payload.icon, tag: 'item-1', data: { url: payload.url } },
      },
    ]);
  });

  it('still shows something for a push without a payload, or one that is not JSON', async () => {
    const worker = loadWorker();
    await worker.dispatch('push', { data: null });
    await worker.dispatch('push', { data: pushData('not json {') });
    expect(worker.shown.map(({ title, options }) => [title, options.body, options.icon])).toEqual([
      ['Stagedoor', '', '/favicon.svg'],
      ['Stagedoor', 'not json {', '/favicon.svg'],
    ]);
  });

  it('a click opens the item on this site, whatever host the payload names', async () => {
    const worker = loadWorker();
    const close = vi.fn();
    await worker.dispatch('notificationclick', { notification: { close, data: { url: 'https://evil.example/juniperlane/posts?x=1' } } });
    await worker.dispatch('notificationclick', { notification: { close, data: { url: 'https://evil.example//evil.example/x' } } });
    await worker.dispatch('notificationclick', { notification: { close, data: null } });
    expect(close).toHaveBeenCalledTimes(3);
    expect(worker.openWindow.mock.calls.map(([url]) => url)).toEqual([`${ORIGIN}/juniperlane/posts?x=1`, `${ORIGIN}/`, `${ORIGIN}/`]);
  });

  it('a click focuses the tab already showing that page instead of opening another', async () => {
    const focus = vi.fn(async () => undefined);
    const worker = loadWorker([{ url: `${ORIGIN}/juniperlane/posts`, focus }]);
    await worker.dispatch('notificationclick', { notification: { close: () => undefined, data: { url: '/juniperlane/posts' } } });
    expect(focus).toHaveBeenCalledOnce();
    expect(worker.openWindow).not.toHaveBeenCalled();
  });
});
