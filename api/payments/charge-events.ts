import { tag } from '../cache/tags.js';
import { one } from '../db/client.js';
import { queueMail } from '../mail/queue.js';
import { afterAccessEnded, endAccessPaidBy } from './refunds.js';
import { PAYMENT_SELECT, type PaymentRow, type PaymentsContext } from './service.js';

/**
 * What Stripe tells us about a charge after it was made (./webhooks.ts verifies and deduplicates the events):
 * a refund made in Stripe's dashboard (charge.refunded) and a dispute opened or closed by the fan's bank
 * (charge.dispute.created, charge.dispute.closed). Each is applied once, in any order:
 * - a refund only ever raises what is counted as refunded, to what Stripe says in total (an older event, or one
 *   about our own refund, which was counted before Stripe was asked, changes nothing);
 * - a dispute opens once (not after it has closed) and closes once; won gives the membership back, lost ends it.
 */

/** Our payment behind a Stripe PaymentIntent: stored on it, or found through the invoice it paid (renewals). */
export async function paymentForIntent(pc: PaymentsContext, intentId: string | undefined) {
  if (!intentId) return undefined;
  const direct = await one<PaymentRow>(pc.db, `${PAYMENT_SELECT} WHERE p.gateway_payment_id = $1 AND p.status = 'succeeded'`, [intentId]);
  if (direct) return direct;
  const invoiceId = await pc.gateway.invoiceForPaymentIntent?.(intentId).catch(() => undefined);
  if (!invoiceId) return undefined;
  const byInvoice = await one<PaymentRow>(pc.db, `${PAYMENT_SELECT} WHERE p.gateway_invoice_id = $1 AND p.status = 'succeeded'`, [
    invoiceId,
  ]);
  if (byInvoice) await pc.db.query('UPDATE payments SET gateway_payment_id = $2 WHERE id = $1', [byInvoice.id, intentId]);
  return byInvoice;
}

/** charge.refunded: Stripe's total refunded for the charge becomes ours; what is new is a refund made at Stripe. */
export async function applyChargeRefunded(
  pc: PaymentsContext,
  charge: { id: string; amountRefunded: number; paymentIntent?: string; refundId?: string },
) {
  const payment = await paymentForIntent(pc, charge.paymentIntent);
  if (!payment) {
    pc.log.warn({ charge: charge.id }, 'charge.refunded for a charge we do not know');
    return;
  }
  const total = Math.min(charge.amountRefunded, payment.amountCents);
  const ended = await pc.db.transaction(async (tx) => {
    const before = await one<{ refundedCents: number }>(
      tx,
      'SELECT refunded_cents AS "refundedCents" FROM payments WHERE id = $1 FOR UPDATE',
      [payment.id],
    );
    if (!before || before.refundedCents >= total) return [];
    await tx.query('UPDATE payments SET refunded_cents = $2, refunded_at = now(), updated_at = now() WHERE id = $1', [payment.id, total]);
    const amount = total - before.refundedCents;
    const full = total >= payment.amountCents;
    const [refund] = await tx.query<{ id: string }>(
      `INSERT INTO refunds (payment_id, amount_cents, fee_refunded_cents, reason, ends_access, source, gateway_refund_id)
       VALUES ($1, $2, $3, 'Refunded through Stripe.', $4, 'stripe', $5)
       ON CONFLICT (gateway_refund_id) WHERE gateway_refund_id IS NOT NULL DO NOTHING RETURNING id`,
      [
        payment.id,
        amount,
        Math.min(payment.feeCents, Math.round((payment.feeCents * amount) / payment.amountCents)),
        full,
        charge.refundId ?? null,
      ],
    );
    const endedRows = full ? await endAccessPaidBy(tx, payment, 'refunded') : [];
    if (refund) await queueMail(pc.jobs, { kind: 'refund', refundId: refund.id }, { key: `refund:${refund.id}`, tx });
    return endedRows;
  });
  await afterAccessEnded(pc, pc.gateway, ended, payment.artistId);
}

