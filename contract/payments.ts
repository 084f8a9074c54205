/** Payments as web and api agree on them (docs/payments.md): the subscribe call's body and the answers. */

/** What the client needs to finish a payment that requires the fan's authentication (3-D Secure). */
export type NextAction =
  /** Send the browser here (the test gateway's approval page, Stripe Checkout); it comes back to the return URL. */
  | { type: 'redirect'; url: string }
  /** Stripe.js finishes it in the page: stripe.handleNextAction({ clientSecret }), then the client calls confirm. */
  | { type: 'stripe_sdk'; clientSecret: string };

export interface SubscriptionDetail {
  _id: string;
  performerId: string;
  type: 'free' | 'yearly' | 'gift';
  status: string;
  active: boolean;
  autoRenew: boolean;
  startedAt: string;
  expiresAt: string;
  pricePaid: number;
  currency: string;
  paymentGateway: string;
  /** In a free trial: when it ends and the first year is charged (null otherwise). */
  trialEndsAt: string | null;
}

/** A payment as the api answers it: the three outcomes of docs/payments.md. */
export interface Payment {
  _id: string | null;
  /** What it paid for: a first year, a renewal, a trial's start (nothing charged) or a gift. */
  kind: 'subscribe' | 'renewal' | 'trial' | 'gift';
  status: 'processing' | 'requires_action' | 'succeeded' | 'failed';
  performerId: string;
  paymentGateway: string;
  amount: number;
  listPrice: number;
  currency: string;
  promo: string | null;
  nextAction: NextAction | null;
  failure: { reason: string; message: string } | null;
  subscription: SubscriptionDetail | null;
  createdAt: string;
}

export interface PromoCheck {
  code: string;
  percentOff: number | null;
  amountOff: number | null;
  price: number;
  discountedPrice: number;
  currency: string;
}

export interface SubscribeRequest {
  type: 'yearly' | 'free';
  performerId: string;
  paymentGateway?: string;
  cardId?: string;
  promo?: string;
}

/** One payment as the fan's receipt history shows it (GET /subscriptions/me). */
export interface Receipt {
  _id: string;
  kind: 'subscribe' | 'renewal' | 'trial' | 'gift';
  amount: number;
  /** What has been given back of it (0: nothing). */
  refunded: number;
  currency: string;
  promo: string | null;
  createdAt: string;
}

/**
 * A fan's membership of one club, with the club and its receipts, newest first (GET /subscriptions/me): the list in
 * the account menu's "Memberships" page.
 */
export interface Membership {
  subscription: SubscriptionDetail;
  artist: { _id: string; username: string; name: string; avatar: string; yearlyPrice: number; currency: string };
  receipts: Receipt[];
}
