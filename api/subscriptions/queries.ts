import { one, type Queryable } from '../db/client.js';

/** A subscription gives access while it is active and its year has not run out. */
export const ACTIVE_SUBSCRIPTION = `status = 'active' AND expires_at > now()`;

export async function isSubscribed(db: Queryable, userId: string, artistId: string) {
  const row = await one(db, `SELECT 1 FROM subscriptions WHERE user_id = $1 AND artist_id = $2 AND ${ACTIVE_SUBSCRIPTION}`, [
    userId,
    artistId,
  ]);
  return row !== undefined;
}
