import Stripe from 'stripe';
import { z } from 'zod';
import { one } from '../db/client.js';
import { ApiError, badRequest, holdsNul } from '../http.js';
import { FAILURE_MESSAGES } from './gateway.js';
import { applyOutcome, PAYMENT_SELECT, type PaymentRow, type PaymentsContext } from './service.js';
import { tag } from '../cache/tags.js';
import { queueMail } from '../mail/queue.js';
import { applyChargeRefunded, applyDisputeClosed, applyDisputeOpened } from './charge-events.js';
import { platformFeeCents } from './money-settings.js';

/**
 * Stripe webhooks, verified by signature and applied idempotently, in any order, any number of times:
 * - a duplicate delivery (same event id) is acknowledged and skipped (stripe_events);
 * - invoice.paid only ever moves a subscription's end later (greatest), so an old invoice arriving late changes nothing;
 * - customer.subscription.updated is applied only when newer than the last event applied to that subscription;
 * - customer.subscription.deleted is final: nothing after it brings the subscription back.
 */

export const BAD_SIGNATURE = 'The webhook signature is not valid.';
export const MALFORMED_EVENT = 'The webhook event is not a Stripe event we can read.';

/**
 * What the events we act on must hold, in the fields we read (Stripe sends many more: they pass). A signed event
 * that does not fit (a test sent by hand, a changed API version) is refused with 400 and logged, rather than
 * failing halfway through as a 500 that Stripe would retry for days.
 */
const StripeId = z.string().min(1).max(255);
const Timestamp = z.number().int().nonnegative();
const Amount = z.number().int().nonnegative();
const Reference = z.union([StripeId, z.looseObject({ id: StripeId })]);

const InvoiceObject = z.looseObject({
  id: StripeId,
  amount_paid: Amount.optional(),
  amount_due: Amount.optional(),
  subscription: Reference.nullish(),
  parent: z
    .looseObject({
      subscription_details: z
        .looseObject({ subscription: Reference.nullish(), metadata: z.record(z.string(), z.string()).nullish() })
        .nullish(),
    })
    .nullish(),
  lines: z.looseObject({ data: z.array(z.looseObject({ period: z.looseObject({ end: Timestamp.nullish() }).nullish() })) }).nullish(),
  /** With `expand: payments` (or when Stripe includes it): the PaymentIntent that paid, which refunds and disputes name. */
  payments: z
    .looseObject({ data: z.array(z.looseObject({ payment: z.looseObject({ payment_intent: Reference.nullish() }).nullish() })) })
    .nullish(),
});

const ChargeObject = z.looseObject({
  id: StripeId,
  amount: Amount,
  amount_refunded: Amount,
  payment_intent: Reference.nullish(),
  refunds: z.looseObject({ data: z.array(z.looseObject({ id: StripeId })) }).nullish(),
});

const DisputeObject = z.looseObject({
  id: StripeId,
  amount: Amount,
  status: z.string().optional(),
  payment_intent: Reference.nullish(),
});

const AccountObject = z.looseObject({
  id: StripeId,
  payouts_enabled: z.boolean().nullish(),
  details_submitted: z.boolean().nullish(),
});

const SubscriptionObject = z.looseObject({
  id: StripeId,
  status: z.string().optional(),
  cancel_at_period_end: z.boolean().optional(),
  ended_at: Timestamp.nullish(),
  current_period_end: Timestamp.nullish(),
  items: z.looseObject({ data: z.array(z.looseObject({ current_period_end: Timestamp.nullish() })) }).nullish(),
});

type Invoice = z.infer<typeof InvoiceObject>;
type StripeSubscription = z.infer<typeof SubscriptionObject>;

const envelope = { id: StripeId, created: Timestamp };
const event = <Type extends string, Object extends z.ZodType>(type: Type, object: Object) =>
  z.looseObject({ ...envelope, type: z.literal(type), data: z.looseObject({ object }) });

/** Every event: what the deduplication needs. */
const Envelope = z.looseObject({ ...envelope, type: z.string().min(1).max(255), data: z.looseObject({ object: z.looseObject({}) }) });

/** The events we act on, each with its object read; any other event is acknowledged and left alone. */
const KnownEvent = z.discriminatedUnion('type', [
  event('invoice.paid', InvoiceObject),
  event('invoice.payment_failed', InvoiceObject),
  event('customer.subscription.updated', SubscriptionObject),
  event('customer.subscription.deleted', SubscriptionObject),
  event('charge.refunded', ChargeObject),
  event('charge.dispute.created', DisputeObject),
  event('charge.dispute.closed', DisputeObject),
  event('account.updated', AccountObject),
]);
type KnownEvent = z.infer<typeof KnownEvent>;
const KNOWN_TYPES = new Set<string>(KnownEvent.options.map((option) => option.shape.type.value));

