import { CHECK_MESSAGE } from '../offline/message';
import {
  audioKey,
  checkIsDue,
  checkBatches,
  OFFLINE_CACHE,
  OFFLINE_CHECK,
  readOfflineCheck,
  trackKey,
  tracksToRemove,
} from '../offline/saved';
import { savedTracks } from '../offline/store';
import type { WorkerScope } from './scope';

/** Where the account menu's "Log out" posts, and where the guards send a visitor whose session ended. */
const LOGOUT = '/logout';

/**
 * The access rule of saved tracks, applied each time the app is online (docs/listening.md "Offline"). The worker sees
 * every page the fan opens (a full load or a client-side navigation): at most once a minute it then asks the web
 * tier which saved items the fan can still open and deletes the others. The offline page asks for a check at once
 * (CHECK_MESSAGE) and waits for it. A logout deletes every saved track. The pages themselves only register the worker.
 */
export function keepSavedTracksTrue(scope: WorkerScope, fetchCheck: (ids: string[]) => Promise<Response> = defaultFetch) {
  let lastCheckedAt: number | undefined;
  let running: Promise<void> = Promise.resolve();

  const open = () => caches.open(OFFLINE_CACHE);
  const remove = (cache: Cache, ids: string[]) =>
    Promise.all(ids.flatMap((id) => [cache.delete(trackKey(id)), cache.delete(audioKey(id))]));

  const check = async (force: boolean) => {
    const now = Date.now();
    if (!checkIsDue(lastCheckedAt, now, force)) return;
    const cache = await open();
    const saved = await savedTracks(cache);
    if (!saved.length) return;
    for (const asked of checkBatches(saved)) {
      // Offline, or an answer we cannot read: nothing is known, so everything stays.
      const response = await fetchCheck(asked).catch(() => null);
      const answer = response?.ok ? readOfflineCheck(await response.json().catch(() => null)) : null;
      if (!answer) return;
      await remove(cache, tracksToRemove(saved, asked, answer));
    }
    lastCheckedAt = now;
  };

  const removeAll = async () => {
    const cache = await open();
    await remove(
      cache,
      (await savedTracks(cache)).map((track) => track.itemId),
    );
  };

  /** One piece of work at a time, in order, whatever the last one's outcome. */
  const queue = (work: () => Promise<void>) => (running = running.then(work).catch(() => undefined));

  scope.addEventListener('fetch', (event) => {
    const url = new URL(event.request.url);
    if (url.origin !== scope.location.origin) return;
    if (url.pathname === LOGOUT) event.waitUntil(queue(removeAll));
    else if (event.request.mode === 'navigate' || url.searchParams.has('_data')) event.waitUntil(queue(() => check(false)));
  });

  scope.addEventListener('message', (event) => {
    if ((event.data as { type?: unknown } | null)?.type !== CHECK_MESSAGE) return;
    // The page waiting on it is told when it is over, whatever the outcome.
    event.waitUntil(queue(() => check(true)).then(() => event.ports[0]?.postMessage({ type: CHECK_MESSAGE, done: true })));
  });
}

function defaultFetch(ids: string[]) {
  const url = new URL(OFFLINE_CHECK, self.location.origin);
  for (const id of ids) url.searchParams.append('id', id);
  return fetch(url, { credentials: 'same-origin', cache: 'no-store' });
}
