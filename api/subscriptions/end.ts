import { z } from 'zod';
import { tag } from '../cache/tags.js';
import type { Reads } from '../context.js';
import { one } from '../db/client.js';
import { notFound } from '../http.js';

export const EndMembershipSchema = z.object({
  artist: z.string({ error: 'Name the artist (their username).' }).trim().min(1, { error: 'Name the artist (their username).' }),
  fan: z.string({ error: 'Name the fan (their email).' }).trim().min(3, { error: 'Name the fan (their email).' }),
});

/**
 * An operator ends a fan's membership now, without a refund (a membership given in error, a fan's own request):
 * it stops renewing and its year ends today, as a year that ran out would. What was paid for stays the fan's when
 * the artist keeps paid items (decision 014); a refund (POST /admin/refunds) is the way to take it back.
 */
export interface EndedMembership {
  artist: string;
  fan: string;
  endedAt: string;
}

export async function endMembership(ctx: Reads, input: z.output<typeof EndMembershipSchema>): Promise<EndedMembership> {
  const row = await one<{ userId: string; artistId: string; expiresAt: Date }>(
    ctx.db,
    `UPDATE subscriptions s SET status = 'expired', auto_renew = false, expires_at = least(s.expires_at, now()), updated_at = now()
       FROM users a, users f
      WHERE s.artist_id = a.id AND s.user_id = f.id AND lower(a.username) = lower($1) AND lower(f.email) = lower($2)
        AND s.status = 'active'
      RETURNING s.user_id AS "userId", s.artist_id AS "artistId", s.expires_at AS "expiresAt"`,
    [input.artist, input.fan],
  );
  if (!row) throw notFound('This fan has no running membership of this artist’s fan club.');
  // The fan's memberships, and the artist's subscriber count and list (one member fewer).
  await ctx.cache.invalidate(tag.fanSubscriptions(row.userId), tag.artist(row.artistId));
  return { artist: input.artist, fan: input.fan, endedAt: new Date(row.expiresAt).toISOString() };
}
