import { z } from 'zod';
import { refundMessages } from '#contract/earnings';
import { formatCents } from '#contract/money';
import { tag } from '../cache/tags.js';
import { one, type Queryable } from '../db/client.js';
import { ApiError, badRequest, notFound } from '../http.js';
import { queueMail } from '../mail/queue.js';
import { GatewayUnreachableError, type PaymentGateway } from './gateway.js';
import { findPayment, storedPayment, type PaymentRow, type PaymentsContext } from './service.js';
import { createTestGateway } from './test-gateway.js';

/**
 * Refunds (docs/payments.md "Refunds"): by the artist from their earnings page, by the operator from the CLI, or
 * made in Stripe's dashboard (charge.refunded). A full refund ends the membership (status 'refunded', which the
 * access rule reads) unless the artist keeps the fan's access; the fan is told by mail either way.
 *
 * Our own refund is counted on the payment before the gateway is asked (a 'pending' refund row), so that a
 * charge.refunded webhook about it, however early it arrives, finds the money already counted and does nothing; and
 * so that two refunds at once can never give back more than was paid (the count is checked as it is raised).
 */

export type RefundSource = 'artist' | 'operator';

export interface RefundRequest {
  paymentId: string;
  /** Absent: what is left of the payment. */
  amountCents?: number;
  reason: string;
  keepAccess: boolean;
  source: RefundSource;
  /** A form sent twice is one refund. */
  requestKey?: string;
  /**
   * The refund of a payment's unused part that ends the membership (an artist ending a blocked fan's): the time the
   * payment paid for that is still to come comes off, as a full refund's does, though only part of it is given back.
   */
  endsMembership?: boolean;
}

export interface RefundOutcome {
  payment: PaymentRow;
  refundedNowCents: number;
  endedAccess: boolean;
}

const REFUNDABLE_KINDS = new Set(['subscribe', 'renewal', 'gift']);

/** The gateway that took the payment: the test gateway's own payments are always refundable here. */
function gatewayFor(pc: PaymentsContext, payment: PaymentRow): PaymentGateway {
  if (payment.gateway === pc.gateway.name) return pc.gateway;
  if (payment.gateway === 'test') return createTestGateway(pc.db, pc.config);
  throw new ApiError(409, 'This payment was made through Stripe, which is not configured on this server, so it cannot be refunded here.');
}

