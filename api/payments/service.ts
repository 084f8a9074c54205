import type { Config } from '#contract/config';
import { oneYearAfter } from '#contract/money';
import type { NextAction, Payment, SubscriptionDetail } from '#contract/payments';
import type { Viewer } from '../auth/viewer.js';
import { one, type Db, type Queryable } from '../db/client.js';
import { ApiError, badRequest, forbidden, notFound } from '../http.js';
import { isSubscribed } from '../subscriptions/queries.js';
import {
  FAILURE_MESSAGES,
  GatewayUnreachableError,
  type FailureReason,
  type GatewayOutcome,
  type PaymentGateway,
  type StoredPayment,
} from './gateway.js';
import { discountedCents, releasePromo, reservePromo, resolvePromo, type PromoRow } from './promos.js';
import { platformFeeCents } from './money-settings.js';
import { giftPaid } from './gifts.js';
import type { ReadCache } from '../cache/read-cache.js';
import type { JobQueue } from '../jobs/queue.js';
import { queueMail } from '../mail/queue.js';
import { tag } from '../cache/tags.js';
import { possessive } from '#contract/names';

/**
 * The payment state machine every gateway drives (./gateway.ts): a payment row is created "processing" with its
 * idempotency key, the gateway answers, and the answer is applied exactly once. Success creates (or renews) the
 * subscription in the same transaction that marks the payment succeeded; failure leaves no subscription and gives
 * the promo redemption back.
 */

export interface PaymentRow {
  id: string;
  userId: string;
  artistId: string;
  subscriptionId: string | null;
  idempotencyKey: string | null;
  gateway: 'test' | 'stripe';
  kind: 'subscribe' | 'renewal' | 'trial' | 'gift';
  status: 'processing' | 'requires_action' | 'succeeded' | 'failed';
  amountCents: number;
  listPriceCents: number;
  currency: string;
  promoCodeId: string | null;
  promoCode: string | null;
  cardId: string | null;
  gatewaySubscriptionId: string | null;
  gatewayPaymentId: string | null;
  gatewayInvoiceId: string | null;
  nextAction: NextAction | null;
  actionSecret: string | null;
  actionResult: string | null;
  returnUrl: string | null;
  failureReason: FailureReason | null;
  failureMessage: string | null;
  periodEnd: Date | null;
  refundedCents: number;
  feeCents: number;
  disputeStatus: 'open' | 'won' | 'lost' | null;
  payoutAccountId: string | null;
  createdAt: Date;
}

export const PAYMENT_SELECT = `
  SELECT p.id, p.user_id AS "userId", p.artist_id AS "artistId", p.subscription_id AS "subscriptionId",
         p.idempotency_key AS "idempotencyKey", p.gateway, p.kind, p.status, p.amount_cents AS "amountCents",
         p.list_price_cents AS "listPriceCents", p.currency, p.promo_code_id AS "promoCodeId", pc.code AS "promoCode",
         p.card_id AS "cardId", p.gateway_subscription_id AS "gatewaySubscriptionId",
         p.gateway_payment_id AS "gatewayPaymentId", p.gateway_invoice_id AS "gatewayInvoiceId",
         p.next_action AS "nextAction", p.action_secret AS "actionSecret", p.action_result AS "actionResult",
         p.return_url AS "returnUrl", p.failure_reason AS "failureReason", p.failure_message AS "failureMessage",
         p.period_end AS "periodEnd", p.refunded_cents AS "refundedCents", p.fee_cents AS "feeCents",
         p.dispute_status AS "disputeStatus", p.payout_account_id AS "payoutAccountId", p.created_at AS "createdAt"
    FROM payments p LEFT JOIN promo_codes pc ON pc.id = p.promo_code_id`;

export function findPayment(db: Queryable, id: string) {
  return one<PaymentRow>(db, `${PAYMENT_SELECT} WHERE p.id = $1`, [id]);
}

