/** Accounts, sessions, password resets, artist profiles and the subscriptions that gate them. */
export const sql = `
CREATE TABLE users (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  username text NOT NULL,
  email text NOT NULL,
  name text NOT NULL DEFAULT '',
  avatar text NOT NULL DEFAULT '',
  password_hash text NOT NULL,
  is_performer boolean NOT NULL DEFAULT false,
  -- 'active' or 'forbidden': a forbidden account answers 403 on /users/me (spec §7).
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'forbidden')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_username_key ON users (lower(username));
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

-- Only a SHA-256 of each token is stored, so a leaked table reveals no usable session.
CREATE TABLE sessions (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);

CREATE TABLE password_resets (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX password_resets_user_id_idx ON password_resets (user_id);

-- The artist's public profile and offer (spec §3 "Artist"). Prices are integer cents; the API speaks major units.
CREATE TABLE artist_profiles (
  user_id text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  bio text NOT NULL DEFAULT '',
  cover text NOT NULL DEFAULT '',
  welcome_video_path text NOT NULL DEFAULT '',
  activate_welcome_video boolean NOT NULL DEFAULT false,
  yearly_price_cents integer NOT NULL DEFAULT 0 CHECK (yearly_price_cents >= 0),
  currency text NOT NULL DEFAULT 'usd',
  headline_image text NOT NULL DEFAULT '',
  hero_image text NOT NULL DEFAULT '',
  hero_image_alt_text text NOT NULL DEFAULT '',
  headline_image_alt_text text NOT NULL DEFAULT '',
  vault_page_introduction text NOT NULL DEFAULT '',
  posts_page_introduction text NOT NULL DEFAULT '',
  privacy_policy text NOT NULL DEFAULT '',
  headline_offer_description text NOT NULL DEFAULT '',
  subscription_perks jsonb NOT NULL DEFAULT '[]'::jsonb,
  success_page_title text NOT NULL DEFAULT '',
  secondary_success_message text NOT NULL DEFAULT '',
  additional_success_message text NOT NULL DEFAULT '',
  success_images jsonb NOT NULL DEFAULT '[]'::jsonb,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- A fan's yearly subscription to an artist. Access lasts while status is active and expires_at is ahead.
CREATE TABLE subscriptions (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  artist_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('pending', 'active', 'canceled', 'expired')),
  type text NOT NULL DEFAULT 'free' CHECK (type IN ('free', 'yearly')),
  price_paid_cents integer NOT NULL DEFAULT 0,
  auto_renew boolean NOT NULL DEFAULT true,
  started_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX subscriptions_user_artist_key ON subscriptions (user_id, artist_id);
CREATE INDEX subscriptions_artist_idx ON subscriptions (artist_id, status, expires_at);
`;