export async function refundPayment(pc: PaymentsContext, request: RefundRequest): Promise<RefundOutcome> {
  const payment = await findPayment(pc.db, request.paymentId);
  if (!payment) throw notFound('Payment not found');
  if (request.requestKey) {
    const earlier = await one(pc.db, 'SELECT 1 FROM refunds WHERE payment_id = $1 AND request_key = $2', [payment.id, request.requestKey]);
    if (earlier) return { payment, refundedNowCents: 0, endedAccess: false };
  }
  if (payment.disputeStatus === 'open' || payment.disputeStatus === 'lost') throw badRequest(refundMessages.disputed);
  const left = payment.amountCents - payment.refundedCents;
  if (payment.status !== 'succeeded' || !REFUNDABLE_KINDS.has(payment.kind) || left <= 0) throw badRequest(refundMessages.notRefundable);
  const amount = request.amountCents ?? left;
  if (amount > left) {
    const message = refundMessages.tooMuch(formatCents(left, payment.currency));
    throw badRequest(message, { amount: [message] });
  }
  const gateway = gatewayFor(pc, payment);
  const feeRefunded = Math.min(payment.feeCents, Math.round((payment.feeCents * amount) / payment.amountCents));

  // Counted first (see above); the UPDATE's condition is the guard against refunding more than was paid.
  let reserved: { refundId: string; before: number };
  try {
    reserved = await pc.db.transaction(async (tx) => {
      const counted = await one<{ refundedCents: number }>(
        tx,
        `UPDATE payments SET refunded_cents = refunded_cents + $2, refunded_at = now(), updated_at = now()
          WHERE id = $1 AND refunded_cents + $2 <= amount_cents RETURNING refunded_cents AS "refundedCents"`,
        [payment.id, amount],
      );
      if (!counted) throw badRequest(refundMessages.notRefundable);
      const row = await one<{ id: string }>(
        tx,
        `INSERT INTO refunds (payment_id, status, request_key, amount_cents, fee_refunded_cents, reason, ends_access, source)
         VALUES ($1, 'pending', $2, $3, $4, $5, false, $6) RETURNING id`,
        [payment.id, request.requestKey ?? null, amount, feeRefunded, request.reason, request.source],
      );
      return { refundId: row!.id, before: counted.refundedCents - amount };
    });
  } catch (error) {
    // The same form a second time, at the same moment: the first one is the refund.
    if ((error as { code?: string }).code === '23505') return { payment, refundedNowCents: 0, endedAccess: false };
    throw error;
  }

  let refundId: string;
  try {
    ({ refundId } = await gateway.refund({
      payment: { ...storedPayment(payment), gatewayInvoiceId: payment.gatewayInvoiceId, payoutAccountId: payment.payoutAccountId },
      amountCents: amount,
      // The refund after what had been refunded before it: a retry of this one is the same refund at the gateway.
      idempotencyKey: `refund-${payment.id}-${reserved.before}`,
      reason: request.reason,
    }));
  } catch (error) {
    await pc.db.transaction(async (tx) => {
      await tx.query('DELETE FROM refunds WHERE id = $1', [reserved.refundId]);
      await tx.query('UPDATE payments SET refunded_cents = refunded_cents - $2, updated_at = now() WHERE id = $1', [payment.id, amount]);
    });
    if (error instanceof ApiError) throw error;
    pc.log.error({ err: error, paymentId: payment.id }, 'refund failed at the gateway');
    throw new ApiError(
      error instanceof GatewayUnreachableError ? 503 : 502,
      'We could not reach our payment provider, so nothing was refunded. Please try again in a moment.',
    );
  }

  const full = reserved.before + amount >= payment.amountCents;
  const endsAccess = (full || request.endsMembership === true) && !request.keepAccess;
  const ended = await pc.db.transaction(async (tx) => {
    const endedRows = endsAccess ? await endAccessPaidBy(tx, payment, 'refunded') : [];
    // What the fan's mail says: whether the membership ended, not whether time was taken off it.
    await tx.query(`UPDATE refunds SET status = 'succeeded', gateway_refund_id = $2, ends_access = $3 WHERE id = $1`, [
      reserved.refundId,
      refundId,
      endedRows.some((row) => row.accessEnded),
    ]);
    await queueMail(pc.jobs, { kind: 'refund', refundId: reserved.refundId }, { key: `refund:${reserved.refundId}`, tx });
    return endedRows;
  });
  await afterAccessEnded(pc, gateway, ended, payment.artistId);
  return { payment: (await findPayment(pc.db, payment.id))!, refundedNowCents: amount, endedAccess: ended.some((row) => row.accessEnded) };
}

export interface EndedSubscription {
  userId: string;
  artistId: string;
  /** The gateway that billed it before the refund (a Stripe subscription is cancelled so it never renews). */
  gateway: string;
  gatewaySubscriptionId: string | null;
  /** False when the refund took its payment's time off but time paid by others (a gift's year) is left. */
  accessEnded: boolean;
}

const SUBSCRIPTION_BEFORE = `s.user_id AS "userId", s.artist_id AS "artistId", s.gateway, s.gateway_subscription_id AS "gatewaySubscriptionId"`;
const SECONDS = `* interval '1 second'`;

/**
 * A dispute suspends the membership a payment paid for (status 'disputed', which the access rule reads) while that
 * payment is the last one that paid for it; a full refund (or a lost dispute) takes off the time that payment paid
 * for, no more and no less (takeOffPeriodPaidBy).
 */
