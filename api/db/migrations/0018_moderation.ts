/**
 * Moderation: an artist hides comments, blocks fans and mutes words; fans report comments and messages; operators
 * suspend accounts; every action is written to an audit log. Comments gain two states beside deletion: hidden by the
 * artist, and held for the artist's review (a muted word). A held message is kept apart until the artist approves it,
 * so that nothing about a conversation (its last message, its unread counts) has to know about held ones.
 */
export const sql = `
ALTER TABLE comments ADD COLUMN hidden_at timestamptz;
ALTER TABLE comments ADD COLUMN held_at timestamptz;

-- Who may run the operator pages, and an account's suspension (status 'forbidden') with when and why.
ALTER TABLE users ADD COLUMN is_operator boolean NOT NULL DEFAULT false;
ALTER TABLE users ADD COLUMN suspended_at timestamptz;
ALTER TABLE users ADD COLUMN suspended_reason text;

-- A fan the artist has blocked: no messages, comments or reports in the artist's club.
CREATE TABLE blocks (
  artist_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  fan_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (artist_id, fan_id)
);
CREATE INDEX blocks_fan_idx ON blocks (fan_id);

-- A fan's report of a comment or a message in an artist's club. One report per reporter and thing reported.
CREATE TABLE reports (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  reporter_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  artist_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  reported_user_id text REFERENCES users (id) ON DELETE SET NULL,
  kind text NOT NULL CHECK (kind IN ('comment', 'message')),
  target_id text NOT NULL,
  -- What was said, as it was when reported: the thing itself may be deleted afterwards.
  excerpt text NOT NULL,
  reason text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX reports_reporter_target_key ON reports (reporter_id, kind, target_id);
CREATE INDEX reports_artist_idx ON reports (artist_id, created_at DESC, id DESC);
CREATE INDEX reports_created_idx ON reports (created_at DESC, id DESC);

-- Words an artist mutes: a comment or message holding one waits for the artist's review.
CREATE TABLE mute_words (
  artist_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  word text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (artist_id, word)
);

-- A fan's message to an artist that holds a muted word, until the artist approves (it is sent) or deletes it.
CREATE TABLE held_messages (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  conversation_id text NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  sender_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  text text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX held_messages_conversation_idx ON held_messages (conversation_id, created_at);

-- Every moderation action: who did it (an account, or the operator CLI when actor_id is NULL), what, when, in which
-- club (NULL for an operator's action on an account).
CREATE TABLE moderation_actions (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  artist_id text REFERENCES users (id) ON DELETE CASCADE,
  actor_id text REFERENCES users (id) ON DELETE SET NULL,
  actor_label text NOT NULL,
  action text NOT NULL,
  subject_user_id text REFERENCES users (id) ON DELETE SET NULL,
  subject_label text NOT NULL DEFAULT '',
  detail text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX moderation_actions_artist_idx ON moderation_actions (artist_id, created_at DESC, id DESC);
CREATE INDEX moderation_actions_created_idx ON moderation_actions (created_at DESC, id DESC);
`;