export interface PayableArtist {
  id: string;
  username: string;
  name: string;
  yearlyPriceCents: number;
  currency: string;
  trialDays: number;
  stripeProductId: string | null;
  /** The payout account, once it takes payouts: charges go there (less the platform's fee). */
  payoutAccountId: string | null;
}

export function findPayableArtist(db: Queryable, performerId: string) {
  return one<PayableArtist>(
    db,
    `SELECT u.id, u.username, u.name, p.yearly_price_cents AS "yearlyPriceCents", p.currency, p.trial_days AS "trialDays",
            p.stripe_product_id AS "stripeProductId",
            CASE WHEN p.payout_status = 'enabled' THEN p.payout_account_id END AS "payoutAccountId"
       FROM users u JOIN artist_profiles p ON p.user_id = u.id
      WHERE u.id = $1 AND u.is_performer AND u.status = 'active'`,
    [performerId],
  );
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * The free trial this fan gets from this artist, in days, or undefined: only a paid club with a trial, and only a
 * fan who has never been a member nor started a trial there (one trial per fan and club).
 */
export async function trialFor(db: Queryable, userId: string, artist: Pick<PayableArtist, 'id' | 'trialDays' | 'yearlyPriceCents'>) {
  if (!artist.trialDays || !artist.yearlyPriceCents) return undefined;
  const before = await one(
    db,
    `SELECT 1 FROM subscriptions WHERE user_id = $1 AND artist_id = $2
     UNION ALL SELECT 1 FROM payments WHERE user_id = $1 AND artist_id = $2 AND kind = 'trial' AND status = 'succeeded' LIMIT 1`,
    [userId, artist.id],
  );
  return before ? undefined : artist.trialDays;
}
/** The same day next year (365.25 days moved the date on by one for a fan paying after 18:00 UTC). */
const yearFromNow = () => oneYearAfter(new Date());

/** The payment as the api answers it: the three outcomes of docs/payments.md. */
export function serializePayment(p: PaymentRow, subscription?: SubscriptionDetail): Payment {
  return {
    _id: p.id,
    kind: p.kind,
    status: p.status,
    performerId: p.artistId,
    paymentGateway: p.gateway,
    amount: p.amountCents / 100,
    listPrice: p.listPriceCents / 100,
    currency: p.currency,
    promo: p.promoCode,
    nextAction: p.status === 'requires_action' ? p.nextAction : null,
    failure:
      p.status === 'failed' && p.failureReason
        ? { reason: p.failureReason, message: p.failureMessage ?? FAILURE_MESSAGES[p.failureReason] }
        : null,
    subscription: subscription ?? null,
    createdAt: new Date(p.createdAt).toISOString(),
  };
}

interface SubscriptionRow {
  id: string;
  artistId: string;
  type: 'free' | 'yearly' | 'gift';
  status: string;
  active: boolean;
  autoRenew: boolean;
  startedAt: Date;
  expiresAt: Date;
  pricePaidCents: number;
  currency: string;
  gateway: string;
  gatewaySubscriptionId: string | null;
  userId: string;
  trialEndsAt: Date | null;
}

export const SUBSCRIPTION_SELECT = `
  SELECT s.id, s.user_id AS "userId", s.artist_id AS "artistId", s.type, s.status,
         (s.status = 'active' AND s.expires_at > now()) AS active, s.auto_renew AS "autoRenew",
         s.started_at AS "startedAt", s.expires_at AS "expiresAt", s.price_paid_cents AS "pricePaidCents", s.currency,
         s.gateway, s.gateway_subscription_id AS "gatewaySubscriptionId", s.trial_ends_at AS "trialEndsAt"
    FROM subscriptions s`;

export function serializeSubscription(s: SubscriptionRow): SubscriptionDetail {
  return {
    _id: s.id,
    performerId: s.artistId,
    type: s.type,
    status: s.active ? 'active' : s.status === 'active' ? 'expired' : s.status,
    active: s.active,
    autoRenew: s.autoRenew,
    startedAt: new Date(s.startedAt).toISOString(),
    expiresAt: new Date(s.expiresAt).toISOString(),
    pricePaid: s.pricePaidCents / 100,
    currency: s.currency,
    paymentGateway: s.gateway,
    trialEndsAt: s.trialEndsAt ? new Date(s.trialEndsAt).toISOString() : null,
  };
}

export function findSubscription(db: Queryable, where: string, params: unknown[]) {
  return one<SubscriptionRow>(db, `${SUBSCRIPTION_SELECT} WHERE ${where}`, params);
}

async function subscriptionFor(db: Queryable, payment: PaymentRow) {
  if (payment.status !== 'succeeded') return undefined;
  const row = await findSubscription(db, 's.user_id = $1 AND s.artist_id = $2', [payment.userId, payment.artistId]);
  return row ? serializeSubscription(row) : undefined;
}

/** Creates or renews the fan's subscription to the artist: active until the end of the paid period. */
async function upsertSubscription(
  tx: Queryable,
  values: {
    userId: string;
    artistId: string;
    type: 'free' | 'yearly';
    pricePaidCents: number;
    currency: string;
    expiresAt: Date;
    gateway: 'free' | 'test' | 'stripe';
    gatewaySubscriptionId: string | null;
    cardId: string | null;
    /** A free trial: access until then, when the first year is charged. */
    trialEndsAt?: Date | null;
  },
) {
  const row = await one<{ id: string }>(
    tx,
    `INSERT INTO subscriptions (user_id, artist_id, status, type, price_paid_cents, auto_renew, started_at, expires_at,
                                gateway, gateway_subscription_id, currency, card_id, trial_ends_at)
     VALUES ($1, $2, 'active', $3, $4, true, now(), $5, $6, $7, $8, $9, $10)
     ON CONFLICT (user_id, artist_id) DO UPDATE SET
       -- A lapsed or cancelled subscription starts again today; an active one keeps its start.
       started_at = CASE WHEN subscriptions.status = 'active' AND subscriptions.expires_at > now()
                         THEN subscriptions.started_at ELSE now() END,
       expires_at = CASE WHEN subscriptions.status = 'active' AND subscriptions.expires_at > now()
                         THEN greatest(subscriptions.expires_at, EXCLUDED.expires_at) ELSE EXCLUDED.expires_at END,
       status = 'active', type = EXCLUDED.type, price_paid_cents = EXCLUDED.price_paid_cents, auto_renew = true,
       gateway = EXCLUDED.gateway, gateway_subscription_id = EXCLUDED.gateway_subscription_id,
       currency = EXCLUDED.currency, card_id = EXCLUDED.card_id, trial_ends_at = EXCLUDED.trial_ends_at,
       trial_reminded_at = NULL, updated_at = now()
     RETURNING id`,
    [
      values.userId,
      values.artistId,
      values.type,
      values.pricePaidCents,
      values.expiresAt,
      values.gateway,
      values.gatewaySubscriptionId,
      values.currency,
      values.cardId,
      values.trialEndsAt ?? null,
    ],
  );
  return row!.id;
}

/**
 * Applies a gateway's answer to a payment. Each transition happens once: the UPDATE only matches a payment that
 * is still open, so a webhook and the fan's confirm racing each other cannot both create the subscription.
 */
export async function applyOutcome(
  pc: Pick<PaymentsContext, 'db' | 'cache' | 'jobs' | 'config'>,
  gateway: PaymentGateway | null,
  paymentId: string,
  outcome: GatewayOutcome,
) {
  const { db } = pc;
  const refs = [outcome.gatewaySubscriptionId ?? null, outcome.gatewayPaymentId ?? null, outcome.gatewayInvoiceId ?? null];
  if (outcome.customerId) {
    await db.query(
      `UPDATE users SET stripe_customer_id = $2 WHERE id = (SELECT user_id FROM payments WHERE id = $1) AND stripe_customer_id IS NULL`,
      [paymentId, outcome.customerId],
    );
  }
  if (outcome.status === 'succeeded') {
    let superseded: PaymentRow[] = [];
    const started = await db.transaction(async (tx) => {
      const payment = await one<PaymentRow>(
        tx,
        `UPDATE payments SET status = 'succeeded', next_action = NULL, updated_at = now(),
                gateway_subscription_id = coalesce($2, gateway_subscription_id),
                gateway_payment_id = coalesce($3, gateway_payment_id),
                gateway_invoice_id = coalesce($4, gateway_invoice_id),
                period_end = coalesce($5, period_end)
          WHERE id = $1 AND status IN ('processing', 'requires_action')
          RETURNING id, user_id AS "userId", artist_id AS "artistId", amount_cents AS "amountCents", currency, kind,
                    gateway, card_id AS "cardId", gateway_subscription_id AS "gatewaySubscriptionId", period_end AS "periodEnd"`,
        [paymentId, ...refs, outcome.periodEnd ?? null],
      );
      if (!payment) return undefined;
      // A gift pays for no membership of the buyer's: its recipient is mailed the link, the buyer a receipt.
      if (payment.kind === 'gift') {
        await giftPaid(pc, tx, paymentId);
        return undefined;
      }
      const trial = payment.kind === 'trial';
      const subscriptionId = await upsertSubscription(tx, {
        userId: payment.userId,
        artistId: payment.artistId,
        type: 'yearly',
        pricePaidCents: payment.amountCents,
        currency: payment.currency,
        expiresAt: payment.periodEnd ? new Date(payment.periodEnd) : yearFromNow(),
        gateway: payment.gateway,
        gatewaySubscriptionId: payment.gatewaySubscriptionId,
        cardId: payment.cardId,
        trialEndsAt: trial && payment.periodEnd ? new Date(payment.periodEnd) : null,
      });
      await tx.query('UPDATE payments SET subscription_id = $2 WHERE id = $1', [paymentId, subscriptionId]);
      // The receipt (for a trial: what it costs and when), queued with the payment's success: both happen, or neither.
      if (trial) await queueMail(pc.jobs, { kind: 'trialStarted', paymentId }, { key: `trial:${paymentId}`, tx });
      else await queueMail(pc.jobs, { kind: 'receipt', paymentId }, { key: `receipt:${paymentId}`, tx });
      superseded = await tx.query<PaymentRow>(
        `UPDATE payments SET status = 'failed', next_action = NULL, failure_reason = 'superseded', failure_message = $3, updated_at = now()
          WHERE user_id = $1 AND artist_id = $2 AND id <> $4 AND kind IN ('subscribe', 'trial') AND status = 'requires_action'
          RETURNING id, promo_code_id AS "promoCodeId", gateway_subscription_id AS "gatewaySubscriptionId",
                    gateway_payment_id AS "gatewayPaymentId", action_result AS "actionResult", action_secret AS "actionSecret",
                    card_id AS "cardId"`,
        [payment.userId, payment.artistId, FAILURE_MESSAGES.superseded, paymentId],
      );
      return payment;
    });
    // The artist's subscriber count has grown (the fan's access needs no word: only "subscribed" is cached).
    if (started) await pc.cache.invalidate(tag.artist(started.artistId), tag.fanSubscriptions(started.userId));
    // A payment still waiting for authentication must not charge too once this one has paid: call it off.
    for (const other of superseded) {
      if (other.promoCodeId) await releasePromo(db, other.promoCodeId);
      if (gateway?.abandon) await gateway.abandon(storedPayment(other));
    }
  } else if (outcome.status === 'requires_action') {
    await db.query(
      `UPDATE payments SET status = 'requires_action', next_action = $2::jsonb,
              action_secret = coalesce($3, action_secret), updated_at = now(),
              gateway_subscription_id = coalesce($4, gateway_subscription_id),
              gateway_payment_id = coalesce($5, gateway_payment_id),
              gateway_invoice_id = coalesce($6, gateway_invoice_id)
        WHERE id = $1 AND status IN ('processing', 'requires_action')`,
      [paymentId, JSON.stringify(outcome.nextAction), outcome.actionSecret ?? null, ...refs],
    );
  } else {
    const failed = await one<PaymentRow>(
      db,
      `UPDATE payments SET status = 'failed', next_action = NULL, failure_reason = $2, failure_message = $3, updated_at = now(),
              gateway_subscription_id = coalesce($4, gateway_subscription_id),
              gateway_payment_id = coalesce($5, gateway_payment_id),
              gateway_invoice_id = coalesce($6, gateway_invoice_id)
        WHERE id = $1 AND status IN ('processing', 'requires_action')
        RETURNING id, promo_code_id AS "promoCodeId", gateway_subscription_id AS "gatewaySubscriptionId",
                  gateway_payment_id AS "gatewayPaymentId", action_result AS "actionResult", action_secret AS "actionSecret",
                  card_id AS "cardId"`,
      [paymentId, outcome.reason, FAILURE_MESSAGES[outcome.reason], ...refs],
    );
    if (failed?.promoCodeId) await releasePromo(db, failed.promoCodeId);
    if (failed && gateway?.abandon) await gateway.abandon(storedPayment(failed));
  }
}

export function storedPayment(
  p: Pick<PaymentRow, 'id' | 'gatewaySubscriptionId' | 'gatewayPaymentId' | 'actionResult' | 'actionSecret' | 'cardId'>,
): StoredPayment {
  return {
    id: p.id,
    gatewaySubscriptionId: p.gatewaySubscriptionId,
    gatewayPaymentId: p.gatewayPaymentId,
    actionResult: p.actionResult,
    actionSecret: p.actionSecret,
    cardId: p.cardId,
  };
}

/** How long a payment may wait for its fan's authentication (3-D Secure) after its last step. */
export const PENDING_PAYMENT_MINUTES = 30;

/**
 * Calls off payments waiting for authentication that will not be finished: any that waited PENDING_PAYMENT_MINUTES
 * since its last step, and, given a fan and an artist, all of that fan's for that artist at once (they start another).
 * Each gives its promo redemption back, so abandoned payments cannot use a code up, and is abandoned at the
 * gateway, so it cannot be completed (and charged) there afterwards.
 */
export async function expirePendingPayments(db: Queryable, gateway: PaymentGateway | null, fan?: { userId: string; artistId: string }) {
  const expired = await db.query<PaymentRow>(
    `UPDATE payments SET status = 'failed', next_action = NULL, failure_reason = 'expired', failure_message = $1, updated_at = now()
      WHERE status = 'requires_action' AND kind IN ('subscribe', 'trial', 'gift')
        AND (updated_at < now() - make_interval(mins => $2) OR (user_id = $3 AND artist_id = $4))
      RETURNING id, promo_code_id AS "promoCodeId", gateway_subscription_id AS "gatewaySubscriptionId",
                gateway_payment_id AS "gatewayPaymentId", action_result AS "actionResult", action_secret AS "actionSecret",
                card_id AS "cardId"`,
    [FAILURE_MESSAGES.expired, PENDING_PAYMENT_MINUTES, fan?.userId ?? null, fan?.artistId ?? null],
  );
  for (const payment of expired) {
    if (payment.promoCodeId) await releasePromo(db, payment.promoCodeId);
    if (gateway?.abandon) await gateway.abandon(storedPayment(payment));
  }
}

/** Asks the gateway, and turns a gateway that cannot be reached into a failed payment instead of a 500. */
export async function ask(
  ctx: { log: { error(o: unknown, m: string): void } },
  fn: () => Promise<GatewayOutcome>,
): Promise<GatewayOutcome> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof GatewayUnreachableError) return { status: 'failed', reason: 'gateway_unreachable' };
    ctx.log.error({ err: error }, 'payment gateway error');
    return { status: 'failed', reason: 'processing_error' };
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A replayed request waits for the first one to finish, then answers what it answered. */
async function settled(db: Db, id: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const payment = await findPayment(db, id);
    if (!payment) throw notFound('Payment not found');
    if (payment.status !== 'processing' || Date.now() > deadline) return payment;
    await sleep(100);
  }
}