export interface DisputeEvent {
  id: string;
  amount: number;
  paymentIntent?: string;
  status?: string;
}

/** charge.dispute.created: access is suspended (status 'disputed') and the artist is told. */
export async function applyDisputeOpened(pc: PaymentsContext, dispute: DisputeEvent) {
  const payment = await paymentForIntent(pc, dispute.paymentIntent);
  if (!payment) {
    pc.log.warn({ dispute: dispute.id }, 'charge.dispute.created for a charge we do not know');
    return;
  }
  const suspended = await pc.db.transaction(async (tx) => {
    // Not after the dispute has closed (the events came in the wrong order): closed is final.
    const opened = await one(
      tx,
      `UPDATE payments SET dispute_status = 'open', updated_at = now() WHERE id = $1 AND dispute_status IS NULL RETURNING id`,
      [payment.id],
    );
    if (!opened) return [];
    await queueMail(pc.jobs, { kind: 'disputeOpened', paymentId: payment.id }, { key: `dispute:${payment.id}`, tx });
    return endAccessPaidBy(tx, payment, 'disputed');
  });
  // Suspended, not ended: the Stripe subscription stays until the dispute is decided.
  await afterAccessEnded(pc, null, suspended, payment.artistId);
}

/** charge.dispute.closed: won (or a closed inquiry) gives the membership back; lost counts the money as returned and ends it. */
export async function applyDisputeClosed(pc: PaymentsContext, dispute: DisputeEvent) {
  const payment = await paymentForIntent(pc, dispute.paymentIntent);
  if (!payment) {
    pc.log.warn({ dispute: dispute.id }, 'charge.dispute.closed for a charge we do not know');
    return;
  }
  const lost = dispute.status === 'lost';
  const { ended, restored } = await pc.db.transaction(async (tx) => {
    const closed = await one<{ refundedCents: number }>(
      tx,
      `SELECT refunded_cents AS "refundedCents" FROM payments
        WHERE id = $1 AND dispute_status IS DISTINCT FROM 'won' AND dispute_status IS DISTINCT FROM 'lost' FOR UPDATE`,
      [payment.id],
    );
    if (!closed) return { ended: [], restored: [] };
    await tx.query(
      `UPDATE payments SET dispute_status = $2, updated_at = now(),
              refunded_cents = CASE WHEN $2 = 'lost' THEN amount_cents ELSE refunded_cents END,
              refunded_at = CASE WHEN $2 = 'lost' THEN now() ELSE refunded_at END
        WHERE id = $1`,
      [payment.id, lost ? 'lost' : 'won'],
    );
    if (!lost) {
      const back = await tx.query<{ userId: string }>(
        `UPDATE subscriptions SET status = 'active', updated_at = now() WHERE status = 'disputed'
            AND id = CASE WHEN $2 = 'gift'
                          THEN (SELECT s.id FROM subscriptions s JOIN gifts g ON g.redeemed_by = s.user_id AND g.artist_id = s.artist_id
                                 WHERE g.payment_id = $1 AND s.type = 'gift')
                          ELSE $3 END
          RETURNING user_id AS "userId"`,
        [payment.id, payment.kind, payment.subscriptionId],
      );
      return { ended: [], restored: back };
    }
    const amount = payment.amountCents - closed.refundedCents;
    if (amount > 0) {
      await tx.query(
        `INSERT INTO refunds (payment_id, amount_cents, fee_refunded_cents, reason, ends_access, source, gateway_refund_id)
         VALUES ($1, $2, 0, 'The fan’s bank decided the dispute for the fan.', true, 'dispute', $3)
         ON CONFLICT (gateway_refund_id) WHERE gateway_refund_id IS NOT NULL DO NOTHING`,
        [payment.id, amount, dispute.id],
      );
    }
    return { ended: await endAccessPaidBy(tx, payment, 'refunded'), restored: [] };
  });
  if (restored.length) await pc.cache.invalidate(tag.artist(payment.artistId), ...restored.map((row) => tag.fanSubscriptions(row.userId)));
  await afterAccessEnded(pc, pc.gateway, ended, payment.artistId);
}
