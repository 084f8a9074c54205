/**
 * Payments: the gateway fields of subscriptions, every payment attempt (with its idempotency key), per-artist
 * promo codes, the test gateway's card tokens, and the Stripe events already applied (webhooks are idempotent).
 */
export const sql = `
-- Which gateway bills a subscription and its id there (Stripe's sub_…); the promo code used for its first year.
ALTER TABLE subscriptions ADD COLUMN gateway text NOT NULL DEFAULT 'free' CHECK (gateway IN ('free', 'test', 'stripe'));
ALTER TABLE subscriptions ADD COLUMN gateway_subscription_id text;
ALTER TABLE subscriptions ADD COLUMN currency text NOT NULL DEFAULT 'usd';
ALTER TABLE subscriptions ADD COLUMN card_id text;
-- The created time of the last Stripe event applied to this subscription: an older event arriving late is ignored.
ALTER TABLE subscriptions ADD COLUMN gateway_synced_at timestamptz;
CREATE UNIQUE INDEX subscriptions_gateway_key ON subscriptions (gateway_subscription_id) WHERE gateway_subscription_id IS NOT NULL;
CREATE INDEX subscriptions_renewal_idx ON subscriptions (expires_at) WHERE auto_renew AND status = 'active';

ALTER TABLE users ADD COLUMN stripe_customer_id text;
ALTER TABLE artist_profiles ADD COLUMN stripe_product_id text;

-- Per artist; exactly one of percent_off and amount_off_cents. Codes compare case-insensitively.
CREATE TABLE promo_codes (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  artist_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code text NOT NULL,
  percent_off integer CHECK (percent_off BETWEEN 1 AND 100),
  amount_off_cents integer CHECK (amount_off_cents > 0),
  expires_at timestamptz,
  max_redemptions integer CHECK (max_redemptions > 0),
  times_redeemed integer NOT NULL DEFAULT 0,
  stripe_coupon_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((percent_off IS NULL) <> (amount_off_cents IS NULL))
);
CREATE UNIQUE INDEX promo_codes_artist_code_key ON promo_codes (artist_id, lower(code));

-- One attempt to pay for a subscription. A replay with the same (user, idempotency key) answers the same payment.
CREATE TABLE payments (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  artist_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  subscription_id text REFERENCES subscriptions (id) ON DELETE SET NULL,
  idempotency_key text,
  gateway text NOT NULL CHECK (gateway IN ('test', 'stripe')),
  kind text NOT NULL DEFAULT 'subscribe' CHECK (kind IN ('subscribe', 'renewal')),
  status text NOT NULL CHECK (status IN ('processing', 'requires_action', 'succeeded', 'failed')),
  amount_cents integer NOT NULL CHECK (amount_cents >= 0),
  list_price_cents integer NOT NULL,
  currency text NOT NULL DEFAULT 'usd',
  promo_code_id text REFERENCES promo_codes (id) ON DELETE SET NULL,
  card_id text,
  -- Stripe: the subscription (sub_…), payment intent (pi_…), invoice (in_…) or checkout session (cs_…).
  gateway_subscription_id text,
  gateway_payment_id text,
  gateway_invoice_id text,
  -- For requires_action: what the client needs (a redirect URL or a client secret). The test gateway's secret for its approval page.
  next_action jsonb,
  action_secret text,
  -- The test gateway's approval page: the fan's answer, and where to send them back.
  action_result text CHECK (action_result IN ('approved', 'failed')),
  return_url text,
  failure_reason text,
  failure_message text,
  period_end timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX payments_idempotency_key ON payments (user_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
-- At most one payment in flight per fan and artist: a second concurrent attempt cannot charge again.
CREATE UNIQUE INDEX payments_in_flight_key ON payments (user_id, artist_id) WHERE status = 'processing';
CREATE UNIQUE INDEX payments_invoice_key ON payments (gateway_invoice_id) WHERE gateway_invoice_id IS NOT NULL;
CREATE INDEX payments_gateway_subscription_idx ON payments (gateway_subscription_id) WHERE gateway_subscription_id IS NOT NULL;
CREATE INDEX payments_user_idx ON payments (user_id, created_at DESC);

-- The test gateway's card tokens (tok_test_…): never the number, only what it decides and shows.
CREATE TABLE test_gateway_cards (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  brand text NOT NULL,
  last4 text NOT NULL,
  exp_month integer NOT NULL,
  exp_year integer NOT NULL,
  behaviour text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Stripe events already applied: a duplicate delivery is acknowledged and skipped.
CREATE TABLE stripe_events (
  id text PRIMARY KEY,
  type text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);
`;
