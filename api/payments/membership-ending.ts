import { moderationMessages, type MembershipEnding } from '#contract/moderation';
import { formatCents } from '#contract/money';
import { one, type Queryable } from '../db/client.js';
import { ApiError } from '../http.js';
import { queueMail } from '../mail/queue.js';
import { endMembershipNow } from '../subscriptions/end.js';
import { afterAccessEnded, CARD_TIME_LEFT, refundPayment } from './refunds.js';
import type { PaymentsContext } from './service.js';

/**
 * An artist ends a fan's membership (with a block, docs/moderation.md) and gives back what it had not used yet. Each
 * payment that paid for time still to come is refunded its unused part, prorated by the unused days of the period it
 * paid for: the fan's own last card payment, and each opened gift's year (to the gift's buyer, who paid for it). Every
 * refund goes through refundPayment, which takes that payment's time off; whatever still runs after them (a free
 * membership, a free trial) ends as the CLI's end-membership ends one.
 */

const DAY_SECONDS = 24 * 3600;

interface Part {
  paymentId: string;
  kind: 'card' | 'gift';
  amountCents: number;
  unusedDays: number;
  periodDays: number;
}

export interface Ending {
  /** What the page shows. */
  shown: MembershipEnding;
  subscriptionId: string;
  /** Gifts first (latest first), then the card payment: the refund that ends the membership is the fan's own. */
  parts: Part[];
}

interface PaidTime {
  paymentId: string;
  amountCents: number;
  refundedCents: number;
  currency: string;
  disputeStatus: string | null;
  leftSeconds: number;
  periodSeconds: number;
}

/** The share of what is left of a payment (net of earlier refunds) that its unused days are of its period. */
function prorated(time: PaidTime, kind: Part['kind']): Part {
  const periodDays = Math.max(1, Math.round(time.periodSeconds / DAY_SECONDS));
  const unusedDays = Math.min(periodDays, Math.max(0, Math.round(time.leftSeconds / DAY_SECONDS)));
  const net = Math.max(0, time.amountCents - time.refundedCents);
  return {
    paymentId: time.paymentId,
    kind,
    amountCents: Math.min(net, Math.round((net * unusedDays) / periodDays)),
    unusedDays,
    periodDays,
  };
}

/** What ending the fan's running membership of the artist's club would refund; undefined when none runs. */
export async function membershipEnding(db: Queryable, artistId: string, fanId: string): Promise<Ending | undefined> {
  const subscription = await one<{ id: string; status: string; currency: string }>(
    db,
    `SELECT s.id, s.status, coalesce(ap.currency, 'usd') AS currency
       FROM subscriptions s LEFT JOIN artist_profiles ap ON ap.user_id = s.artist_id
      WHERE s.user_id = $1 AND s.artist_id = $2 AND s.status IN ('active', 'disputed') AND s.expires_at > now()`,
    [fanId, artistId],
  );
  if (!subscription) return undefined;
  const gifts = await db.query<PaidTime>(
    `SELECT p.id AS "paymentId", p.amount_cents AS "amountCents", p.refunded_cents AS "refundedCents", p.currency,
            p.dispute_status AS "disputeStatus",
            extract(epoch FROM g.period_until - greatest(g.period_from, now()))::float8 AS "leftSeconds",
            extract(epoch FROM g.period_until - g.period_from)::float8 AS "periodSeconds"
       FROM gifts g JOIN payments p ON p.id = g.payment_id
      WHERE g.redeemed_by = $1 AND g.artist_id = $2 AND p.status = 'succeeded' AND g.period_until > now()
      ORDER BY g.period_from DESC, g.id`,
    [fanId, artistId],
  );
  // The last card payment's time still to come (an earlier year's is over), as a full refund would take it off.
  const card = await one<PaidTime>(
    db,
    `SELECT p.id AS "paymentId", p.amount_cents AS "amountCents", p.refunded_cents AS "refundedCents", p.currency,
            p.dispute_status AS "disputeStatus", ${CARD_TIME_LEFT} AS "leftSeconds",
            ${CARD_TIME_LEFT} + extract(epoch FROM now() - p.created_at)::float8 AS "periodSeconds"
       FROM subscriptions s JOIN payments p ON p.subscription_id = s.id
      WHERE s.id = $1 AND p.status = 'succeeded' AND p.kind IN ('subscribe', 'renewal')
      ORDER BY p.created_at DESC LIMIT 1`,
    [subscription.id],
  );
  const times = [...gifts.map((time) => ({ time, kind: 'gift' as const })), ...(card ? [{ time: card, kind: 'card' as const }] : [])];
  const disputed =
    subscription.status === 'disputed' || times.some(({ time }) => time.disputeStatus === 'open' || time.disputeStatus === 'lost');
  const parts = times.map(({ time, kind }) => prorated(time, kind)).filter((part) => part.amountCents > 0);
  const currency = card?.currency ?? gifts[0]?.currency ?? subscription.currency;
  const totalCents = parts.reduce((sum, part) => sum + part.amountCents, 0);
  return {
    parts,
    subscriptionId: subscription.id,
    shown: {
      free: totalCents === 0,
      disputed,
      refunds: parts.map(({ kind, amountCents, unusedDays, periodDays }) => ({
        kind,
        amount: formatCents(amountCents, currency),
        amountCents,
        unusedDays,
        periodDays,
      })),
      totalCents,
      total: formatCents(totalCents, currency),
    },
  };
}