export async function endAccessPaidBy(
  tx: Queryable,
  payment: Pick<PaymentRow, 'id' | 'kind' | 'subscriptionId' | 'artistId'>,
  status: 'refunded' | 'disputed',
): Promise<EndedSubscription[]> {
  if (status === 'refunded') return takeOffPeriodPaidBy(tx, payment);
  const returning = `RETURNING user_id AS "userId", artist_id AS "artistId", gateway, gateway_subscription_id AS "gatewaySubscriptionId", true AS "accessEnded"`;
  if (payment.kind === 'gift') {
    return tx.query<EndedSubscription>(
      `UPDATE subscriptions SET status = 'disputed', updated_at = now()
        WHERE type = 'gift' AND artist_id = $2 AND status = 'active'
          AND user_id = (SELECT redeemed_by FROM gifts WHERE payment_id = $1)
        ${returning}`,
      [payment.id, payment.artistId],
    );
  }
  if (!payment.subscriptionId) return [];
  return tx.query<EndedSubscription>(
    `UPDATE subscriptions s SET status = 'disputed', updated_at = now()
      WHERE s.id = $1 AND s.status = 'active' AND ${LAST_CARD_PAYMENT}
      ${returning}`,
    [payment.subscriptionId, payment.id],
  );
}

/** The payment ($2) is the last card payment of the membership (s): refunding last year's renewal takes nothing off. */
const LAST_CARD_PAYMENT = `NOT EXISTS (SELECT 1 FROM payments later
                  WHERE later.subscription_id = s.id AND later.status = 'succeeded' AND later.kind IN ('subscribe', 'renewal')
                    AND later.id <> $2 AND later.created_at > (SELECT created_at FROM payments WHERE id = $2))`;

/**
 * The seconds still to come of what a card payment (p) paid for on its membership (s): the membership's time left,
 * less the gift years stacked after the payment (those were paid by their gifts).
 */
export const CARD_TIME_LEFT = `greatest(extract(epoch FROM s.expires_at - now())
                     - coalesce((SELECT sum(extract(epoch FROM g.period_until - greatest(g.period_from, now())))
                                   FROM gifts g
                                  WHERE g.redeemed_by = s.user_id AND g.artist_id = s.artist_id
                                    AND g.period_from >= p.created_at AND g.period_until > now()), 0), 0)::float8`;

/**
 * A full refund takes off exactly the time its payment paid for that is still to come. A membership is one row per
 * fan and club, and an opened gift stacks its year after whatever was running (its period is kept on the gift):
 *
 * - a card payment (first year or renewal) paid for the time up to the gift years stacked after it: that part is
 *   taken off, and the gift years move earlier to start now. With a gift's year left the membership carries on as
 *   a gift (no card, never renewed; the Stripe subscription is cancelled and forgotten); without, it ends (status
 *   'refunded', which the access rule reads).
 * - a gift's payment paid for the gift's year: what is left of it is taken off wherever it lies, and the years
 *   after it move earlier by as much. A gift not opened yet takes nothing off (it can no longer be opened).
 */
