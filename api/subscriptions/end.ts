import { z } from 'zod';
import { tag } from '../cache/tags.js';
import type { Reads } from '../context.js';
import { one } from '../db/client.js';
import { ApiError, notFound } from '../http.js';
import type { PaymentGateway } from '../payments/gateway.js';

const stripeNotConfigured = () =>
  new ApiError(
    503,
    'This membership renews through Stripe, and Stripe is not configured here (STRIPE_SECRET_KEY): nothing was ended. Run this where Stripe is configured, or cancel the subscription in Stripe first.',
  );

export const EndMembershipSchema = z.object({
  artist: z.string({ error: 'Name the artist (their username).' }).trim().min(1, { error: 'Name the artist (their username).' }),
  fan: z.string({ error: 'Name the fan (their email).' }).trim().min(3, { error: 'Name the fan (their email).' }),
});

/**
 * An operator ends a fan's membership now, without a refund (a membership given in error, a fan's own request):
 * it stops renewing and its year ends today, as a year that ran out would. What was paid for stays the fan's when
 * the artist keeps paid items (decision 014); a refund (POST /admin/refunds) is the way to take it back. A
 * membership Stripe renews is cancelled at Stripe first: if Stripe cannot be told, nothing ends, so no fan is
 * charged next year for a membership we ended.
 */
export interface EndedMembership {
  artist: string;
  fan: string;
  endedAt: string;
}

export async function endMembership(
  ctx: Reads & { gateway?: PaymentGateway | null },
  input: z.output<typeof EndMembershipSchema>,
): Promise<EndedMembership> {
  const running = await one<{ userId: string; artistId: string; gateway: string; gatewaySubscriptionId: string | null }>(
    ctx.db,
    `SELECT s.user_id AS "userId", s.artist_id AS "artistId", s.gateway, s.gateway_subscription_id AS "gatewaySubscriptionId"
       FROM subscriptions s JOIN users a ON a.id = s.artist_id JOIN users f ON f.id = s.user_id
      WHERE lower(a.username) = lower($1) AND lower(f.email) = lower($2) AND s.status = 'active'`,
    [input.artist, input.fan],
  );
  if (running?.gateway === 'stripe' && running.gatewaySubscriptionId) {
    if (ctx.gateway?.name !== 'stripe') throw stripeNotConfigured();
    await ctx.gateway.cancelNow(running.gatewaySubscriptionId);
  }
  const ended = running && (await endMembershipNow(ctx, running.userId, running.artistId));
  if (!ended) throw notFound('This fan has no running membership of this artist’s fan club.');
  return { artist: input.artist, fan: input.fan, endedAt: ended.endedAt.toISOString() };
}

export interface EndedNow {
  endedAt: Date;
  /** The gateway that billed it (a Stripe subscription is cancelled by the caller that has the gateway). */
  gateway: string;
  gatewaySubscriptionId: string | null;
}

/**
 * Ends the fan's running membership of the artist's club now, renewing never: the CLI's end-membership, and what is
 * left of a membership an artist ends (a free one, a free trial) once its refunds are made. Undefined if none runs.
 */
export async function endMembershipNow(ctx: Reads, userId: string, artistId: string): Promise<EndedNow | undefined> {
  const row = await one<{ expiresAt: Date; gateway: string; gatewaySubscriptionId: string | null }>(
    ctx.db,
    `UPDATE subscriptions s SET status = 'expired', auto_renew = false, expires_at = least(s.expires_at, now()), updated_at = now()
      WHERE s.user_id = $1 AND s.artist_id = $2 AND s.status = 'active'
      RETURNING s.expires_at AS "expiresAt", s.gateway, s.gateway_subscription_id AS "gatewaySubscriptionId"`,
    [userId, artistId],
  );
  if (!row) return undefined;
  // The fan's memberships, and the artist's subscriber count and list (one member fewer).
  await ctx.cache.invalidate(tag.fanSubscriptions(userId), tag.artist(artistId));
  return { endedAt: new Date(row.expiresAt), gateway: row.gateway, gatewaySubscriptionId: row.gatewaySubscriptionId };
}
