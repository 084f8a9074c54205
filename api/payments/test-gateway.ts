import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { cardMessages, isExpired, luhnValid } from '#contract/payment-schemas';
import type { Config } from '#contract/config';
import { one, type Db } from '../db/client.js';
import { badRequest } from '../http.js';
import type { FailureReason, GatewayOutcome, OneOffCharge, PaymentGateway, StoredPayment, SubscribeCharge } from './gateway.js';

/**
 * The test gateway: the default where no Stripe keys are set, so the whole funnel runs on a fresh machine and the
 * browser tests drive it. It takes Stripe's documented test card numbers through the same state machine as Stripe.
 * Nothing is ever charged. Cards are first exchanged for a token (tok_test_…), as Stripe.js does, so the payment
 * call carries a card source id (its cardId) and never a card number; only the last four digits are kept.
 */

type Behaviour = 'succeed' | 'authenticate' | FailureReason;

/** Stripe's test numbers (https://docs.stripe.com/testing), and what each does here. */
export const TEST_CARDS: Record<string, { brand: string; behaviour: Behaviour }> = {
  '4242424242424242': { brand: 'Visa', behaviour: 'succeed' },
  '5555555555554444': { brand: 'Mastercard', behaviour: 'succeed' },
  '4000002760003184': { brand: 'Visa', behaviour: 'authenticate' },
  '4000002500003155': { brand: 'Visa', behaviour: 'authenticate' },
  '4000000000000002': { brand: 'Visa', behaviour: 'card_declined' },
  '4000000000009995': { brand: 'Visa', behaviour: 'insufficient_funds' },
  '4000000000000069': { brand: 'Visa', behaviour: 'expired_card' },
  '4000000000000127': { brand: 'Visa', behaviour: 'incorrect_cvc' },
  '4000000000000119': { brand: 'Visa', behaviour: 'processing_error' },
};

export const NOT_A_TEST_CARD = cardMessages.notTestCard;
export const CARD_NUMBER_MESSAGE = cardMessages.number;
export const EXPIRY_MESSAGE = cardMessages.expiry;
export const EXPIRED_MESSAGE = cardMessages.expired;
export const CVC_MESSAGE = cardMessages.cvc;

export const TestCardSchema = z.object({
  number: z
    .string({ error: CARD_NUMBER_MESSAGE })
    .transform((value) => value.replace(/[\s-]/g, ''))
    .pipe(
      z
        .string()
        .regex(/^\d{12,19}$/, { error: CARD_NUMBER_MESSAGE })
        .refine(luhnValid, { error: CARD_NUMBER_MESSAGE })
        .refine((value) => value in TEST_CARDS, { error: NOT_A_TEST_CARD }),
    ),
  expMonth: z.coerce
    .number({ error: EXPIRY_MESSAGE })
    .int({ error: EXPIRY_MESSAGE })
    .min(1, { error: EXPIRY_MESSAGE })
    .max(12, { error: EXPIRY_MESSAGE }),
  expYear: z.coerce
    .number({ error: EXPIRY_MESSAGE })
    .int({ error: EXPIRY_MESSAGE })
    .min(0, { error: EXPIRY_MESSAGE })
    .max(2200, { error: EXPIRY_MESSAGE })
    // Two digits mean 20xx, as printed on cards.
    .transform((year) => (year < 100 ? 2000 + year : year)),
  cvc: z
    .string({ error: CVC_MESSAGE })
    .trim()
    .regex(/^\d{3,4}$/, { error: CVC_MESSAGE }),
});

export interface TestCard {
  id: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  behaviour: Behaviour;
}