async function takeOffPeriodPaidBy(
  tx: Queryable,
  payment: Pick<PaymentRow, 'id' | 'kind' | 'subscriptionId' | 'artistId'>,
): Promise<EndedSubscription[]> {
  if (payment.kind === 'gift') {
    const gift = await one<{ id: string; userId: string | null; cutSeconds: number; until: Date | null }>(
      tx,
      `SELECT id, redeemed_by AS "userId", period_until AS until,
              greatest(extract(epoch FROM period_until - greatest(period_from, now())), 0)::float8 AS "cutSeconds"
         FROM gifts WHERE payment_id = $1 FOR UPDATE`,
      [payment.id],
    );
    if (!gift?.userId || !gift.until) return [];
    const subscription = await one<Omit<EndedSubscription, 'accessEnded'> & { id: string }>(
      tx,
      `SELECT s.id, ${SUBSCRIPTION_BEFORE} FROM subscriptions s
        WHERE s.user_id = $1 AND s.artist_id = $2 AND s.status IN ('active', 'disputed') FOR UPDATE`,
      [gift.userId, payment.artistId],
    );
    // The gift's year is over now (so a later refund of a card year finds nothing of it after its own).
    await tx.query('UPDATE gifts SET period_until = greatest(period_from, least(period_until, now())) WHERE id = $1', [gift.id]);
    if (!subscription || gift.cutSeconds <= 0) return [];
    await tx.query(
      `UPDATE gifts SET period_from = period_from - $4::float8 ${SECONDS}, period_until = period_until - $4::float8 ${SECONDS}
        WHERE redeemed_by = $1 AND artist_id = $2 AND period_from >= $3 AND id <> $5`,
      [gift.userId, payment.artistId, gift.until, gift.cutSeconds, gift.id],
    );
    const [after] = await tx.query<{ running: boolean }>(
      `UPDATE subscriptions SET
              status = CASE WHEN expires_at - $2::float8 ${SECONDS} > now() THEN status ELSE 'refunded' END,
              auto_renew = auto_renew AND expires_at - $2::float8 ${SECONDS} > now(),
              expires_at = greatest(expires_at - $2::float8 ${SECONDS}, least(expires_at, now())), updated_at = now()
        WHERE id = $1 RETURNING status <> 'refunded' AS running`,
      [subscription.id, gift.cutSeconds],
    );
    const { id: _id, ...before } = subscription;
    // Only when it ended does the gateway's subscription go (a card year that is still running stays billed).
    return [
      after!.running ? { ...before, gateway: 'free', gatewaySubscriptionId: null, accessEnded: false } : { ...before, accessEnded: true },
    ];
  }
  if (!payment.subscriptionId) return [];
  const subscription = await one<Omit<EndedSubscription, 'accessEnded'> & { id: string; paidAt: Date; cutSeconds: number }>(
    tx,
    `SELECT s.id, ${SUBSCRIPTION_BEFORE}, p.created_at AS "paidAt", ${CARD_TIME_LEFT} AS "cutSeconds"
       FROM subscriptions s JOIN payments p ON p.id = $2
      WHERE s.id = $1 AND s.status IN ('active', 'disputed') AND ${LAST_CARD_PAYMENT}
      FOR UPDATE OF s`,
    [payment.subscriptionId, payment.id],
  );
  if (!subscription) return [];
  const { id, paidAt, cutSeconds, ...before } = subscription;
  if (cutSeconds <= 0) {
    // Its time is over (a gift's year runs now): nothing to take off, and a dispute lost over it suspends no more.
    await tx.query(`UPDATE subscriptions SET status = 'active', updated_at = now() WHERE id = $1 AND status = 'disputed'`, [id]);
    return [{ ...before, gateway: 'free', gatewaySubscriptionId: null, accessEnded: false }];
  }
  // The gift years after this payment's time move earlier by as much as is taken off: they start now.
  await tx.query(
    `UPDATE gifts SET period_from = period_from - $4::float8 ${SECONDS}, period_until = period_until - $4::float8 ${SECONDS}
      WHERE redeemed_by = $1 AND artist_id = $2 AND period_from >= $3 AND period_until > now()`,
    [before.userId, before.artistId, paidAt, cutSeconds],
  );
  const [after] = await tx.query<{ running: boolean }>(
    `UPDATE subscriptions SET
            status = CASE WHEN expires_at - $2::float8 ${SECONDS} > now() THEN 'active' ELSE 'refunded' END,
            type = CASE WHEN expires_at - $2::float8 ${SECONDS} > now() THEN 'gift' ELSE type END,
            gateway = CASE WHEN expires_at - $2::float8 ${SECONDS} > now() THEN 'free' ELSE gateway END,
            gateway_subscription_id = CASE WHEN expires_at - $2::float8 ${SECONDS} > now() THEN NULL ELSE gateway_subscription_id END,
            card_id = CASE WHEN expires_at - $2::float8 ${SECONDS} > now() THEN NULL ELSE card_id END,
            auto_renew = false, trial_ends_at = NULL, renewal_retry_at = NULL, paid_until = NULL,
            expires_at = greatest(expires_at - $2::float8 ${SECONDS}, least(expires_at, now())), updated_at = now()
      WHERE id = $1 RETURNING status = 'active' AS running`,
    [id, cutSeconds],
  );
  return [{ ...before, accessEnded: !after!.running }];
}

