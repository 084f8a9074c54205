import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client.js';
import { createReadCache, type ReadCache } from './read-cache.js';

const CHANNEL = 'stagedoor_cache';
/** NOTIFY payloads must stay under 8000 bytes: tags are sent in batches well below it. */
const TAGS_PER_NOTICE = 60;

/**
 * The read cache of one api process. On PostgreSQL other api processes may share the database, so invalidations
 * are announced through it (LISTEN/NOTIFY) and the cache serves nothing while it cannot hear theirs: until the
 * listening connection is up, and again from the moment it drops until it is back (then it starts empty). PGlite
 * lives in one process: nobody else writes, so nothing needs announcing.
 */
export function createCacheForDb(db: Db, onError: (error: unknown) => void): { cache: ReadCache; close(): Promise<void> } {
  const channel = db.notifications;
  if (!channel) return { cache: createReadCache(), close: async () => {} };

  const node = randomUUID();
  const cache = createReadCache({
    async announce(tags) {
      for (let i = 0; i < tags.length; i += TAGS_PER_NOTICE) {
        const notice = JSON.stringify({ node, tags: tags.slice(i, i + TAGS_PER_NOTICE) });
        // The write itself has committed; a lost announcement is bounded by the entries' time limit.
        await channel.notify(CHANNEL, notice).catch(onError);
      }
    },
  });
  cache.setEnabled(false);
  const listener = channel.listen(
    CHANNEL,
    (payload) => {
      const notice = parseNotice(payload);
      if (notice && notice.node !== node) cache.invalidateLocally(notice.tags);
    },
    (listening) => cache.setEnabled(listening),
  );
  return { cache, close: () => listener.close() };
}

function parseNotice(payload: string): { node: string; tags: string[] } | undefined {
  try {
    const notice = JSON.parse(payload) as { node?: unknown; tags?: unknown };
    if (typeof notice.node !== 'string' || !Array.isArray(notice.tags)) return undefined;
    return { node: notice.node, tags: notice.tags.filter((tag): tag is string => typeof tag === 'string') };
  } catch {
    return undefined;
  }
}
