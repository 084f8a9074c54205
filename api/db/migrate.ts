import { MIGRATION_TIMEOUT_MS, type Db } from './client.js';
import { migrations } from './migrations/index.js';

/** Any fixed number: the advisory lock keeps several api nodes from migrating at once. */
export const MIGRATION_LOCK = 727_274;

/**
 * Applies every migration not yet recorded, in order, in one transaction under the lock. Returns the ids applied.
 * `only` stops at an earlier schema: a restore loads a backup's rows into the schema they were taken from, then
 * migrates the rest.
 */
export async function migrate(db: Db, { only }: { only?: ReadonlySet<string> } = {}): Promise<string[]> {
  const applied: string[] = [];
  await db.transaction(
    async (tx) => {
      // The lock comes first, before even the bookkeeping table: two nodes creating it at once on an empty database
      // would both find it missing, and the second CREATE fails on PostgreSQL's catalog.
      if (db.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      id text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
      const done = new Set((await tx.query<{ id: string }>('SELECT id FROM schema_migrations')).map((r) => r.id));
      for (const migration of migrations) {
        if (done.has(migration.id) || (only && !only.has(migration.id))) continue;
        for (const statement of splitStatements(migration.sql)) await tx.query(statement);
        await tx.query('INSERT INTO schema_migrations (id) VALUES ($1)', [migration.id]);
        applied.push(migration.id);
      }
    },
    // A long migration (an index on a big table), or the wait for another node's, may take minutes.
    { timeoutMs: MIGRATION_TIMEOUT_MS },
  );
  return applied;
}

/** Migrations are plain SQL separated by semicolons at line ends; no statement uses a semicolon inside. */
function splitStatements(sql: string) {
  return sql
    .split(/;\s*$/m)
    .map((s) => s.trim())
    .filter((s) => s.length > 0 && !/^(--[^\n]*\n?)*$/.test(s));
}
