import Stripe from 'stripe';
import type { Config } from '#contract/config';
import type { Db } from '../db/client.js';
import {
  GatewayUnreachableError,
  type FailureReason,
  type GatewayOutcome,
  type PaymentGateway,
  type RefundCharge,
  type StoredPayment,
  type SubscribeCharge,
} from './gateway.js';

/**
 * Stripe: a yearly recurring subscription per fan and artist, billed by Stripe, which renews it and tells us by
 * webhook (./webhooks.ts). The card comes from Stripe Elements as a PaymentMethod (pm_…); without JavaScript the
 * page has no Elements, so the same call without a card opens a Stripe Checkout session instead.
 */

export function createStripeClient(config: Config): Stripe {
  const { secretKey, apiUrl } = config.stripe;
  const target = apiUrl ? new URL(apiUrl) : undefined;
  return new Stripe(secretKey ?? '', {
    // Our own stand-in in tests (STRIPE_API_URL); Stripe's servers otherwise.
    ...(target
      ? {
          host: target.hostname,
          port: target.port || (target.protocol === 'http:' ? 80 : 443),
          protocol: target.protocol === 'http:' ? 'http' : 'https',
        }
      : {}),
    maxNetworkRetries: 1,
    timeout: 20_000,
    telemetry: false,
  });
}

/** Stripe's decline codes mapped onto our reasons; anything else declined is a plain decline. */
function reasonFor(code: string | null | undefined, declineCode?: string | null): FailureReason {
  const key = declineCode || code || '';
  if (key === 'expired_card') return 'expired_card';
  if (key === 'insufficient_funds') return 'insufficient_funds';
  if (key === 'incorrect_cvc' || key === 'invalid_cvc') return 'incorrect_cvc';
  if (key === 'processing_error') return 'processing_error';
  if (key === 'payment_intent_authentication_failure' || key === 'authentication_required') return 'authentication_failed';
  return 'card_declined';
}

/** The PaymentIntent behind a client secret (pi_…_secret_…). */
function intentIdFromSecret(secret: string) {
  return secret.split('_secret_')[0];
}

function periodEndOf(subscription: Stripe.Subscription): Date | undefined {
  const end = subscription.items?.data?.[0]?.current_period_end;
  return typeof end === 'number' ? new Date(end * 1000) : undefined;
}

