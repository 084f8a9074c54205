import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHECK_MESSAGE } from '~/offline/message';
import {
  audioKey,
  changesSession,
  CHECK_INTERVAL_MS,
  CHECK_LIMIT,
  checkIsDue,
  formatSize,
  checkBatches,
  itemOfAudioKey,
  OFFLINE_CACHE,
  OWNER_KEY,
  readOfflineCheck,
  readOwner,
  readSavedTrack,
  trackKey,
  tracksOf,
  tracksToRemove,
  type SavedTrack,
} from '~/offline/saved';
import { keepSavedTracksTrue, mayPlay } from '~/service-worker/offline';
import type { FetchEventLike, MessageEventLike, WorkerScope } from '~/service-worker/scope';

/** Offline listening's rules (docs/listening.md "Offline"): what is kept, what is deleted and when the api is asked. */

const ORIGIN = 'https://stagedoor.example';

const saved = (itemId: string, userId = 'fan-1', savedAt = '2026-11-01T10:00:00.000Z'): SavedTrack => ({
  itemId,
  title: `Track ${itemId}`,
  artistName: 'Juniper Lane',
  href: `/juniperlane/vault/${itemId}?type=audio`,
  userId,
  savedAt,
  size: 2_400_000,
});

describe('saved tracks', () => {
  it('are read back only in their own shape', () => {
    expect(readSavedTrack(saved('a'))).toEqual(saved('a'));
    expect(readSavedTrack({ ...saved('a'), title: '' })).toBeNull();
    expect(readSavedTrack({ ...saved('a'), size: -1 })).toBeNull();
    expect(readSavedTrack({ ...saved('a'), extra: 'dropped' })).toEqual(saved('a'));
    expect(readSavedTrack('nonsense')).toBeNull();
  });

  it('keep the audio and what the page shows under stable keys of this site', () => {
    expect(audioKey('42')).toBe('/offline/audio/42');
    expect(trackKey('a/b')).toBe('/offline/tracks/a%2Fb');
  });

  it('are deleted when the fan can no longer open them, another fan signs in, or nobody is signed in', () => {
    const tracks = [saved('kept'), saved('refunded'), saved('deleted'), saved('not-asked'), saved('theirs', 'fan-2')];
    const asked = ['kept', 'refunded', 'deleted', 'theirs'];
    expect(tracksToRemove(tracks, asked, { userId: 'fan-1', playable: ['kept'] })).toEqual(['refunded', 'deleted', 'theirs']);
    expect(tracksToRemove(tracks, asked, { userId: null, playable: [] })).toEqual(['kept', 'refunded', 'deleted', 'not-asked', 'theirs']);
  });

  it('are asked about CHECK_LIMIT to a request, all of them', () => {
    const many = Array.from({ length: CHECK_LIMIT + 5 }, (_, i) => saved(`t${i}`));
    const batches = checkBatches(many);
    expect(batches.map((batch) => batch.length)).toEqual([CHECK_LIMIT, 5]);
    expect(batches.flat()).toEqual(many.map((track) => track.itemId));
  });

  it('take only a well-formed answer from the web tier', () => {
    expect(readOfflineCheck({ userId: 'u', playable: ['a'] })).toEqual({ userId: 'u', playable: ['a'] });
    expect(readOfflineCheck({ userId: null, playable: [] })).toEqual({ userId: null, playable: [] });
    expect(readOfflineCheck({ userId: 'u', playable: [1] })).toBeNull();
    expect(readOfflineCheck('<!doctype html>')).toBeNull();
  });

  it('are checked at most once a minute unless asked to', () => {
    expect(checkIsDue(undefined, 1000, false)).toBe(true);
    expect(checkIsDue(0, CHECK_INTERVAL_MS - 1, false)).toBe(false);
    expect(checkIsDue(0, CHECK_INTERVAL_MS - 1, true)).toBe(true);
    expect(checkIsDue(0, CHECK_INTERVAL_MS, false)).toBe(true);
  });

  it('are listed and played only for the fan this browser last knew signed in, and for nobody when it knows none', () => {
    const tracks = [saved('mine'), saved('theirs', 'fan-2'), saved('also-mine')];
    expect(tracksOf(tracks, 'fan-1').map((track) => track.itemId)).toEqual(['mine', 'also-mine']);
    expect(tracksOf(tracks, 'fan-2').map((track) => track.itemId)).toEqual(['theirs']);
    expect(tracksOf(tracks, null)).toEqual([]);
    expect(readOwner({ userId: 'fan-1' })).toBe('fan-1');
    for (const value of [null, {}, { userId: '' }, { userId: 7 }, 'fan-1']) expect(readOwner(value)).toBeNull();
    expect(itemOfAudioKey('/offline/audio/a%2Fb')).toBe('a/b');
    expect(itemOfAudioKey('/offline/tracks/a')).toBeUndefined();
    expect(itemOfAudioKey('/offline/audio/')).toBeUndefined();
  });

  it('forget whose they are when someone may sign in or out', () => {
    expect(changesSession('GET', '/logout')).toBe(true);
    expect(changesSession('POST', '/logout')).toBe(true);
    expect(changesSession('POST', '/login')).toBe(true);
    expect(changesSession('POST', '/juniperlane/subscribe/register')).toBe(true);
    expect(changesSession('POST', '/gift/Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5')).toBe(true);
    expect(changesSession('GET', '/login')).toBe(false);
    expect(changesSession('POST', '/juniperlane/vault/42')).toBe(false);
    expect(changesSession('POST', '/juniperlane/subscribe/payment')).toBe(false);
  });

  it('show their size', () => {
    expect(formatSize(400)).toBe('1 KB');
    expect(formatSize(250_000)).toBe('250 KB');
    expect(formatSize(4_230_000)).toBe('4.2 MB');
  });
});