export interface PaymentsContext {
  db: Db;
  cache: ReadCache;
  jobs: JobQueue;
  config: Config;
  gateway: PaymentGateway;
  log: { error(o: unknown, m: string): void; warn(o: unknown, m: string): void };
}

export interface SubscribeInput {
  type: 'yearly' | 'free';
  performerId: string;
  paymentGateway?: string;
  cardId?: string;
  promo?: string;
}

export const ALREADY_SUBSCRIBED = (name: string) => `You are already subscribed to ${name}.`;
export const IN_PROGRESS = 'A payment for this fan club is already in progress. Please wait a moment.';

/** POST /payment/subscribe/performers. */
export async function subscribe(pc: PaymentsContext, viewer: Viewer, input: SubscribeInput, idempotencyKey: string | undefined) {
  const { db, config, gateway } = pc;
  if (idempotencyKey) {
    const existing = await one<{ id: string; artistId: string }>(
      db,
      'SELECT id, artist_id AS "artistId" FROM payments WHERE user_id = $1 AND idempotency_key = $2',
      [viewer.id, idempotencyKey],
    );
    if (existing) return replay(pc, existing, input.performerId);
  }

  const artist = await findPayableArtist(db, input.performerId);
  if (!artist) throw notFound('Artist not found');
  if (viewer.isPerformer) throw forbidden('Artists cannot subscribe to fan clubs.');

  if (input.type === 'free') {
    if (artist.yearlyPriceCents > 0) {
      throw badRequest(`${possessive(artist.name)} fan club is not free.`, { type: [`${possessive(artist.name)} fan club is not free.`] });
    }
    // Joining a free club twice (a double click) answers the membership the fan already has.
    const current = await findSubscription(db, `s.user_id = $1 AND s.artist_id = $2 AND s.status = 'active' AND s.expires_at > now()`, [
      viewer.id,
      artist.id,
    ]);
    const subscriptionId =
      current?.id ??
      (await db.transaction(async (tx) => {
        const id = await upsertSubscription(tx, {
          userId: viewer.id,
          artistId: artist.id,
          type: 'free',
          pricePaidCents: 0,
          currency: artist.currency,
          expiresAt: yearFromNow(),
          gateway: 'free',
          gatewaySubscriptionId: null,
          cardId: null,
        });
        // Once per joining: a fan who leaves and joins again is welcomed again.
        const joined = await one<{ startedAt: Date }>(tx, 'SELECT started_at AS "startedAt" FROM subscriptions WHERE id = $1', [id]);
        await queueMail(
          pc.jobs,
          { kind: 'welcome', subscriptionId: id },
          { key: `welcome:${id}:${new Date(joined!.startedAt).toISOString()}`, tx },
        );
        return id;
      }));
    if (!current) await pc.cache.invalidate(tag.artist(artist.id), tag.fanSubscriptions(viewer.id));
    const row = await findSubscription(db, 's.id = $1', [subscriptionId]);
    return {
      _id: null,
      kind: 'subscribe' as const,
      status: 'succeeded' as const,
      performerId: artist.id,
      paymentGateway: 'free',
      amount: 0,
      listPrice: 0,
      currency: artist.currency,
      promo: null,
      nextAction: null,
      failure: null,
      subscription: serializeSubscription(row!),
      createdAt: new Date().toISOString(),
    };
  }
  if (await isSubscribed(db, viewer.id, artist.id)) throw new ApiError(409, ALREADY_SUBSCRIBED(artist.name));

  if (artist.yearlyPriceCents === 0) {
    throw badRequest(`${possessive(artist.name)} fan club is free: subscribe with type "free".`, { type: ['This fan club is free.'] });
  }
  if (input.paymentGateway !== gateway.name) {
    const message = `Payments go through the "${gateway.name}" gateway.`;
    throw badRequest(message, { paymentGateway: [message] });
  }
  if (!input.cardId && gateway.name === 'test')
    throw badRequest('Please enter your card details.', { cardId: ['Please enter your card details.'] });

  // A payment left "processing" by a crash would block this fan forever (one in flight per club): give up on it.
  const stale = await db.query<{ promoCodeId: string | null }>(
    `UPDATE payments SET status = 'failed', failure_reason = 'processing_error', failure_message = $3, updated_at = now()
      WHERE user_id = $1 AND artist_id = $2 AND status = 'processing' AND updated_at < now() - interval '10 minutes'
      RETURNING promo_code_id AS "promoCodeId"`,
    [viewer.id, artist.id, FAILURE_MESSAGES.processing_error],
  );
  for (const row of stale) if (row.promoCodeId) await releasePromo(db, row.promoCodeId);
  await expirePendingPayments(db, gateway, { userId: viewer.id, artistId: artist.id });

  const promo: PromoRow | null = input.promo?.trim() ? await resolvePromo(db, artist.id, input.promo) : null;
  const trialDays = (await trialFor(db, viewer.id, artist)) ?? 0;
  // A trial charges nothing now: the first year (after the promo) is charged when it ends (./trials.ts).
  const amountCents = trialDays ? 0 : discountedCents(artist.yearlyPriceCents, promo, artist.currency);
  const trialEndsAt = trialDays ? new Date(Date.now() + trialDays * DAY_MS) : null;
  const returnUrl = `${config.publicWebUrl}/${artist.username}/subscribe/confirm`;

  let paymentId: string;
  try {
    paymentId = await db.transaction(async (tx) => {
      if (promo) await reservePromo(tx, promo.id);
      const row = await one<{ id: string }>(
        tx,
        `INSERT INTO payments (user_id, artist_id, idempotency_key, gateway, status, amount_cents, list_price_cents, currency,
                               promo_code_id, card_id, kind, period_end, fee_cents, payout_account_id)
         VALUES ($1, $2, $3, $4, 'processing', $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
        [
          viewer.id,
          artist.id,
          idempotencyKey ?? null,
          gateway.name,
          amountCents,
          artist.yearlyPriceCents,
          artist.currency,
          promo?.id ?? null,
          input.cardId ?? null,
          trialDays ? 'trial' : 'subscribe',
          trialEndsAt,
          platformFeeCents(amountCents, config.platformFeePercent),
          artist.payoutAccountId,
        ],
      );
      // The check above is a fast answer, not the guard: another submit's payment may have succeeded since. Once
      // this payment is recorded, any other one still in flight blocks it (payments_in_flight_key) and any that has
      // finished has committed its subscription with it (applyOutcome), so asking again here cannot miss one.
      if (await isSubscribed(tx, viewer.id, artist.id)) throw new ApiError(409, ALREADY_SUBSCRIBED(artist.name));
      return row!.id;
    });
  } catch (error) {
    const e = error as { code?: string; constraint?: string; message?: string };
    if (e.code === '23505' && `${e.constraint} ${e.message}`.includes('payments_idempotency_key') && idempotencyKey) {
      const existing = await one<{ id: string; artistId: string }>(
        db,
        'SELECT id, artist_id AS "artistId" FROM payments WHERE user_id = $1 AND idempotency_key = $2',
        [viewer.id, idempotencyKey],
      );
      if (existing) return replay(pc, existing, input.performerId);
    }
    if (e.code === '23505' && `${e.constraint} ${e.message}`.includes('payments_in_flight_key')) throw new ApiError(409, IN_PROGRESS);
    throw error;
  }
  const withReturn = `${returnUrl}?${new URLSearchParams({ payment: paymentId })}`;
  await db.query('UPDATE payments SET return_url = $2 WHERE id = $1', [paymentId, withReturn]);

  let outcome: GatewayOutcome;
  try {
    const user = await one<{ stripeCustomerId: string | null }>(
      db,
      'SELECT stripe_customer_id AS "stripeCustomerId" FROM users WHERE id = $1',
      [viewer.id],
    );
    outcome = await ask(pc, () =>
      gateway.subscribe({
        paymentId,
        idempotencyKey: idempotencyKey ?? paymentId,
        user: { id: viewer.id, email: viewer.email, username: viewer.username, stripeCustomerId: user?.stripeCustomerId ?? null },
        artist: { id: artist.id, username: artist.username, name: artist.name, stripeProductId: artist.stripeProductId },
        cardId: input.cardId,
        amountCents,
        listPriceCents: artist.yearlyPriceCents,
        currency: artist.currency,
        trialDays,
        destination: artist.payoutAccountId ? { accountId: artist.payoutAccountId, feePercent: config.platformFeePercent } : null,
        promo: promo
          ? {
              id: promo.id,
              code: promo.code,
              percentOff: promo.percentOff,
              amountOffCents: promo.amountOffCents,
              stripeCouponId: promo.stripeCouponId,
            }
          : null,
        returnUrl: withReturn,
        cancelUrl: `${config.publicWebUrl}/${artist.username}/subscribe/payment`,
      }),
    );
  } catch (error) {
    // A request the gateway refused before charging (an unknown card token): as if it never happened.
    await db.query('DELETE FROM payments WHERE id = $1', [paymentId]);
    if (promo) await releasePromo(db, promo.id);
    throw error;
  }
  await applyOutcome(pc, gateway, paymentId, outcome);
  const payment = (await findPayment(db, paymentId))!;
  return serializePayment(payment, await subscriptionFor(db, payment));
}

async function replay(pc: PaymentsContext, existing: { id: string; artistId: string }, performerId: string) {
  if (existing.artistId !== performerId) {
    throw badRequest('This idempotency key was already used for another payment.', { idempotencyKey: ['Already used'] });
  }
  const payment = await settled(pc.db, existing.id);
  return serializePayment(payment, await subscriptionFor(pc.db, payment));
}

/** The fan's own payment, for the confirm page and POST /payment/{id}/confirm. */
export async function viewerPayment(db: Db, viewer: Viewer, paymentId: string) {
  const payment = /^[0-9a-f-]{36}$/i.test(paymentId) ? await findPayment(db, paymentId) : undefined;
  if (!payment || payment.userId !== viewer.id) throw notFound('Payment not found');
  return payment;
}

/** POST /payment/{id}/confirm: after the fan authenticated, ask the gateway where the payment stands and apply it. */
export async function confirm(pc: PaymentsContext, viewer: Viewer, paymentId: string) {
  const payment = await viewerPayment(pc.db, viewer, paymentId);
  if (payment.status === 'requires_action') {
    if (payment.gateway !== pc.gateway.name) throw new ApiError(409, 'This payment was started with another payment gateway.');
    const outcome = await ask(pc, () => pc.gateway.confirm(storedPayment(payment)));
    await applyOutcome(pc, pc.gateway, payment.id, outcome);
  }
  const now = (await findPayment(pc.db, payment.id))!;
  return serializePayment(now, await subscriptionFor(pc.db, now));
}

export async function getPayment(db: Db, viewer: Viewer, paymentId: string) {
  const payment = await viewerPayment(db, viewer, paymentId);
  return serializePayment(payment, await subscriptionFor(db, payment));
}
