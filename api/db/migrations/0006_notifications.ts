/**
 * Bringing fans back (docs/notifications.md): idempotency keys of background jobs (the jobs themselves live in pg-boss's own
 * schema, api/jobs/queue.ts), new-post notifications with each fan's per-artist choices, web push subscriptions,
 * and what the renewal mails and retries need to remember on a subscription.
 */
export const sql = `
-- A job sent with a key is sent once, ever: a second send with the same key is dropped (api/jobs/queue.ts).
CREATE TABLE job_keys (
  key text PRIMARY KEY,
  queue text NOT NULL,
  job_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- "The item became visible to fans" happened: set once, by the job that announces it (api/notifications/visible.ts).
ALTER TABLE content_items ADD COLUMN notified_at timestamptz;
-- What fans could already see before notifications existed is not announced now.
UPDATE content_items SET notified_at = publish_at WHERE state <> 'draft' AND publish_at <= now();

-- A fan's choices for one artist; no row means the defaults (a mail per item, push and in-app on).
CREATE TABLE notification_preferences (
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  artist_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  email text NOT NULL DEFAULT 'each' CHECK (email IN ('each', 'digest', 'none')),
  push boolean NOT NULL DEFAULT true,
  in_app boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, artist_id)
);

-- One row per fan and item: the in-app notification and the ledger of what was delivered, so a batch run again
-- after a crash skips whoever was already told. email: how this fan gets mail about it; emailed_at once sent.
CREATE TABLE notifications (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  artist_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  item_id text NOT NULL REFERENCES content_items (id) ON DELETE CASCADE,
  in_app boolean NOT NULL,
  email text NOT NULL CHECK (email IN ('each', 'digest', 'none')),
  push boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  read_at timestamptz,
  emailed_at timestamptz,
  pushed_at timestamptz,
  -- When a worker took this fan's deliveries on; another takes them over only once that worker's time is up.
  claimed_at timestamptz,
  UNIQUE (user_id, item_id)
);
CREATE INDEX notifications_user_idx ON notifications (user_id, created_at DESC, id DESC) WHERE in_app;
CREATE INDEX notifications_unread_idx ON notifications (user_id) WHERE in_app AND read_at IS NULL;
CREATE INDEX notifications_digest_idx ON notifications (created_at) WHERE email = 'digest' AND emailed_at IS NULL;
CREATE INDEX notifications_item_idx ON notifications (item_id);

-- A browser's push subscription (PushSubscription.toJSON()); an endpoint the push service answers 404/410 is deleted.
CREATE TABLE push_subscriptions (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  endpoint text NOT NULL UNIQUE,
  p256dh text NOT NULL,
  auth text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_subscriptions_user_idx ON push_subscriptions (user_id);

-- Renewal mail and retries: the period end a reminder was sent for; after a failed renewal, how many attempts
-- failed, when the next is due, and the end of the paid year (access lasts past it while retries go on).
ALTER TABLE subscriptions ADD COLUMN reminded_for timestamptz;
ALTER TABLE subscriptions ADD COLUMN renewal_failures integer NOT NULL DEFAULT 0;
ALTER TABLE subscriptions ADD COLUMN renewal_retry_at timestamptz;
ALTER TABLE subscriptions ADD COLUMN paid_until timestamptz;
CREATE INDEX subscriptions_renewal_retry_idx ON subscriptions (renewal_retry_at) WHERE renewal_retry_at IS NOT NULL;
`;
