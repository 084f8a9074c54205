import { CHECK_MESSAGE } from '../offline/message';
import {
  audioKey,
  changesSession,
  checkIsDue,
  checkBatches,
  OFFLINE_CACHE,
  OFFLINE_CHECK,
  OWNER_KEY,
  readOfflineCheck,
  readOwner,
  readSavedTrack,
  trackKey,
  tracksOf,
  tracksToRemove,
} from '../offline/saved';
import { savedTracks } from '../offline/store';
import type { WorkerScope } from './scope';

/**
 * The access rule of saved tracks, applied each time the app is online (docs/listening.md "Offline"). The worker sees
 * every page the fan opens (a full load or a client-side navigation): at most once a minute it then asks the web
 * tier which saved items the fan can still open and deletes the others. The offline page asks for a check at once
 * (CHECK_MESSAGE) and waits for it. A logout deletes every saved track (the server's Clear-Site-Data does too, with or
 * without a worker). Each check also records who is signed in (OWNER_KEY): only that fan's tracks are listed and
 * played; a request that may change who is signed in (a logout, a log-in) forgets it until the next check.
 * The pages themselves only register the worker.
 */
export function keepSavedTracksTrue(scope: WorkerScope, fetchCheck: (ids: string[]) => Promise<Response> = defaultFetch) {
  let lastCheckedAt: number | undefined;
  let running: Promise<void> = Promise.resolve();

  const open = () => caches.open(OFFLINE_CACHE);
  const remove = (cache: Cache, ids: string[]) =>
    Promise.all(ids.flatMap((id) => [cache.delete(trackKey(id)), cache.delete(audioKey(id))]));

  const setOwner = (cache: Cache, userId: string | null) =>
    userId === null ? cache.delete(OWNER_KEY) : cache.put(OWNER_KEY, Response.json({ userId }));

  const check = async (force: boolean) => {
    const now = Date.now();
    if (!checkIsDue(lastCheckedAt, now, force)) return;
    const cache = await open();
    const saved = await savedTracks(cache);
    if (!saved.length) return;
    for (const asked of checkBatches(saved)) {
      // Offline, or an answer we cannot read (a refusal included): nothing is known, so everything stays.
      const response = await fetchCheck(asked).catch(() => null);
      const answer = response?.ok ? readOfflineCheck(await response.json().catch(() => null)) : null;
      if (!answer) return;
      await setOwner(cache, answer.userId);
      await remove(cache, tracksToRemove(saved, asked, answer));
    }
    lastCheckedAt = now;
  };

  const removeAll = async () => {
    const cache = await open();
    await setOwner(cache, null);
    await remove(
      cache,
      (await savedTracks(cache)).map((track) => track.itemId),
    );
  };

  /** Someone may sign in or out: nobody's tracks are shown until a check says whose they are, which the next page runs. */
  const forgetOwner = async () => {
    await setOwner(await open(), null);
    lastCheckedAt = undefined;
  };

  /** One piece of work at a time, in order, whatever the last one's outcome. */
  const queue = (work: () => Promise<void>) => (running = running.then(work).catch(() => undefined));

  scope.addEventListener('fetch', (event) => {
    const url = new URL(event.request.url);
    if (url.origin !== scope.location.origin) return;
    if (url.pathname === '/logout') event.waitUntil(queue(removeAll));
    else if (changesSession(event.request.method, url.pathname)) event.waitUntil(queue(forgetOwner));
    else if (event.request.mode === 'navigate' || url.searchParams.has('_data')) event.waitUntil(queue(() => check(false)));
  });

  scope.addEventListener('message', (event) => {
    if ((event.data as { type?: unknown } | null)?.type !== CHECK_MESSAGE) return;
    // The page waiting on it is told when it is over, whatever the outcome.
    event.waitUntil(queue(() => check(true)).then(() => event.ports[0]?.postMessage({ type: CHECK_MESSAGE, done: true })));
  });
}

/** Whether the saved track of this item may be played: it is the fan's this browser last knew signed in. */
export async function mayPlay(itemId: string) {
  const cache = await caches.open(OFFLINE_CACHE);
  const [owner, track] = await Promise.all([cache.match(OWNER_KEY), cache.match(trackKey(itemId))]);
  const userId = readOwner(await owner?.json().catch(() => null));
  const saved = readSavedTrack(await track?.json().catch(() => null));
  return saved !== null && tracksOf([saved], userId).length === 1;
}

function defaultFetch(ids: string[]) {
  const url = new URL(OFFLINE_CHECK, self.location.origin);
  for (const id of ids) url.searchParams.append('id', id);
  return fetch(url, { credentials: 'same-origin', cache: 'no-store' });
}
