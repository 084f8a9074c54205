/**
 * Money after the first payment (docs/payments.md): the artist's currency and free trial, payouts through Stripe
 * Connect, refunds and disputes on payments, the platform's fee on each payment, promo codes an artist can pause,
 * and gift memberships.
 */
export const sql = `
-- The artist's currency (chosen before the first payment, then fixed), free trial length and payout account
-- (Stripe Connect Express acct_…, or the test gateway's acct_test_…).
ALTER TABLE artist_profiles ADD CONSTRAINT artist_profiles_currency_check CHECK (currency IN ('usd', 'eur', 'gbp'));
ALTER TABLE artist_profiles ADD COLUMN trial_days integer NOT NULL DEFAULT 0 CHECK (trial_days BETWEEN 0 AND 90);
ALTER TABLE artist_profiles ADD COLUMN payout_account_id text;
ALTER TABLE artist_profiles ADD COLUMN payout_status text NOT NULL DEFAULT 'none'
  CHECK (payout_status IN ('none', 'pending', 'enabled'));

-- A membership ended by a full refund (or a lost dispute) is 'refunded'; one whose payment is disputed is
-- 'disputed' until the dispute closes. Access needs status 'active', so both end it. A gift is its own type.
ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_status_check;
ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_status_check
  CHECK (status IN ('pending', 'active', 'canceled', 'expired', 'refunded', 'disputed'));
ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_type_check;
ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_type_check CHECK (type IN ('free', 'yearly', 'gift'));
-- While set, the membership is a free trial: access until then, and the first year is charged then.
ALTER TABLE subscriptions ADD COLUMN trial_ends_at timestamptz;
ALTER TABLE subscriptions ADD COLUMN trial_reminded_at timestamptz;
CREATE INDEX subscriptions_trial_idx ON subscriptions (trial_ends_at) WHERE trial_ends_at IS NOT NULL;

-- A trial's start (nothing charged: the card kept for the end) and a gift bought for someone are payments too.
ALTER TABLE payments DROP CONSTRAINT payments_kind_check;
ALTER TABLE payments ADD CONSTRAINT payments_kind_check CHECK (kind IN ('subscribe', 'renewal', 'trial', 'gift'));
-- What has been given back (refunds, a lost dispute): a receipt shows "refunded" from here.
ALTER TABLE payments ADD COLUMN refunded_cents integer NOT NULL DEFAULT 0 CHECK (refunded_cents >= 0);
ALTER TABLE payments ADD COLUMN refunded_at timestamptz;
ALTER TABLE payments ADD COLUMN dispute_status text CHECK (dispute_status IN ('open', 'won', 'lost'));
-- The platform's fee (PLATFORM_FEE_PERCENT of the amount, Stripe's application fee), and the payout account the
-- rest went to (a destination charge); null: held by the platform until the artist connects one.
ALTER TABLE payments ADD COLUMN fee_cents integer NOT NULL DEFAULT 0 CHECK (fee_cents >= 0);
ALTER TABLE payments ADD COLUMN payout_account_id text;
CREATE INDEX payments_artist_idx ON payments (artist_id, created_at DESC);
CREATE INDEX payments_gateway_payment_idx ON payments (gateway_payment_id) WHERE gateway_payment_id IS NOT NULL;

-- Every refund of a payment: by the artist, the operator, in Stripe's dashboard, or a lost dispute. One of ours is
-- 'pending' (its amount already counted in payments.refunded_cents) while the gateway is asked, so a webhook about
-- it that arrives first finds it counted; request_key makes a form sent twice one refund.
CREATE TABLE refunds (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  payment_id text NOT NULL REFERENCES payments (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'succeeded' CHECK (status IN ('pending', 'succeeded')),
  request_key text,
  amount_cents integer NOT NULL CHECK (amount_cents > 0),
  fee_refunded_cents integer NOT NULL DEFAULT 0 CHECK (fee_refunded_cents >= 0),
  reason text NOT NULL DEFAULT '',
  ends_access boolean NOT NULL,
  source text NOT NULL CHECK (source IN ('artist', 'operator', 'stripe', 'dispute')),
  gateway_refund_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX refunds_gateway_key ON refunds (gateway_refund_id) WHERE gateway_refund_id IS NOT NULL;
CREATE UNIQUE INDEX refunds_request_key ON refunds (payment_id, request_key) WHERE request_key IS NOT NULL;
CREATE INDEX refunds_payment_idx ON refunds (payment_id);

-- An artist pauses a code (and starts it again); expiring one sets expires_at to now.
ALTER TABLE promo_codes ADD COLUMN paused boolean NOT NULL DEFAULT false;

-- A year of an artist's fan club bought for someone by email address. The mail's link holds a token; only its
-- hash is kept. Redeemed once, by whoever holds the link (with an account made on the spot or not); never renews.
CREATE TABLE gifts (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  artist_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  buyer_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  payment_id text NOT NULL UNIQUE REFERENCES payments (id) ON DELETE CASCADE,
  recipient_email text NOT NULL,
  message text NOT NULL DEFAULT '',
  token_hash text NOT NULL UNIQUE,
  -- The link's token itself, only until the gift's mail is queued (the job holds it then, as a password reset's does).
  link_token text,
  redeemed_by text REFERENCES users (id) ON DELETE SET NULL,
  redeemed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX gifts_artist_idx ON gifts (artist_id, created_at DESC);
`;