/** Cache Storage as the worker sees it, in memory. */
class MemoryCache {
  readonly entries = new Map<string, Response>();
  private url = (request: RequestInfo | URL) => new URL(request instanceof Request ? request.url : String(request), ORIGIN).href;
  async keys() {
    return [...this.entries.keys()].map((url) => new Request(url));
  }
  async match(request: RequestInfo | URL) {
    return this.entries.get(this.url(request))?.clone();
  }
  async put(request: RequestInfo | URL, response: Response) {
    this.entries.set(this.url(request), response);
  }
  async delete(request: RequestInfo | URL) {
    return this.entries.delete(this.url(request));
  }
  paths() {
    return [...this.entries.keys()].map((url) => new URL(url).pathname).sort();
  }
}

function worker(answer: (ids: string[]) => Promise<Response>) {
  const cache = new MemoryCache();
  vi.stubGlobal('caches', { open: async (name: string) => (name === OFFLINE_CACHE ? cache : new MemoryCache()) });
  const handlers = new Map<string, (event: never) => void>();
  const scope = {
    location: { origin: ORIGIN },
    addEventListener: (type: string, handler: (event: never) => void) => handlers.set(type, handler),
  };
  const fetchCheck = vi.fn(answer);
  keepSavedTracksTrue(scope as unknown as WorkerScope, fetchCheck);
  /** As the pages save a track (app/offline/store.ts): its audio, what the page shows, and who saved it. */
  const save = async (track: SavedTrack) => {
    await cache.put(audioKey(track.itemId), new Response('audio'));
    await cache.put(trackKey(track.itemId), Response.json(track));
    await cache.put(OWNER_KEY, Response.json({ userId: track.userId }));
  };
  const owner = async () => readOwner(await (await cache.match(OWNER_KEY))?.json());
  const dispatch = async (type: 'fetch' | 'message', event: Omit<FetchEventLike, 'waitUntil'> | Omit<MessageEventLike, 'waitUntil'>) => {
    let work: Promise<unknown> = Promise.resolve();
    (handlers.get(type) as (event: unknown) => void)({ ...event, waitUntil: (promise: Promise<unknown>) => (work = promise) });
    await work;
  };
  /** A request that is not a page: a script, a form's post, another site's address. */
  const open = (url: string, init?: RequestInit) => dispatch('fetch', { request: new Request(new URL(url, ORIGIN), init) });
  const navigate = (path: string) => dispatch('fetch', { request: { url: `${ORIGIN}${path}`, mode: 'navigate' } as Request });
  const askNow = () => {
    const reply = vi.fn();
    return dispatch('message', { data: { type: CHECK_MESSAGE }, ports: [{ postMessage: reply }] }).then(() => reply);
  };
  return { cache, save, owner, navigate, open, askNow, fetchCheck };
}

