import { LRUCache } from 'lru-cache';

/**
 * The api's hot reads (the session behind a token, an artist, a subscription, an artist's content lists, a
 * conversation's messages, unread totals) served from memory, kept exact by invalidation rather than by a short
 * lifetime (docs/decisions/004-read-cache.md).
 *
 * Every entry names the tags it was built from (`content:<artistId>`, `user:<id>`…). A write invalidates its tags
 * once it has committed, on this node at once and on the other api nodes through the database (broadcast.ts). An
 * entry remembers the invalidation sequence number at the moment its load started, and it is valid only while none
 * of its tags has been invalidated since: a write that commits while a slow load is under way can never leave the
 * old answer behind. Entries also carry a time bound: MAX_AGE_MS at most, and sooner when the answer changes with
 * the clock (a scheduled item coming out, a subscription or session expiring, a signed link's window).
 */
export const MAX_AGE_MS = 30_000;
const MAX_ENTRIES = 20_000;
/** Past this many remembered tags everything is dropped and counting starts afresh (memory stays bounded). */
const MAX_TAGS = 200_000;

export interface Loaded<T> {
  value: T;
  /** What the value was built from: a write to any of these makes it stale. */
  tags: readonly string[];
  /** Epoch milliseconds after which the value is stale whatever the writes (optional). */
  until?: number;
  /** False for answers not worth keeping (an unknown token: anyone can make up as many as they like). */
  keep?: boolean;
}

/** An answer handed back but not kept (a "no" anyone can ask for with made-up ids or tokens). */
export function notKept<T>(value: T): Loaded<T> {
  return { value, tags: [], keep: false };
}

interface Entry {
  value: unknown;
  tags: readonly string[];
  startSeq: number;
  until: number;
}

export interface ReadCacheStats {
  hits: number;
  misses: number;
  invalidations: number;
  entries: number;
}

export interface ReadCache {
  /** The value for key: from memory while it is valid, else from `load` (one load at a time per key). */
  read<T>(key: string, load: () => Promise<Loaded<T>>): Promise<T>;
  /** After a committed write: entries built from any of these tags are stale, here and on every other node. */
  invalidate(...tags: string[]): Promise<void>;
  /** Applies an invalidation another node announced (no new announcement). */
  invalidateLocally(tags: readonly string[]): void;
  /** Forgets everything. */
  clear(): void;
  /** While disabled every read loads and nothing is kept (the other nodes' invalidations cannot reach us). */
  setEnabled(enabled: boolean): void;
  readonly enabled: boolean;
  stats(): ReadCacheStats;
}

export interface ReadCacheOptions {
  /** Tells the other api nodes; resolves once the announcement is sent. Absent with one node (PGlite). */
  announce?: (tags: readonly string[]) => Promise<void>;
  clock?: () => number;
  maxEntries?: number;
}

export function createReadCache({ announce, clock = Date.now, maxEntries = MAX_ENTRIES }: ReadCacheOptions = {}): ReadCache {
  const entries = new LRUCache<string, Entry>({ max: maxEntries });
  const loading = new Map<string, Promise<unknown>>();
  const invalidatedAt = new Map<string, number>();
  let seq = 0;
  /** The seq of the last clear: a load that started before it may have read what was there before and is not kept. */
  let clearedAt = 0;
  let enabled = true;
  const counts = { hits: 0, misses: 0, invalidations: 0 };

  const valid = (entry: Entry) =>
    entry.until > clock() && entry.startSeq >= clearedAt && entry.tags.every((tag) => (invalidatedAt.get(tag) ?? 0) <= entry.startSeq);

  function clear() {
    entries.clear();
    loading.clear();
    invalidatedAt.clear();
    seq += 1;
    clearedAt = seq;
  }

  function invalidateLocally(tags: readonly string[]) {
    if (tags.length === 0) return;
    seq += 1;
    for (const tag of tags) invalidatedAt.set(tag, seq);
    counts.invalidations += 1;
    // A reader arriving after this write must not join a load that may have read what was there before it.
    loading.clear();
    if (invalidatedAt.size > MAX_TAGS) clear();
  }

  return {
    async read<T>(key: string, load: () => Promise<Loaded<T>>): Promise<T> {
      if (!enabled) return (await load()).value;
      const entry = entries.get(key);
      if (entry && valid(entry)) {
        counts.hits += 1;
        return entry.value as T;
      }
      counts.misses += 1;
      const pending = loading.get(key);
      if (pending) return (await pending) as T;
      const startSeq = seq;
      const promise = load().then((loaded) => {
        const until = Math.min(loaded.until ?? Infinity, clock() + MAX_AGE_MS);
        const fresh: Entry = { value: loaded.value, tags: loaded.tags, startSeq, until };
        if (enabled && loaded.keep !== false && valid(fresh)) entries.set(key, fresh);
        return loaded.value;
      });
      // Settled, it leaves the map (unless a write has cleared the map and a newer load took the key).
      const settled = () => {
        if (loading.get(key) === promise) loading.delete(key);
      };
      promise.then(settled, settled);
      loading.set(key, promise);
      return promise;
    },
    async invalidate(...tags: string[]) {
      invalidateLocally(tags);
      if (announce && tags.length) await announce(tags);
    },
    invalidateLocally,
    clear,
    setEnabled(value: boolean) {
      if (value === enabled) return;
      enabled = value;
      clear();
    },
    get enabled() {
      return enabled;
    },
    stats: () => ({ ...counts, entries: entries.size }),
  };
}
