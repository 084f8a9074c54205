import { z } from 'zod';
import { refundMessages } from '#contract/earnings';
import { formatCents } from '#contract/money';
import { tag } from '../cache/tags.js';
import { one, type Queryable } from '../db/client.js';
import { ApiError, badRequest, notFound } from '../http.js';
import { queueMail } from '../mail/jobs.js';
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
  const endsAccess = full && !request.keepAccess;
  const ended = await pc.db.transaction(async (tx) => {
    await tx.query(`UPDATE refunds SET status = 'succeeded', gateway_refund_id = $2, ends_access = $3 WHERE id = $1`, [
      reserved.refundId,
      refundId,
      endsAccess,
    ]);
    const endedRows = endsAccess ? await endAccessPaidBy(tx, payment, 'refunded') : [];
    await queueMail(pc.jobs, { kind: 'refund', refundId: reserved.refundId }, { key: `refund:${reserved.refundId}`, tx });
    return endedRows;
  });
  await afterAccessEnded(pc, gateway, ended, payment.artistId);
  return { payment: (await findPayment(pc.db, payment.id))!, refundedNowCents: amount, endedAccess: ended.length > 0 };
}

export interface EndedSubscription {
  userId: string;
  artistId: string;
  gateway: string;
  gatewaySubscriptionId: string | null;
}

/**
 * Ends the membership a payment paid for, through its status (the access rule reads it): only while that payment
 * is the last one that paid for it (refunding last year's renewal does not end this year's), and only a
 * membership that is active or disputed. A gift's payment ends the membership of whoever redeemed it.
 */
export async function endAccessPaidBy(
  tx: Queryable,
  payment: Pick<PaymentRow, 'id' | 'kind' | 'subscriptionId' | 'artistId'>,
  status: 'refunded' | 'disputed',
): Promise<EndedSubscription[]> {
  const cut = status === 'refunded' ? `, auto_renew = false, expires_at = least(expires_at, now())` : '';
  const returning = `RETURNING user_id AS "userId", artist_id AS "artistId", gateway, gateway_subscription_id AS "gatewaySubscriptionId"`;
  if (payment.kind === 'gift') {
    return tx.query<EndedSubscription>(
      `UPDATE subscriptions SET status = $3${cut}, updated_at = now()
        WHERE type = 'gift' AND artist_id = $2 AND status IN ('active', 'disputed')
          AND user_id = (SELECT redeemed_by FROM gifts WHERE payment_id = $1)
        ${returning}`,
      [payment.id, payment.artistId, status],
    );
  }
  if (!payment.subscriptionId) return [];
  return tx.query<EndedSubscription>(
    `UPDATE subscriptions s SET status = $2${cut}, updated_at = now()
      WHERE s.id = $1 AND s.status IN ('active', 'disputed')
        AND NOT EXISTS (SELECT 1 FROM payments later
                         WHERE later.subscription_id = s.id AND later.status = 'succeeded' AND later.kind IN ('subscribe', 'renewal')
                           AND later.id <> $3 AND later.created_at > (SELECT created_at FROM payments WHERE id = $3))
      ${returning}`,
    [payment.subscriptionId, status, payment.id],
  );
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
