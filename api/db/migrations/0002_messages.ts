/**
 * Conversations between one fan and one artist, their messages, and each member's read state.
 * The conversation row carries its last message and each member row its unread count, so the conversation
 * list and the unread total are read without counting messages.
 */
export const sql = `
CREATE TABLE conversations (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  fan_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  artist_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- The newest message, kept in step by every send and delete; NULL while the conversation has none.
  last_message_id text,
  last_message_text text,
  last_message_at timestamptz,
  CHECK (fan_id <> artist_id)
);
CREATE UNIQUE INDEX conversations_pair_key ON conversations (fan_id, artist_id);
CREATE INDEX conversations_artist_idx ON conversations (artist_id);

-- One row per member: the list query starts here, and unread_count is what the member has not seen
-- (messages from the other member created after last_read_at).
CREATE TABLE conversation_members (
  conversation_id text NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  unread_count integer NOT NULL DEFAULT 0 CHECK (unread_count >= 0),
  last_read_at timestamptz,
  PRIMARY KEY (conversation_id, user_id)
);
CREATE INDEX conversation_members_user_idx ON conversation_members (user_id);

-- Deleting a message removes the row: its text is gone, not hidden.
CREATE TABLE messages (
  id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
  conversation_id text NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  sender_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  text text NOT NULL,
  -- Made by the sending client, so a resend after a lost answer finds the first message instead of adding one.
  client_id text,
  -- clock_timestamp(), not now(): taken after the member rows are locked, so it orders against last_read_at.
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX messages_conversation_created_idx ON messages (conversation_id, created_at DESC, id DESC);
CREATE UNIQUE INDEX messages_sender_client_key ON messages (sender_id, client_id) WHERE client_id IS NOT NULL;
`;
