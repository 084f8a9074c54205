import { tag } from '../cache/tags.js';
import type { Reads } from '../context.js';
import { one, type Queryable } from '../db/client.js';
import { notKept } from '../cache/read-cache.js';

/** A subscription gives access while it is active and its year has not run out. */
export const ACTIVE_SUBSCRIPTION = `status = 'active' AND expires_at > now()`;

export async function isSubscribed(db: Queryable, userId: string, artistId: string) {
  const row = await one(db, `SELECT 1 FROM subscriptions WHERE user_id = $1 AND artist_id = $2 AND ${ACTIVE_SUBSCRIPTION}`, [
    userId,
    artistId,
  ]);
  return row !== undefined;
}

/**
 * Whether a fan's subscription to an artist gives access now, for the guards of every read (content, media,
 * messages). Only "yes" is cached, until the subscription runs out: a new subscription counts at once, a renewal
 * only lengthens access, and a cancellation invalidates tag.fanSubscriptions (the webhooks do). Decisions that
 * move money (subscribing again) ask the database itself through isSubscribed.
 */
export async function hasAccess(reads: Reads, userId: string, artistId: string) {
  return reads.cache.read(`subscribed:${userId}:${artistId}`, async () => {
    const row = await one<{ expiresAt: Date }>(
      reads.db,
      `SELECT expires_at AS "expiresAt" FROM subscriptions WHERE user_id = $1 AND artist_id = $2 AND ${ACTIVE_SUBSCRIPTION}`,
      [userId, artistId],
    );
    if (!row) return notKept(false);
    return { value: true, tags: [tag.fanSubscriptions(userId)], until: new Date(row.expiresAt).getTime() };
  });
}