function readEvent(pc: PaymentsContext, payload: unknown) {
  const read = Envelope.safeParse(payload);
  const known = read.success && KNOWN_TYPES.has(read.data.type) ? KnownEvent.safeParse(payload) : undefined;
  // The signed body is text, so the api's NUL check cannot see a \u0000 escape in it; Stripe never sends one.
  if (!read.success || known?.success === false || holdsNul(payload)) {
    const { id, type } = read.success ? read.data : { id: undefined, type: undefined };
    const issues = (read.error ?? known?.error)?.issues.slice(0, 3).map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    pc.log.warn({ eventId: id, eventType: type, issues }, 'malformed Stripe webhook');
    throw badRequest(MALFORMED_EVENT);
  }
  return { id: read.data.id, type: read.data.type, known: known?.data };
}

function verify(pc: PaymentsContext, rawBody: string, signature: string | undefined) {
  const secret = pc.config.stripe.webhookSecret;
  if (!secret) throw new ApiError(404, 'Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET).');
  if (!signature) throw badRequest(BAD_SIGNATURE);
  let payload: unknown;
  try {
    payload = Stripe.webhooks.constructEvent(rawBody, signature, secret);
  } catch {
    throw badRequest(BAD_SIGNATURE);
  }
  return readEvent(pc, payload);
}

export async function handleStripeWebhook(pc: PaymentsContext, rawBody: string, signature: string | undefined) {
  const event = verify(pc, rawBody, signature);
  const fresh = await one(pc.db, 'INSERT INTO stripe_events (id, type) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id', [
    event.id,
    event.type,
  ]);
  if (!fresh) return { received: true, duplicate: true };
  try {
    if (event.known) await apply(pc, event.known);
  } catch (error) {
    // Not applied: forget the event so Stripe's retry applies it.
    await pc.db.query('DELETE FROM stripe_events WHERE id = $1', [event.id]);
    throw error;
  }
  return { received: true, duplicate: false };
}

const idOf = (value: unknown): string | undefined =>
  typeof value === 'string'
    ? value
    : value && typeof value === 'object' && 'id' in value
      ? String((value as { id: unknown }).id)
      : undefined;

function invoiceSubscriptionId(invoice: Invoice) {
  return idOf(invoice.parent?.subscription_details?.subscription) ?? idOf(invoice.subscription);
}

function invoicePeriodEnd(invoice: Invoice): Date | undefined {
  const ends = (invoice.lines?.data ?? []).map((line) => line.period?.end).filter((end): end is number => typeof end === 'number');
  return ends.length ? new Date(Math.max(...ends) * 1000) : undefined;
}

function subscriptionPeriodEnd(subscription: StripeSubscription): Date | undefined {
  const end = subscription.items?.data?.[0]?.current_period_end ?? subscription.current_period_end;
  return typeof end === 'number' ? new Date(end * 1000) : undefined;
}

/** The open first payment behind a Stripe subscription, found by its id or by the paymentId we put in its metadata. */
async function openPayment(pc: PaymentsContext, subscriptionId: string | undefined, paymentId: string | undefined) {
  if (subscriptionId) {
    const bySubscription = await one<PaymentRow>(
      pc.db,
      `${PAYMENT_SELECT} WHERE p.gateway_subscription_id = $1 AND p.kind IN ('subscribe', 'trial') ORDER BY p.created_at DESC LIMIT 1`,
      [subscriptionId],
    );
    if (bySubscription) return bySubscription;
  }
  if (paymentId && /^[0-9a-f-]{36}$/i.test(paymentId)) return one<PaymentRow>(pc.db, `${PAYMENT_SELECT} WHERE p.id = $1`, [paymentId]);
  return undefined;
}