/** After a membership ended early: cached access checks and counts forget it, and the gateway will not renew it. */
export async function afterAccessEnded(
  pc: Pick<PaymentsContext, 'cache' | 'log'>,
  gateway: PaymentGateway | null,
  ended: EndedSubscription[],
  artistId: string,
) {
  if (!ended.length) return;
  await pc.cache.invalidate(tag.artist(artistId), ...ended.map((row) => tag.fanSubscriptions(row.userId)));
  for (const row of ended) {
    if (row.gateway !== 'stripe' || !row.gatewaySubscriptionId || gateway?.name !== 'stripe') continue;
    await gateway.cancelNow(row.gatewaySubscriptionId).catch((error) => {
      pc.log.error(
        { err: error, subscription: row.gatewaySubscriptionId },
        'could not cancel the Stripe subscription of a refunded membership',
      );
    });
  }
}

/** The fan's latest payment to an artist that can be refunded (the CLI's refund command). */
export async function latestRefundablePayment(db: Queryable, artistUsername: string, fanEmail: string) {
  const artist = await one<{ id: string }>(db, 'SELECT id FROM users WHERE lower(username) = lower($1) AND is_performer', [artistUsername]);
  if (!artist) throw badRequest(`There is no artist with the username "${artistUsername}".`, { artist: ['No such artist'] });
  const fan = await one<{ id: string }>(db, 'SELECT id FROM users WHERE lower(email) = lower($1)', [fanEmail.trim()]);
  if (!fan) throw badRequest(`There is no account with the email "${fanEmail}".`, { fan: ['No such fan'] });
  const payment = await one<{ id: string }>(
    db,
    `SELECT id FROM payments WHERE user_id = $1 AND artist_id = $2 AND status = 'succeeded' AND kind IN ('subscribe', 'renewal', 'gift')
      ORDER BY created_at DESC LIMIT 1`,
    [fan.id, artist.id],
  );
  if (!payment) throw badRequest(`${fanEmail} has made no payment to ${artistUsername} that could be refunded.`, { fan: ['No payment'] });
  return payment.id;
}

/** What the operator gives (the CLI's refund command and POST /admin/refunds). */
export const OperatorRefundSchema = z.object({
  artist: z.string({ error: 'Name the artist (their username).' }).trim().min(1, { error: 'Name the artist (their username).' }),
  fan: z.string({ error: 'Name the fan (their email).' }).trim().min(3, { error: 'Name the fan (their email).' }),
  amount: z
    .union([z.number(), z.string().trim()])
    .refine((value) => /^\d{1,6}(\.\d{1,2})?$/.test(String(value)) && Number(value) > 0, { error: refundMessages.amount })
    .transform((value) => Math.round(Number(value) * 100))
    .optional(),
  keepAccess: z.boolean().default(false),
  reason: z.string().trim().max(500).default('Refunded by Stagedoor support.'),
});

export interface OperatorRefund {
  artist: string;
  fan: string;
  refunded: string;
  paid: string;
  endedAccess: boolean;
}

/** Refunds the fan's latest payment to the artist (all of what is left, or `amount`). */
export async function operatorRefund(pc: PaymentsContext, input: z.output<typeof OperatorRefundSchema>): Promise<OperatorRefund> {
  const paymentId = await latestRefundablePayment(pc.db, input.artist, input.fan);
  const outcome = await refundPayment(pc, {
    paymentId,
    amountCents: input.amount,
    reason: input.reason,
    keepAccess: input.keepAccess,
    source: 'operator',
  });
  return {
    artist: input.artist,
    fan: input.fan,
    refunded: formatCents(outcome.refundedNowCents, outcome.payment.currency),
    paid: formatCents(outcome.payment.amountCents, outcome.payment.currency),
    endedAccess: outcome.endedAccess,
  };
}
