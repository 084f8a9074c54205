/**
 * Account settings (docs/pages-content.md "Account settings"): an email change waits for its link to be opened at the
 * new address, and a deleted account keeps its row, anonymised, for the artists' records
 * (docs/decisions/015-account-deletion.md).
 */
export const sql = `
-- Only a SHA-256 of each link's token is stored; a newer request for the same user replaces the older ones.
CREATE TABLE email_changes (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  new_email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX email_changes_user_id_idx ON email_changes (user_id);

-- 'deleted': the account was deleted by its user; its personal data is gone and it can never sign in again.
ALTER TABLE users DROP CONSTRAINT users_status_check;
ALTER TABLE users ADD CONSTRAINT users_status_check CHECK (status IN ('active', 'forbidden', 'deleted'));
ALTER TABLE users ADD COLUMN deleted_at timestamptz;
`;
