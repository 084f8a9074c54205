import { redirect } from '@remix-run/node';
import type { ClientLoaderFunctionArgs } from '@remix-run/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OFFLINE_PAGE } from '~/offline/saved';
import { refreshWhenBackOnline } from '~/utils/realtime';

/** The page on screen, as the browser's address says. */
const SHOWN = '/latenights/account/messages/c1?username=latenights';

function args(href: string, serverLoader: () => Promise<unknown>, signal = new AbortController().signal) {
  const request = new Request(new URL(href, window.location.origin), { signal });
  return { request, params: {}, serverLoader } as unknown as ClientLoaderFunctionArgs;
}

const offlineAnswer = () => new TypeError('Failed to fetch');

let online = true;

beforeEach(() => {
  window.history.replaceState(null, '', SHOWN);
  online = true;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('refreshWhenBackOnline (the realtime pages and their layouts)', () => {
  it('answers what the server answers', async () => {
    await expect(refreshWhenBackOnline(args(SHOWN, async () => ({ messages: [] })))).resolves.toEqual({ messages: [] });
  });

  it('a refresh of the page on screen that cannot reach the server waits for the network, then asks again', async () => {
    online = false;
    const serverLoader = vi
      .fn()
      .mockRejectedValueOnce(offlineAnswer())
      .mockResolvedValueOnce({ messages: ['missed'] });
    let settled = false;
    const refreshed = refreshWhenBackOnline(args(SHOWN, serverLoader)).finally(() => (settled = true));

    await vi.advanceTimersByTimeAsync(60_000);
    expect(settled).toBe(false);
    expect(serverLoader).toHaveBeenCalledTimes(1);

    online = true;
    window.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(1000);
    await expect(refreshed).resolves.toEqual({ messages: ['missed'] });
    expect(serverLoader).toHaveBeenCalledTimes(2);
  });

  it("takes the offline worker's offline page for what it is: the network was not there", async () => {
    const serverLoader = vi
      .fn()
      .mockRejectedValueOnce(redirect(OFFLINE_PAGE, { headers: { 'X-Remix-Reload-Document': 'true' } }))
      .mockResolvedValueOnce({ ok: true });
    const refreshed = refreshWhenBackOnline(args(SHOWN, serverLoader));
    await vi.advanceTimersByTimeAsync(1000);
    await expect(refreshed).resolves.toEqual({ ok: true });
  });

  it('asks again 1 s, 2 s, 4 s… up to 10 s apart while the network is up but the server cannot be reached', async () => {
    const serverLoader = vi.fn().mockRejectedValue(offlineAnswer());
    void refreshWhenBackOnline(args(SHOWN, serverLoader)).catch(() => undefined);
    const calls: number[] = [];
    for (const wait of [0, 1000, 2000, 4000, 8000, 10_000, 10_000]) {
      await vi.advanceTimersByTimeAsync(wait);
      calls.push(serverLoader.mock.calls.length);
    }
    expect(calls).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('a navigation to another page that cannot reach the server fails as before (the offline page or the error page)', async () => {
    const failure = offlineAnswer();
    await expect(refreshWhenBackOnline(args('/latenights/vault', async () => Promise.reject(failure)))).rejects.toBe(failure);
    await expect(
      refreshWhenBackOnline(args('/latenights/account/messages/c1?username=latenights&pages=2', async () => Promise.reject(failure))),
    ).rejects.toBe(failure);
  });

  it("any other failure is the page's to show (a 404, a redirect to the login)", async () => {
    const notFound = new Response('Not found', { status: 404 });
    await expect(refreshWhenBackOnline(args(SHOWN, async () => Promise.reject(notFound)))).rejects.toBe(notFound);
    const login = redirect('/logout');
    await expect(refreshWhenBackOnline(args(SHOWN, async () => Promise.reject(login)))).rejects.toBe(login);
  });

  it('a navigation that cancels the waiting refresh ends it without asking again', async () => {
    online = false;
    const controller = new AbortController();
    const serverLoader = vi.fn().mockRejectedValue(offlineAnswer());
    const refreshed = refreshWhenBackOnline(args(SHOWN, serverLoader, controller.signal));
    const ended = expect(refreshed).rejects.toBeDefined();
    await vi.advanceTimersByTimeAsync(0);
    controller.abort();
    online = true;
    window.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(20_000);
    await ended;
    expect(serverLoader).toHaveBeenCalledTimes(1);
  });
});
