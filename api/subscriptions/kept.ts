import { tag } from '../cache/tags.js';
import type { Reads } from '../context.js';
import { one } from '../db/client.js';
import { notKept } from '../cache/read-cache.js';
import { ACTIVE_SUBSCRIPTION } from './queries.js';

/** The paid membership a lapsed fan keeps the items of: those published from `from` until `until`. */
export interface KeptPeriod {
  from: Date;
  until: Date;
}

/**
 * "Keep what you paid for" (an artist setting, on by default; decision 014): a fan whose paid membership lapsed
 * (cancelled, or its year ran out) keeps reading and playing what was published while they paid. Nothing is kept
 * after a refund or during a dispute (their statuses), from a free membership, a free trial never paid for, or a
 * membership that is still active (that one opens everything). Asked only once hasAccess has said no; kept until
 * the fan's subscriptions change or the artist edits the setting.
 */
export async function keptPeriod(reads: Reads, userId: string, artistId: string): Promise<KeptPeriod | null> {
  const period = await reads.cache.read(`kept:${userId}:${artistId}`, async () => {
    const row = await one<{ from: Date; until: Date }>(
      reads.db,
      `SELECT s.started_at AS "from", s.expires_at AS "until"
         FROM subscriptions s JOIN artist_profiles p ON p.user_id = s.artist_id
        WHERE s.user_id = $1 AND s.artist_id = $2 AND p.keep_paid_items
          AND s.status IN ('active', 'canceled', 'expired') AND NOT (s.${ACTIVE_SUBSCRIPTION})
          AND (s.price_paid_cents > 0 OR s.type = 'gift') AND s.trial_ends_at IS NULL
          AND s.expires_at > s.started_at`,
      [userId, artistId],
    );
    if (!row) return notKept(null);
    return { value: { from: new Date(row.from), until: new Date(row.until) }, tags: [tag.fanSubscriptions(userId), tag.artist(artistId)] };
  });
  return period;
}

/** Whether an item published at this time is one the fan keeps. */
export const keeps = (period: KeptPeriod, publishAt: Date) => {
  const at = new Date(publishAt).getTime();
  return at >= period.from.getTime() && at < period.until.getTime();
};