export interface EndingOutcome {
  /** Whether this call ended it (false when none was running: a form sent twice). */
  ended: boolean;
  refundedCents: number;
  total: string;
}

/**
 * Ends the fan's membership now with the refunds membershipEnding shows. `expectedCents` is the total the artist
 * was shown: another total now (a day went by) is shown again rather than refunded.
 *
 * Each payment's refund has a key of its own (`end-membership-{payment}`), so the same membership ended twice at
 * once, or a form sent twice, refunds each payment once: the second finds the first's refund and adds nothing.
 */
export async function endMembershipWithRefund(
  pc: PaymentsContext,
  artist: { id: string; name: string },
  fanId: string,
  expectedCents?: number,
): Promise<EndingOutcome> {
  const ending = await membershipEnding(pc.db, artist.id, fanId);
  if (!ending) return { ended: false, refundedCents: 0, total: formatCents(0, 'usd') };
  if (ending.shown.disputed) throw new ApiError(409, moderationMessages.membershipDisputed);
  if (expectedCents !== undefined && expectedCents !== ending.shown.totalCents) {
    throw new ApiError(409, moderationMessages.refundChanged(ending.shown.total));
  }
  let refundedCents = 0;
  let fanRefunded = false;
  for (const part of ending.parts) {
    const requestKey = `end-membership-${part.paymentId}`;
    const outcome = await refundPayment(pc, {
      paymentId: part.paymentId,
      amountCents: part.amountCents,
      reason: part.kind === 'gift' ? moderationMessages.giftRefundReason(artist.name) : moderationMessages.refundReason(artist.name),
      keepAccess: false,
      source: 'artist',
      requestKey,
      endsMembership: true,
    }).catch(async (error: unknown) => {
      // The same ending at the same moment counted its refund first, so this one found too little left to give back:
      // that refund is this one's.
      const made = await one(pc.db, 'SELECT 1 FROM refunds WHERE payment_id = $1 AND request_key = $2', [part.paymentId, requestKey]);
      if (made && error instanceof ApiError && error.statusCode === 400) return { refundedNowCents: 0 };
      throw error;
    });
    refundedCents += outcome.refundedNowCents;
    if (part.kind === 'card' && outcome.refundedNowCents > 0) fanRefunded = true;
  }
  // What still runs (nothing was paid, or nothing was left unused) ends as the CLI ends one, and never renews.
  const rest = await endMembershipNow(pc, fanId, artist.id);
  if (rest) {
    await afterAccessEnded(
      pc,
      pc.gateway,
      [{ userId: fanId, artistId: artist.id, gateway: rest.gateway, gatewaySubscriptionId: rest.gatewaySubscriptionId, accessEnded: true }],
      artist.id,
    );
  }
  const ended = refundedCents > 0 || Boolean(rest);
  // The refund mail of the fan's own payment tells them; otherwise (nothing paid, a gift's year) this one does.
  if (ended && !fanRefunded) {
    await queueMail(
      pc.jobs,
      { kind: 'membershipEnded', subscriptionId: ending.subscriptionId },
      { key: `membership-ended:${ending.subscriptionId}:${Date.now()}` },
    );
  }
  return { ended, refundedCents, total: ending.shown.total };
}

/** Whether the fan's membership of the artist's club still runs (the blocked list offers to end it). */
export const RUNNING_MEMBERSHIP = `EXISTS (SELECT 1 FROM subscriptions s WHERE s.user_id = b.fan_id AND s.artist_id = b.artist_id
                AND s.status IN ('active', 'disputed') AND s.expires_at > now())`;