describe('the service worker keeps saved tracks true', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('deletes, when the fan opens a page, the tracks the web tier says they can no longer open', async () => {
    const sw = worker(async () => Response.json({ userId: 'fan-1', playable: ['kept'] }));
    await sw.save(saved('kept'));
    await sw.save(saved('refunded'));
    await sw.navigate('/juniperlane/posts');
    expect(sw.fetchCheck).toHaveBeenCalledWith(['kept', 'refunded']);
    expect(sw.cache.paths()).toEqual(['/offline/audio/kept', '/offline/owner', '/offline/tracks/kept']);
  });

  it('asks at most once a minute as pages open, and at once for the offline page, which it tells when done', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const sw = worker(async () => Response.json({ userId: 'fan-1', playable: ['a'] }));
    await sw.save(saved('a'));
    await sw.navigate('/');
    await sw.navigate('/juniperlane');
    expect(sw.fetchCheck).toHaveBeenCalledTimes(1);
    const reply = await sw.askNow();
    expect(sw.fetchCheck).toHaveBeenCalledTimes(2);
    expect(reply).toHaveBeenCalledWith({ type: CHECK_MESSAGE, done: true });
    vi.setSystemTime(Date.now() + CHECK_INTERVAL_MS);
    await sw.navigate('/juniperlane');
    expect(sw.fetchCheck).toHaveBeenCalledTimes(3);
  });

  it('keeps everything when it cannot tell (offline, an error page), and asks nothing when nothing is saved', async () => {
    const offline = worker(async () => {
      throw new TypeError('Failed to fetch');
    });
    await offline.navigate('/');
    expect(offline.fetchCheck).not.toHaveBeenCalled();
    await offline.save(saved('a'));
    await offline.navigate('/');
    expect(offline.cache.paths()).toHaveLength(3);

    const failing = worker(async () => new Response('Bad gateway', { status: 502 }));
    await failing.save(saved('a'));
    const reply = await failing.askNow();
    expect(failing.cache.paths()).toHaveLength(3);
    expect(reply).toHaveBeenCalled();
  });

  it('deletes every saved track on logout, and all of them when nobody is signed in', async () => {
    const sw = worker(async () => Response.json({ userId: null, playable: [] }));
    await sw.save(saved('a'));
    await sw.open('/logout?_data=routes%2F_unauth.logout', { method: 'POST' });
    expect(sw.cache.paths()).toEqual([]);
    expect(sw.fetchCheck).not.toHaveBeenCalled();

    await sw.save(saved('b'));
    await sw.askNow();
    expect(sw.cache.paths()).toEqual([]);
  });

  it('is not moved by a script, nor by another site’s logout', async () => {
    const sw = worker(async () => Response.json({ userId: null, playable: [] }));
    await sw.save(saved('a'));
    await sw.open('/build/root-ABC.js');
    await sw.open('https://elsewhere.example/logout', { method: 'POST' });
    expect(sw.fetchCheck).not.toHaveBeenCalled();
    expect(sw.cache.paths()).toHaveLength(3);
  });

  it('records who the check found signed in, and plays only that fan’s tracks', async () => {
    let signedIn = 'fan-1';
    const sw = worker(async (ids) => Response.json({ userId: signedIn, playable: ids }));
    await sw.save(saved('mine'));
    await sw.save(saved('theirs', 'fan-2'));
    // The last save was fan-2's: theirs is the one shown and played until a check says otherwise.
    expect(await mayPlay('theirs')).toBe(true);
    expect(await mayPlay('mine')).toBe(false);
    await sw.navigate('/');
    expect(await sw.owner()).toBe('fan-1');
    expect(await mayPlay('mine')).toBe(true);
    expect(await mayPlay('theirs')).toBe(false);
    expect(sw.cache.paths()).toEqual(['/offline/audio/mine', '/offline/owner', '/offline/tracks/mine']);
    expect(await mayPlay('never-saved')).toBe(false);

    // Someone logs in: nobody's tracks play until the next page's check, which is due at once and names them.
    await sw.open('/login?_data=routes%2F_unauth.login', { method: 'POST' });
    expect(await sw.owner()).toBeNull();
    expect(await mayPlay('mine')).toBe(false);
    signedIn = 'fan-3';
    await sw.navigate('/juniperlane');
    expect(sw.fetchCheck).toHaveBeenCalledTimes(2);
    expect(await sw.owner()).toBe('fan-3');
    expect(sw.cache.paths()).toEqual(['/offline/owner']);
  });

  it('forgets who was signed in on a logout of either form', async () => {
    const sw = worker(async () => Response.json({ userId: 'fan-1', playable: ['a'] }));
    await sw.save(saved('a'));
    await sw.navigate('/logout?next=%2Fjuniperlane%2Fvault');
    expect(sw.cache.paths()).toEqual([]);
    expect(await mayPlay('a')).toBe(false);
  });
});