export function createStripeGateway(db: Db, config: Config, stripe = createStripeClient(config)): PaymentGateway {
  /** Every call goes through here: a network failure becomes GatewayUnreachableError. */
  async function call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof Stripe.errors.StripeConnectionError || error instanceof Stripe.errors.StripeAPIError) {
        throw new GatewayUnreachableError((error as Error).message);
      }
      throw error;
    }
  }

  async function customerFor(charge: Pick<SubscribeCharge, 'user'>) {
    if (charge.user.stripeCustomerId) return charge.user.stripeCustomerId;
    const customer = await call(() =>
      stripe.customers.create(
        { email: charge.user.email, name: charge.user.username, metadata: { userId: charge.user.id } },
        { idempotencyKey: `customer-${charge.user.id}` },
      ),
    );
    await db.query('UPDATE users SET stripe_customer_id = $2 WHERE id = $1 AND stripe_customer_id IS NULL', [charge.user.id, customer.id]);
    return customer.id;
  }

  async function productFor(charge: SubscribeCharge) {
    if (charge.artist.stripeProductId) return charge.artist.stripeProductId;
    const product = await call(() =>
      stripe.products.create(
        { name: `${charge.artist.name} fan club (yearly)`, metadata: { artistId: charge.artist.id } },
        { idempotencyKey: `product-${charge.artist.id}` },
      ),
    );
    await db.query('UPDATE artist_profiles SET stripe_product_id = $2 WHERE user_id = $1 AND stripe_product_id IS NULL', [
      charge.artist.id,
      product.id,
    ]);
    return product.id;
  }

  /** Our promo code as a Stripe coupon for the first invoice only, made once per code. */
  async function couponFor(charge: SubscribeCharge) {
    const promo = charge.promo;
    if (!promo) return undefined;
    if (promo.stripeCouponId) return promo.stripeCouponId;
    const coupon = await call(() =>
      stripe.coupons.create(
        {
          name: promo.code,
          duration: 'once',
          ...(promo.percentOff ? { percent_off: promo.percentOff } : { amount_off: promo.amountOffCents ?? 0, currency: charge.currency }),
          metadata: { promoCodeId: promo.id },
        },
        { idempotencyKey: `coupon-${promo.id}` },
      ),
    );
    await db.query('UPDATE promo_codes SET stripe_coupon_id = $2 WHERE id = $1 AND stripe_coupon_id IS NULL', [promo.id, coupon.id]);
    return coupon.id;
  }

  /**
   * Stripe Checkout (no JavaScript: no Elements): the fan pays on Stripe's page and comes back to the confirm page.
   * The session's id stands for the payment until the confirm page asks how it went.
   */
  async function openCheckout(
    charge: Pick<SubscribeCharge, 'paymentId' | 'idempotencyKey' | 'returnUrl' | 'cancelUrl'>,
    customer: string,
    params: Stripe.Checkout.SessionCreateParams,
  ): Promise<GatewayOutcome> {
    const session = await call(() =>
      stripe.checkout.sessions.create(
        { ...params, customer, client_reference_id: charge.paymentId, success_url: charge.returnUrl, cancel_url: charge.cancelUrl },
        { idempotencyKey: `checkout-${charge.idempotencyKey}` },
      ),
    );
    return {
      status: 'requires_action',
      nextAction: { type: 'redirect', url: session.url ?? '' },
      gatewayPaymentId: session.id,
      customerId: customer,
    };
  }

  /** Where a one-off PaymentIntent stands: paid, waiting for the fan's bank, or failed with its reason. */
  function intentOutcome(intent: Stripe.PaymentIntent, customerId?: string): GatewayOutcome {
    const refs = { gatewayPaymentId: intent.id, ...(customerId ? { customerId } : {}) };
    if (intent.status === 'succeeded') return { status: 'succeeded', ...refs };
    if (intent.status === 'requires_action') {
      const redirectUrl = intent.next_action?.redirect_to_url?.url;
      return {
        status: 'requires_action',
        nextAction: redirectUrl ? { type: 'redirect', url: redirectUrl } : { type: 'stripe_sdk', clientSecret: intent.client_secret ?? '' },
        ...refs,
      };
    }
    const error = intent.last_payment_error;
    return { status: 'failed', reason: reasonFor(error?.code, error?.decline_code), ...refs };
  }

  /** The PaymentIntent a payment was charged through: stored, or found through its invoice (renewals, Checkout). */
  async function paymentIntentOf(payment: RefundCharge['payment']) {
    if (payment.gatewayPaymentId?.startsWith('pi_')) return payment.gatewayPaymentId;
    const invoiceId = payment.gatewayInvoiceId;
    if (invoiceId) {
      const listed = await call(() => stripe.invoicePayments.list({ invoice: invoiceId, limit: 1 }));
      const intent = listed.data[0]?.payment?.payment_intent;
      const id = typeof intent === 'string' ? intent : intent?.id;
      if (id) {
        await db.query('UPDATE payments SET gateway_payment_id = $2 WHERE id = $1', [payment.id, id]);
        return id;
      }
    }
    throw new GatewayUnreachableError(`No PaymentIntent found for payment ${payment.id}`);
  }

  /** Where a subscription's first payment stands, from its latest invoice's PaymentIntent. */
  async function outcomeOf(subscription: Stripe.Subscription, customerId: string): Promise<GatewayOutcome> {
    const invoice = typeof subscription.latest_invoice === 'object' ? subscription.latest_invoice : null;
    const refs = {
      gatewaySubscriptionId: subscription.id,
      gatewayInvoiceId: invoice?.id ?? (typeof subscription.latest_invoice === 'string' ? subscription.latest_invoice : undefined),
      periodEnd: periodEndOf(subscription),
      customerId,
    };
    const secret = invoice?.confirmation_secret?.client_secret;
    if (subscription.status === 'active' || subscription.status === 'trialing') {
      // The PaymentIntent is what a refund, a dispute or a charge.refunded event names (a trial's first invoice has none).
      return { status: 'succeeded', ...refs, ...(secret ? { gatewayPaymentId: intentIdFromSecret(secret) } : {}) };
    }
    if (!secret) return { status: 'failed', reason: 'processing_error', ...refs };
    const intent = await call(() => stripe.paymentIntents.retrieve(intentIdFromSecret(secret)));
    const withIntent = { ...refs, gatewayPaymentId: intent.id };
    if (intent.status === 'succeeded') return { status: 'succeeded', ...withIntent };
    if (intent.status === 'requires_action') {
      return { status: 'requires_action', nextAction: { type: 'stripe_sdk', clientSecret: secret }, ...withIntent };
    }
    const error = intent.last_payment_error;
    return { status: 'failed', reason: reasonFor(error?.code, error?.decline_code), ...withIntent };
  }

  return {
    name: 'stripe',

    async subscribe(charge) {
      try {
        const [customer, product, coupon] = await Promise.all([customerFor(charge), productFor(charge), couponFor(charge)]);
        const metadata = { paymentId: charge.paymentId, userId: charge.user.id, artistId: charge.artist.id };
        // A destination charge: the artist's payout account gets the payment less the platform's application fee.
        const connect = charge.destination
          ? { transfer_data: { destination: charge.destination.accountId }, application_fee_percent: charge.destination.feePercent }
          : {};
        const trial = charge.trialDays > 0 ? { trial_period_days: charge.trialDays } : {};
        const priceData = {
          currency: charge.currency,
          product,
          unit_amount: charge.listPriceCents,
          recurring: { interval: 'year' as const },
        };
        if (!charge.cardId) {
          // No Elements (JavaScript off): Stripe Checkout takes the card and 3-D Secure on its own page.
          return openCheckout(charge, customer, {
            mode: 'subscription',
            line_items: [{ price_data: priceData, quantity: 1 }],
            ...(coupon ? { discounts: [{ coupon }] } : {}),
            subscription_data: { metadata, ...connect, ...trial },
            metadata,
          });
        }
        const cardId = charge.cardId;
        await call(() => stripe.paymentMethods.attach(cardId, { customer }, { idempotencyKey: `attach-${charge.idempotencyKey}` }));
        const subscription = await call(() =>
          stripe.subscriptions.create(
            {
              customer,
              items: [{ price_data: priceData }],
              default_payment_method: cardId,
              ...(coupon ? { discounts: [{ coupon }] } : {}),
              payment_behavior: 'allow_incomplete',
              metadata,
              ...connect,
              ...trial,
              expand: ['latest_invoice.confirmation_secret'],
            },
            { idempotencyKey: `subscribe-${charge.idempotencyKey}` },
          ),
        );
        return await outcomeOf(subscription, customer);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeCardError) {
          return { status: 'failed', reason: reasonFor(error.code, error.decline_code) };
        }
        throw error;
      }
    },

    async chargeOnce(charge) {
      try {
        const customer = await customerFor(charge);
        const metadata = { paymentId: charge.paymentId, userId: charge.user.id, artistId: charge.artist.id };
        const connect = charge.destination
          ? { transfer_data: { destination: charge.destination.accountId }, application_fee_amount: charge.destination.feeCents }
          : {};
        if (!charge.cardId) {
          return openCheckout(charge, customer, {
            mode: 'payment',
            line_items: [
              {
                price_data: { currency: charge.currency, product_data: { name: charge.description }, unit_amount: charge.amountCents },
                quantity: 1,
              },
            ],
            payment_intent_data: { metadata, description: charge.description, ...connect },
            metadata,
          });
        }
        const cardId = charge.cardId;
        const intent = await call(() =>
          stripe.paymentIntents.create(
            {
              amount: charge.amountCents,
              currency: charge.currency,
              customer,
              payment_method: cardId,
              confirm: true,
              return_url: charge.returnUrl,
              description: charge.description,
              metadata,
              ...connect,
            },
            { idempotencyKey: `charge-${charge.idempotencyKey}` },
          ),
        );
        return intentOutcome(intent, customer);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeCardError) return { status: 'failed', reason: reasonFor(error.code, error.decline_code) };
        throw error;
      }
    },

    async confirm(payment: StoredPayment) {
      if (payment.gatewayPaymentId?.startsWith('pi_') && !payment.gatewaySubscriptionId) {
        // A one-off charge (a gift) after its authentication.
        const intentId = payment.gatewayPaymentId;
        return intentOutcome(await call(() => stripe.paymentIntents.retrieve(intentId)));
      }
      if (payment.gatewayPaymentId?.startsWith('cs_')) {
        const sessionId = payment.gatewayPaymentId;
        const session = await call(() => stripe.checkout.sessions.retrieve(sessionId, { expand: ['subscription'] }));
        if (session.mode === 'payment') {
          // A one-off charge on Checkout: paid or not yet.
          const intent = typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
          if (session.status === 'complete' && session.payment_status === 'paid') return { status: 'succeeded', gatewayPaymentId: intent };
          if (session.status === 'expired') return { status: 'failed', reason: 'authentication_failed' };
          return { status: 'requires_action', nextAction: { type: 'redirect', url: session.url ?? '' } };
        }
        const subscription = typeof session.subscription === 'object' ? session.subscription : null;
        if (
          session.status === 'complete' &&
          subscription &&
          (session.payment_status === 'paid' || session.payment_status === 'no_payment_required')
        ) {
          return {
            status: 'succeeded',
            gatewaySubscriptionId: subscription.id,
            gatewayInvoiceId:
              typeof subscription.latest_invoice === 'string' ? subscription.latest_invoice : subscription.latest_invoice?.id,
            periodEnd: periodEndOf(subscription),
          };
        }
        if (session.status === 'expired') return { status: 'failed', reason: 'authentication_failed' };
        return { status: 'requires_action', nextAction: { type: 'redirect', url: session.url ?? '' } };
      }
      if (!payment.gatewaySubscriptionId) return { status: 'failed', reason: 'processing_error' };
      const subscriptionId = payment.gatewaySubscriptionId;
      const subscription = await call(() =>
        stripe.subscriptions.retrieve(subscriptionId, { expand: ['latest_invoice.confirmation_secret'] }),
      );
      const outcome = await outcomeOf(
        subscription,
        typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id,
      );
      // The fan came back from authenticating: still needing it means it did not succeed.
      if (outcome.status === 'failed' && outcome.reason === 'card_declined') return { ...outcome, reason: 'authentication_failed' };
      return outcome;
    },

    async setAutoRenew(gatewaySubscriptionId, autoRenew) {
      await call(() => stripe.subscriptions.update(gatewaySubscriptionId, { cancel_at_period_end: !autoRenew }));
    },

    async refund(request) {
      const intent = await paymentIntentOf(request.payment);
      const refund = await call(() =>
        stripe.refunds.create(
          {
            payment_intent: intent,
            amount: request.amountCents,
            reason: 'requested_by_customer',
            metadata: { paymentId: request.payment.id, reason: request.reason.slice(0, 500) },
            // A destination charge: take the artist's share back from their account and the fee from ours, in proportion.
            ...(request.payment.payoutAccountId ? { reverse_transfer: true, refund_application_fee: true } : {}),
          },
          { idempotencyKey: request.idempotencyKey },
        ),
      );
      return { refundId: refund.id };
    },

    async cancelNow(gatewaySubscriptionId) {
      await call(() => stripe.subscriptions.cancel(gatewaySubscriptionId)).catch((error) => {
        // Already cancelled at Stripe (a customer.subscription.deleted on its way): nothing left to do.
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
      });
    },

    async payoutOnboarding(request) {
      const accountId =
        request.accountId ??
        (
          await call(() =>
            stripe.accounts.create(
              {
                type: 'express',
                email: request.artist.email,
                business_profile: { name: request.artist.username },
                capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
                metadata: { artistId: request.artist.id },
              },
              { idempotencyKey: `account-${request.artist.id}` },
            ),
          )
        ).id;
      const link = await call(() =>
        stripe.accountLinks.create({
          account: accountId,
          type: 'account_onboarding',
          return_url: request.returnUrl,
          refresh_url: request.refreshUrl,
        }),
      );
      return { accountId, url: link.url };
    },

    async payoutAccountStatus(accountId) {
      const account = await call(() => stripe.accounts.retrieve(accountId));
      return account.details_submitted && account.payouts_enabled ? 'enabled' : 'pending';
    },

    async invoiceForPaymentIntent(intentId) {
      const listed = await call(() =>
        stripe.invoicePayments.list({ payment: { type: 'payment_intent', payment_intent: intentId }, limit: 1 }),
      );
      const invoice = listed.data[0]?.invoice;
      return typeof invoice === 'string' ? invoice : invoice?.id;
    },

    async abandon(payment) {
      // A subscription whose first payment failed stays "incomplete" at Stripe: cancel it so nothing is left behind.
      if (!payment.gatewaySubscriptionId) return;
      const id = payment.gatewaySubscriptionId;
      await call(() => stripe.subscriptions.cancel(id)).catch(() => undefined);
    },
  };
}