async function apply(pc: PaymentsContext, event: KnownEvent) {
  const created = new Date(event.created * 1000);
  switch (event.type) {
    case 'invoice.paid': {
      const object = event.data.object;
      const subscriptionId = invoiceSubscriptionId(object);
      if (!subscriptionId) return;
      const periodEnd = invoicePeriodEnd(object);
      const paymentId = object.parent?.subscription_details?.metadata?.paymentId;
      const first = await openPayment(pc, subscriptionId, paymentId);
      if (first && (first.status === 'processing' || first.status === 'requires_action')) {
        // The first payment, paid before the fan's page confirmed it: complete it from here.
        await applyOutcome(pc, null, first.id, {
          status: 'succeeded',
          gatewaySubscriptionId: subscriptionId,
          gatewayInvoiceId: object.id,
          periodEnd,
        });
        return;
      }
      const amountPaid = Number(object.amount_paid ?? 0);
      // A trial's end: its first paid invoice is the first year (kind subscribe), and the trial is over.
      const subscription = await one<{ id: string; userId: string; artistId: string; currency: string; trial: boolean }>(
        pc.db,
        `UPDATE subscriptions s SET expires_at = greatest(s.expires_at, coalesce($2, s.expires_at)), updated_at = now(),
                trial_ends_at = CASE WHEN $3 > 0 THEN NULL ELSE s.trial_ends_at END
           FROM (SELECT id, trial_ends_at IS NOT NULL AS trial FROM subscriptions WHERE gateway_subscription_id = $1) old
          WHERE s.id = old.id AND s.status = 'active'
          RETURNING s.id, s.user_id AS "userId", s.artist_id AS "artistId", s.currency, old.trial`,
        [subscriptionId, periodEnd ?? null, amountPaid],
      );
      // A trial's own invoice charges nothing: there is no payment to record.
      if (!subscription || amountPaid === 0) return;
      const intent = idOf(object.payments?.data?.[0]?.payment?.payment_intent);
      // The renewal's own record (the first invoice already has one: the conflict skips it), and its receipt.
      await pc.db.transaction(async (tx) => {
        const [renewal] = await tx.query<{ id: string }>(
          `INSERT INTO payments (user_id, artist_id, subscription_id, gateway, kind, status, amount_cents, list_price_cents,
                                 currency, gateway_subscription_id, gateway_invoice_id, period_end, gateway_payment_id, fee_cents,
                                 payout_account_id)
           VALUES ($1, $2, $3, 'stripe', $9, 'succeeded', $4, $4, $5, $6, $7, $8, $10, $11,
                   (SELECT payout_account_id FROM artist_profiles WHERE user_id = $2 AND payout_status = 'enabled'))
           ON CONFLICT (gateway_invoice_id) WHERE gateway_invoice_id IS NOT NULL DO NOTHING RETURNING id`,
          [
            subscription.userId,
            subscription.artistId,
            subscription.id,
            amountPaid,
            subscription.currency,
            subscriptionId,
            object.id,
            periodEnd ?? null,
            subscription.trial ? 'subscribe' : 'renewal',
            intent ?? null,
            platformFeeCents(amountPaid, pc.config.platformFeePercent),
          ],
        );
        if (renewal) await queueMail(pc.jobs, { kind: 'receipt', paymentId: renewal.id }, { key: `receipt:${renewal.id}`, tx });
      });
      return;
    }
    case 'invoice.payment_failed': {
      const object = event.data.object;
      const subscriptionId = invoiceSubscriptionId(object);
      if (!subscriptionId) return;
      // A failed renewal: recorded; access lasts until the paid year ends, and Stripe retries by its own schedule.
      // (A failed first payment is answered to the fan directly, not here.)
      await pc.db.query(
        `INSERT INTO payments (user_id, artist_id, subscription_id, gateway, kind, status, amount_cents, list_price_cents,
                               currency, gateway_subscription_id, gateway_invoice_id, failure_reason, failure_message)
         SELECT s.user_id, s.artist_id, s.id, 'stripe', 'renewal', 'failed', $2, $2, s.currency, $1, $3, 'card_declined', $4
           FROM subscriptions s WHERE s.gateway_subscription_id = $1
         ON CONFLICT (gateway_invoice_id) WHERE gateway_invoice_id IS NOT NULL DO NOTHING`,
        [subscriptionId, Number(object.amount_due ?? 0), object.id, FAILURE_MESSAGES.card_declined],
      );
      return;
    }
    case 'customer.subscription.updated': {
      const object = event.data.object;
      if (object.status === 'canceled') return endSubscription(pc, object, created);
      await pc.db.query(
        `UPDATE subscriptions
            SET auto_renew = NOT $2, expires_at = greatest(expires_at, coalesce($3, expires_at)),
                gateway_synced_at = $4, updated_at = now()
          WHERE gateway_subscription_id = $1 AND status = 'active'
            AND (gateway_synced_at IS NULL OR gateway_synced_at <= $4)`,
        [object.id, Boolean(object.cancel_at_period_end), subscriptionPeriodEnd(object) ?? null, created],
      );
      return;
    }
    case 'customer.subscription.deleted':
      return endSubscription(pc, event.data.object, created);
    case 'charge.refunded': {
      const charge = event.data.object;
      return applyChargeRefunded(pc, {
        id: charge.id,
        amountRefunded: charge.amount_refunded,
        paymentIntent: idOf(charge.payment_intent),
        refundId: charge.refunds?.data?.[0]?.id,
      });
    }
    case 'charge.dispute.created':
    case 'charge.dispute.closed': {
      const dispute = event.data.object;
      const read = { id: dispute.id, amount: dispute.amount, status: dispute.status, paymentIntent: idOf(dispute.payment_intent) };
      return event.type === 'charge.dispute.created' ? applyDisputeOpened(pc, read) : applyDisputeClosed(pc, read);
    }
    case 'account.updated': {
      // Stripe Connect: the artist finished (or reopened) onboarding; payouts follow the account's own state.
      const account = event.data.object;
      await pc.db.query(`UPDATE artist_profiles SET payout_status = $2 WHERE payout_account_id = $1`, [
        account.id,
        account.payouts_enabled && account.details_submitted ? 'enabled' : 'pending',
      ]);
      return;
    }
    default:
      return;
  }
}