/** Exchanges a card for a token the fan alone may pay with (POST /payment/test-gateway/cards). */
export async function tokenizeTestCard(db: Db, userId: string, input: unknown): Promise<TestCard> {
  const parsed = TestCardSchema.safeParse(input ?? {});
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (errors[String(issue.path[0] ?? 'form')] ??= []).push(issue.message);
    throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid card', errors);
  }
  const card = parsed.data;
  if (isExpired(card.expMonth, card.expYear)) throw badRequest(EXPIRED_MESSAGE, { expMonth: [EXPIRED_MESSAGE] });
  const known = TEST_CARDS[card.number];
  const id = `tok_test_${randomBytes(12).toString('hex')}`;
  await db.query(
    `INSERT INTO test_gateway_cards (id, user_id, brand, last4, exp_month, exp_year, behaviour) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [id, userId, known.brand, card.number.slice(-4), card.expMonth, card.expYear, known.behaviour],
  );
  return {
    id,
    brand: known.brand,
    last4: card.number.slice(-4),
    expMonth: card.expMonth,
    expYear: card.expYear,
    behaviour: known.behaviour,
  };
}

export async function findTestCard(db: Db, cardId: string, userId: string) {
  return one<TestCard>(
    db,
    `SELECT id, brand, last4, exp_month AS "expMonth", exp_year AS "expYear", behaviour
       FROM test_gateway_cards WHERE id = $1 AND user_id = $2`,
    [cardId, userId],
  );
}

export const UNKNOWN_CARD = 'We could not find that card. Please enter your card details again.';

/** The approval page's address for a payment (the stand-in for a bank's 3-D Secure page, served by the api). */
export function approvalUrl(config: Config, paymentId: string, secret: string) {
  return `${config.publicApiUrl}/payment/test-gateway/authenticate/${encodeURIComponent(paymentId)}?${new URLSearchParams({ secret })}`;
}

/** The test gateway's onboarding page for a payout account (the stand-in for Stripe's Connect onboarding). */
export function onboardingUrl(config: Config, accountId: string) {
  return `${config.publicApiUrl}/payment/test-gateway/onboarding/${encodeURIComponent(accountId)}`;
}

export function createTestGateway(
  db: Db,
  config: Config,
): PaymentGateway & {
  /** A renewal is charged without the fan (off-session): a card that needs authentication fails then. */
  chargeRenewal(cardId: string | null, userId: string): Promise<GatewayOutcome>;
} {
  const charge = async (cardId: string | null, userId: string) => {
    const card = cardId ? await findTestCard(db, cardId, userId) : undefined;
    if (!card) throw badRequest(UNKNOWN_CARD, { cardId: [UNKNOWN_CARD] });
    if (isExpired(card.expMonth, card.expYear)) return { card, behaviour: 'expired_card' as Behaviour };
    return { card, behaviour: card.behaviour };
  };
  const ref = () => `tpay_${randomBytes(10).toString('hex')}`;

  /** A charge with the fan present (the first year, a gift): the card decides, and may ask for authentication. */
  async function firstCharge(request: Pick<SubscribeCharge, 'cardId' | 'user' | 'paymentId'>): Promise<GatewayOutcome> {
    const { behaviour } = await charge(request.cardId ?? null, request.user.id);
    if (behaviour === 'succeed') return { status: 'succeeded', gatewayPaymentId: ref() };
    if (behaviour === 'authenticate') {
      const secret = randomBytes(18).toString('base64url');
      return {
        status: 'requires_action',
        gatewayPaymentId: ref(),
        actionSecret: secret,
        nextAction: { type: 'redirect', url: approvalUrl(config, request.paymentId, secret) },
      };
    }
    return { status: 'failed', reason: behaviour };
  }

  return {
    name: 'test',
    subscribe: (request: SubscribeCharge) => firstCharge(request),
    chargeOnce: (request: OneOffCharge) => firstCharge(request),
    async confirm(payment: StoredPayment): Promise<GatewayOutcome> {
      if (payment.actionResult === 'approved') return { status: 'succeeded' };
      if (payment.actionResult === 'failed') return { status: 'failed', reason: 'authentication_failed' };
      return {
        status: 'requires_action',
        nextAction: { type: 'redirect', url: approvalUrl(config, payment.id, payment.actionSecret ?? '') },
      };
    },
    async setAutoRenew() {
      // The renewal itself is ours (./renewals.ts): the subscription's auto_renew column is all there is to change.
    },
    async refund(request) {
      // Nothing was charged, so nothing goes back; the id comes from the key, so a repeated request is the same refund.
      return { refundId: `tre_${createHash('sha256').update(request.idempotencyKey).digest('hex').slice(0, 24)}` };
    },
    async cancelNow() {
      // Our own renewals stop with auto_renew off, which ending the subscription sets.
    },
    async payoutOnboarding(request) {
      // The account id is the onboarding page's secret: long and random, as a Stripe account link is.
      const accountId = request.accountId ?? `acct_test_${randomBytes(12).toString('hex')}`;
      return { accountId, url: onboardingUrl(config, accountId) };
    },
    async payoutAccountStatus(accountId) {
      const row = await one<{ status: string }>(db, 'SELECT payout_status AS status FROM artist_profiles WHERE payout_account_id = $1', [
        accountId,
      ]);
      return row?.status === 'enabled' ? 'enabled' : 'pending';
    },
    async chargeRenewal(cardId, userId) {
      try {
        const { behaviour } = await charge(cardId, userId);
        if (behaviour === 'succeed') return { status: 'succeeded', gatewayPaymentId: ref() };
        if (behaviour === 'authenticate') return { status: 'failed', reason: 'authentication_failed' };
        return { status: 'failed', reason: behaviour };
      } catch {
        return { status: 'failed', reason: 'card_declined' };
      }
    },
  };
}
