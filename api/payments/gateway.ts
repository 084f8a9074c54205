import type { NextAction } from '#contract/payments';

/**
 * The payment-gateway interface. Two implementations: the test gateway (./test-gateway.ts, the default without
 * Stripe keys) and Stripe (./stripe-gateway.ts). Both drive the same state machine (./service.ts):
 *
 *   processing ──▶ succeeded
 *        │    └──▶ failed (reason)
 *        └──▶ requires_action ──(fan authenticates, client calls confirm)──▶ succeeded | failed
 */

export type GatewayName = 'test' | 'stripe';

/** Why a payment failed, as a code the client can switch on; FAILURE_MESSAGES says it to the fan. */
export type FailureReason =
  | 'card_declined'
  | 'expired_card'
  | 'insufficient_funds'
  | 'incorrect_cvc'
  | 'processing_error'
  | 'authentication_failed'
  | 'gateway_unreachable'
  /** Another payment for the same membership succeeded first: this one was called off. */
  | 'superseded'
  /** It waited for the fan's authentication too long, or the fan started another: called off. */
  | 'expired';

export const FAILURE_MESSAGES: Record<FailureReason, string> = {
  card_declined: 'Your card was declined. Please use a different card, or contact your bank.',
  expired_card: 'Your card has expired. Please use a different card.',
  insufficient_funds: 'Your card has insufficient funds. Please use a different card.',
  incorrect_cvc: 'Your card’s security code is incorrect. Please check it and try again.',
  processing_error: 'Something went wrong while processing your card. You have not been charged; please try again.',
  authentication_failed:
    'Your bank could not confirm this payment, so you have not been charged. Please try again or use a different card.',
  gateway_unreachable: 'We could not reach our payment provider, so you have not been charged. Please try again in a moment.',
  superseded: 'You have already paid for this membership with another payment, so this one was called off and not charged.',
  expired: 'This payment was not confirmed in time, or you started another one, so it was called off and you have not been charged.',
};

/** What the gateway knows about the payment: ids to find it again, and the end of the period it paid for. */
export interface GatewayRefs {
  gatewaySubscriptionId?: string;
  gatewayPaymentId?: string;
  gatewayInvoiceId?: string;
  periodEnd?: Date;
  /** The gateway's customer id for the fan, to reuse next time. */
  customerId?: string;
}

export type GatewayOutcome =
  | ({ status: 'succeeded' } & GatewayRefs)
  | ({ status: 'requires_action'; nextAction: NextAction; actionSecret?: string } & GatewayRefs)
  | ({ status: 'failed'; reason: FailureReason; message?: string } & GatewayRefs);

export interface SubscribeCharge {
  paymentId: string;
  /** Sent to the gateway so a retried call never makes a second charge there either. */
  idempotencyKey: string;
  user: { id: string; email: string; username: string; stripeCustomerId: string | null };
  artist: { id: string; username: string; name: string; stripeProductId: string | null };
  /** Free trial days before the first year is charged (the card is taken now and charged then). */
  trialDays: number;
  /** Stripe Connect: the artist's payout account (a destination charge with the platform's fee), or none. */
  destination: { accountId: string; feePercent: number } | null;
  /** The card source: a test-gateway token, or a Stripe PaymentMethod (pm_…). Absent: Stripe Checkout. */
  cardId?: string;
  /** The first year's amount, after the promo code. */
  amountCents: number;
  /** The artist's yearly price: what each renewal costs. */
  listPriceCents: number;
  currency: string;
  promo: { id: string; code: string; percentOff: number | null; amountOffCents: number | null; stripeCouponId: string | null } | null;
  /** Where the fan comes back after authenticating or after Stripe Checkout (the web's confirm page). */
  returnUrl: string;
  /** Where Stripe Checkout sends a fan who gives up. */
  cancelUrl: string;
}

/** A payment as stored, as much as the gateways need to confirm it or renew it. */
export interface StoredPayment {
  id: string;
  gatewaySubscriptionId: string | null;
  gatewayPaymentId: string | null;
  actionResult: string | null;
  actionSecret: string | null;
  cardId: string | null;
}

export interface PaymentGateway {
  readonly name: GatewayName;
  /** Charges the first year and sets up the yearly renewal. */
  subscribe(charge: SubscribeCharge): Promise<GatewayOutcome>;
  /** After the fan authenticated (or came back from Checkout): where the payment stands now. */
  confirm(payment: StoredPayment): Promise<GatewayOutcome>;
  /** Turns the yearly renewal off (cancel at period end) or on again. */
  setAutoRenew(gatewaySubscriptionId: string, autoRenew: boolean): Promise<void>;
  /** Gives up a payment that will not complete (a declined first payment): nothing stays half-created. */
  abandon?(payment: StoredPayment): Promise<void>;
  /** A one-off charge (a gift): the card, or without one (Stripe, no JavaScript) a Checkout page. */
  chargeOnce(charge: OneOffCharge): Promise<GatewayOutcome>;
  /** Gives money back; the same idempotency key gives back once. */
  refund(request: RefundCharge): Promise<{ refundId: string }>;
  /** Ends a subscription at once (a full refund that ends access): it will not renew. */
  cancelNow(gatewaySubscriptionId: string): Promise<void>;
  /** Stripe Connect: a payout account for the artist, and the link that onboards them onto it. */
  payoutOnboarding(request: PayoutOnboarding): Promise<{ accountId: string; url: string }>;
  /** Stripe: the invoice a PaymentIntent paid (a charge or dispute event names only the PaymentIntent). */
  invoiceForPaymentIntent?(intentId: string): Promise<string | undefined>;
  /** Whether the payout account can take payouts now. */
  payoutAccountStatus(accountId: string): Promise<'pending' | 'enabled'>;
}

export interface OneOffCharge {
  paymentId: string;
  idempotencyKey: string;
  user: SubscribeCharge['user'];
  artist: SubscribeCharge['artist'];
  cardId?: string;
  amountCents: number;
  currency: string;
  /** What the fan's bank statement and Checkout show. */
  description: string;
  /** Stripe Connect: the artist's payout account and the platform's fee in cents, or none. */
  destination: { accountId: string; feeCents: number } | null;
  returnUrl: string;
  cancelUrl: string;
}

export interface RefundCharge {
  payment: StoredPayment & { gatewayInvoiceId: string | null; payoutAccountId: string | null };
  amountCents: number;
  idempotencyKey: string;
  reason: string;
}

export interface PayoutOnboarding {
  artist: { id: string; email: string; username: string };
  /** The account made before, if any: onboarding continues on it. */
  accountId: string | null;
  /** Where the artist comes back to when onboarding is done, and where a stale link sends them. */
  returnUrl: string;
  refreshUrl: string;
}

/** A gateway call that could not be made (network, gateway down): the payment fails as gateway_unreachable. */
export class GatewayUnreachableError extends Error {}