/**
 * The subscription ended at Stripe: access ends when it ended (or now), and no later event revives it. Gift years
 * stacked after the card's time are not Stripe's to end: they move earlier to start when the card's time ended, and
 * the membership carries on as a gift, no longer tied to the Stripe subscription (docs/payments.md "Refunds").
 */
async function endSubscription(pc: PaymentsContext, object: StripeSubscription, created: Date) {
  const endedAt = typeof object.ended_at === 'number' ? new Date(object.ended_at * 1000) : created;
  const ended = await pc.db.transaction(async (tx) => {
    const current = await one<{ id: string; userId: string; artistId: string; cutSeconds: number; giftLeft: boolean; cardPaidAt: Date }>(
      tx,
      `SELECT s.id, s.user_id AS "userId", s.artist_id AS "artistId",
              greatest(extract(epoch FROM s.expires_at - $2::timestamptz) - gifts.seconds, 0)::float8 AS "cutSeconds",
              gifts.seconds > 0 AND s.status = 'active' AS "giftLeft", card.paid_at AS "cardPaidAt"
         FROM subscriptions s,
              -- The card's last payment: the gift years opened after it are stacked after the card's time.
              LATERAL (SELECT coalesce(max(p.created_at), 'epoch'::timestamptz) AS paid_at FROM payments p
                        WHERE p.subscription_id = s.id AND p.status = 'succeeded' AND p.kind IN ('subscribe', 'renewal')) card,
              LATERAL (SELECT coalesce(sum(extract(epoch FROM g.period_until - greatest(g.period_from, $2::timestamptz))), 0)::float8 AS seconds
                         FROM gifts g
                        WHERE g.redeemed_by = s.user_id AND g.artist_id = s.artist_id AND g.period_until > $2::timestamptz
                          AND g.period_from >= card.paid_at) gifts
        WHERE s.gateway_subscription_id = $1 AND s.status NOT IN ('canceled', 'refunded')
        FOR UPDATE OF s`,
      [object.id, endedAt],
    );
    if (!current) return [];
    if (current.giftLeft) {
      const [kept] = await tx.query<{ running: boolean }>(
        `UPDATE subscriptions SET expires_at = expires_at - $2::float8 * interval '1 second', type = 'gift', gateway = 'free',
                gateway_subscription_id = NULL, card_id = NULL, auto_renew = false, updated_at = now()
          WHERE id = $1 RETURNING expires_at > now() AS running`,
        [current.id, current.cutSeconds],
      );
      if (kept?.running) {
        await tx.query(
          `UPDATE gifts SET period_from = period_from - $4::float8 * interval '1 second', period_until = period_until - $4::float8 * interval '1 second'
            WHERE redeemed_by = $1 AND artist_id = $2 AND period_until > $3::timestamptz AND period_from >= $5`,
          [current.userId, current.artistId, endedAt, current.cutSeconds, current.cardPaidAt],
        );
        return [current];
      }
    }
    await tx.query(
      `UPDATE subscriptions SET status = 'canceled', auto_renew = false, expires_at = least(expires_at, $2),
              gateway_synced_at = greatest(coalesce(gateway_synced_at, $3), $3), updated_at = now()
        WHERE id = $1`,
      [current.id, endedAt, created],
    );
    return [current];
  });
  // Access checks cache a subscription until it runs out: this one ran out early (and the count went down).
  await pc.cache.invalidate(...ended.flatMap((row) => [tag.fanSubscriptions(row.userId), tag.artist(row.artistId)]));
}
