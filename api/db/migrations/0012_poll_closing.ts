/**
 * Polls can close: after `closes_at` the api refuses votes and every viewer sees the final results. NULL
 * is a poll that never closes, as every poll before this migration.
 */
export const sql = `
ALTER TABLE polls ADD COLUMN closes_at timestamptz;
`;
