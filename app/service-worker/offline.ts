import { CHECK_MESSAGE } from '../offline/message';
import { checkIsDue, idsToAsk, OFFLINE_CACHE, OFFLINE_CHECK, readOfflineCheck, tracksToRemove, audioKey, trackKey } from '../offline/saved';
import { savedTracks } from '../offline/store';
import type { WorkerScope } from './scope';

/** What a page posts: the signed-in fan as the page knows it (null: nobody; undefined: the page cannot tell), and whether to ask the api now. */
interface CheckRequest {
  type: typeof CHECK_MESSAGE;
  userId?: string | null;
  force?: boolean;
}

function readCheckRequest(data: unknown): CheckRequest | null {
  if (!data || typeof data !== 'object' || (data as { type?: unknown }).type !== CHECK_MESSAGE) return null;
  const { userId, force } = data as Record<string, unknown>;
  return {
    type: CHECK_MESSAGE,
    userId: userId === null || typeof userId === 'string' ? userId : undefined,
    force: force === true,
  };
}

/**
 * The access rule of saved tracks, applied each time the app is online (docs/listening.md "Offline"): every page load
 * posts CHECK_MESSAGE; the worker asks the web tier which saved items the fan can still open and deletes the others.
 * A page that says nobody is signed in (after logging out) has every saved track deleted at once.
 */
export function keepSavedTracksTrue(scope: WorkerScope, fetchCheck: (ids: string[]) => Promise<Response> = defaultFetch) {
  let lastCheckedAt: number | undefined;
  let running: Promise<void> | undefined;

  const check = async (request: CheckRequest) => {
    const cache = await caches.open(OFFLINE_CACHE);
    const saved = await savedTracks(cache);
    if (!saved.length) return;
    const remove = (ids: string[]) => Promise.all(ids.flatMap((id) => [cache.delete(trackKey(id)), cache.delete(audioKey(id))]));
    if (request.userId === null) {
      await remove(saved.map((track) => track.itemId));
      return;
    }
    const now = Date.now();
    if (!checkIsDue(lastCheckedAt, now, Boolean(request.force))) return;
    const asked = idsToAsk(saved);
    // Offline, or an answer we cannot read: nothing is known, so everything stays.
    const response = await fetchCheck(asked).catch(() => null);
    const answer = response?.ok ? readOfflineCheck(await response.json().catch(() => null)) : null;
    if (!answer) return;
    lastCheckedAt = now;
    await remove(tracksToRemove(saved, asked, answer));
  };

  scope.addEventListener('message', (event) => {
    const request = readCheckRequest(event.data);
    if (!request) return;
    // One check at a time; a page waiting on it (the offline page) is told when it is over, whatever the outcome.
    const work = (running ?? Promise.resolve())
      .then(() => check(request))
      .catch(() => undefined)
      .then(() => event.ports[0]?.postMessage({ type: CHECK_MESSAGE, done: true }));
    running = work;
    event.waitUntil(work);
  });
}

function defaultFetch(ids: string[]) {
  const url = new URL(OFFLINE_CHECK, self.location.origin);
  for (const id of ids) url.searchParams.append('id', id);
  return fetch(url, { credentials: 'same-origin', cache: 'no-store' });
}
