import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { Config } from '#contract/config';
import type { Db, Queryable } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { migrations } from '../db/migrations/index.js';
import { createJobQueue } from '../jobs/queue.js';
import type { MediaStorage } from '../storage/storage.js';
import { readLines, type BackupHeader, type Line, type TableEntry } from './archive.js';
import { DATA_FILES, OWN_TABLES, ownTables, quoteIdent, storedColumns } from './backup.js';

/**
 * Restoring a backup into an empty database and media storage (docs/operations.md, "Backups"). The tables are made
 * again by the migrations the backup was taken at, its rows loaded in one transaction (foreign keys dropped while
 * they load and checked again when added back), the job queue's pending jobs put back, and then the migrations
 * this build has beyond the backup's run, as on any upgrade. Media and DATA_DIR's files follow.
 */

/** Why a restore will not go ahead, in words for the operator. */
export class RestoreRefusedError extends Error {}

export interface RestoreTarget {
  db: Db;
  storage: MediaStorage;
  dataDir: string;
  jobs: Config['jobs'];
}

/** Tables that record running processes, not data: a server that has started on an empty database has rows there. */
const PROCESS_TABLES = new Set(['schema_migrations', 'job_nodes', 'job_runs']);

/** Rows loaded per statement. */
const LOAD_ROWS = 500;

/** What the target holds already: rows in the api's tables and media files. */
export async function targetContents(target: RestoreTarget) {
  let rows = 0;
  const tables: string[] = [];
  for (const name of await ownTables(target.db)) {
    if (PROCESS_TABLES.has(name)) continue;
    const [row] = await target.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${quoteIdent(name)}`);
    if (row.n > 0) {
      rows += row.n;
      tables.push(name);
    }
  }
  let media = 0;
  for await (const file of target.storage.list()) if (file) media++;
  return { rows, tables, media };
}

/** Refuses a backup whose schema has migrations this build does not know: it was made by a newer release. */
export function checkSchema(header: BackupHeader) {
  const known = new Set(migrations.map((m) => m.id));
  const unknown = header.migrations.filter((id) => !known.has(id));
  if (unknown.length) {
    throw new RestoreRefusedError(
      `the backup was made by a newer Stagedoor (its schema has ${unknown.join(', ')}, which this release does not know); ` +
        'restore it with that release or a later one',
    );
  }
}

export interface RestoreSummary {
  tables: number;
  rows: number;
  files: number;
  /** Migrations run after the rows were loaded (the backup's schema was older than this build's). */
  migrated: string[];
}

/**
 * Restores a verified backup file. The target must be empty (targetContents) unless force, which removes what is
 * there first.
 */
export async function restoreBackup(
  target: RestoreTarget,
  file: string,
  header: BackupHeader,
  { force = false } = {},
): Promise<RestoreSummary> {
  checkSchema(header);
  const { db, storage } = target;
  const contents = await targetContents(target);
  if ((contents.rows || contents.media) && !force) {
    throw new RestoreRefusedError(
      `the target is not empty (${contents.rows} rows in ${contents.tables.length} tables, ${contents.media} media files); ` +
        'restore into an empty database and data directory, or add --force to replace everything in it',
    );
  }

  // The job queue's schema is dropped whole below: never when it is the api's own (or someone else's) too.
  const [current] = await db.query<{ schema: string }>('SELECT current_schema() AS schema');
  if (current?.schema === target.jobs.schema) {
    throw new RestoreRefusedError(
      `JOBS_SCHEMA (${target.jobs.schema}) is the database's own schema; give the job queue a schema of its own`,
    );
  }
  // Everything goes, so the backup's schema can be made as it was, whatever state the target's schema is in.
  const existing = await ownTables(db);
  if (existing.length) await db.exec(`DROP TABLE IF EXISTS ${existing.map(quoteIdent).join(', ')} CASCADE`);
  await db.exec(`DROP SCHEMA IF EXISTS ${quoteIdent(target.jobs.schema)} CASCADE`);
  const stale: string[] = [];
  for await (const stored of storage.list()) stale.push(stored.key);
  for (const key of stale) await storage.remove(key);

  await migrate(db, { only: new Set(header.migrations) });
  // The job queue's schema, made by the job queue itself, for the pending jobs to go back into.
  const queue = createJobQueue({ db, ...target.jobs, concurrency: 0, onError: () => {} });
  await queue.start();
  await queue.stop();

  const lines = readLines(file)[Symbol.asyncIterator]();
  let held: Line | undefined;
  const next = async () => {
    if (held) {
      const line = held;
      held = undefined;
      return line;
    }
    const result = await lines.next();
    return result.done ? undefined : result.value;
  };

  let tables = 0;
  let rows = 0;
  try {
    await db.transaction(async (tx) => {
      const keys = await tx.query<{ table: string; name: string; def: string }>(
        `SELECT conrelid::regclass::text AS table, conname AS name, pg_get_constraintdef(oid) AS def
           FROM pg_constraint WHERE contype = 'f' AND connamespace = current_schema()::regnamespace`,
      );
      for (const key of keys) await tx.query(`ALTER TABLE ${key.table} DROP CONSTRAINT ${quoteIdent(key.name)}`);
      let table: { entry: TableEntry; qualified: string; columns: string } | undefined;
      let batch: Record<string, unknown>[] = [];
      const flush = async () => {
        if (!table || !batch.length) return;
        const loaded = batch;
        batch = [];
        rows += loaded.length;
        if (table.entry.scope === 'jobs' && table.entry.name === 'queue') {
          for (const row of loaded) await createQueue(tx, target.jobs.schema, row);
          return;
        }
        await tx.query(
          `INSERT INTO ${table.qualified} (${table.columns}) SELECT ${table.columns} FROM json_populate_recordset(NULL::${table.qualified}, $1::json)`,
          [JSON.stringify(loaded)],
        );
      };
      for (let line = await next(); line; line = await next()) {
        if ('header' in line) continue;
        if ('r' in line) {
          batch.push(line.r);
          if (batch.length >= LOAD_ROWS) await flush();
          continue;
        }
        await flush();
        if (!('table' in line)) {
          held = line;
          break;
        }
        const entry = line.table;
        const qualified = entry.scope === 'jobs' ? `${quoteIdent(target.jobs.schema)}.${quoteIdent(entry.name)}` : quoteIdent(entry.name);
        if (entry.scope === 'app' && !OWN_TABLES.has(entry.name))
          throw new RestoreRefusedError(`the backup has a table this release does not make: ${entry.name}`);
        // Only the columns the table has now: a job queue upgraded since the backup may have dropped one.
        const present = new Set(await storedColumns(tx, qualified));
        const columns = entry.columns.filter((column) => present.has(column));
        table = { entry, qualified, columns: columns.map(quoteIdent).join(', ') };
        tables++;
      }
      await flush();
      for (const key of keys) await tx.query(`ALTER TABLE ${key.table} ADD CONSTRAINT ${quoteIdent(key.name)} ${key.def}`);
    });

    const migrated = await migrate(db);

    let files = 0;
    let writing: { pass: PassThrough; done: Promise<unknown> } | undefined;
    for (let line = await next(); line; line = await next()) {
      if ('file' in line) {
        const pass = new PassThrough();
        const { kind, key } = line.file;
        if (kind === 'data') {
          if (!DATA_FILES.includes(key)) throw new RestoreRefusedError(`the backup has a data file this release does not use: ${key}`);
          fs.mkdirSync(target.dataDir, { recursive: true });
          const out = fs.createWriteStream(path.join(target.dataDir, key), { mode: 0o600 });
          writing = {
            pass,
            done: new Promise<void>((resolve, reject) =>
              pass
                .pipe(out)
                .on('finish', () => resolve())
                .on('error', reject),
            ),
          };
        } else {
          writing = { pass, done: storage.write(key, pass) };
        }
        // Not awaited yet: a write that fails early must not be left unhandled while its bytes are still coming.
        writing.done.catch(() => {});
      } else if ('d' in line && writing) {
        const { pass, done } = writing;
        // A write that has failed takes no more bytes: its error, not the drain, ends the wait.
        if (!pass.write(Buffer.from(line.d, 'base64'))) await Promise.race([new Promise((resolve) => pass.once('drain', resolve)), done]);
      } else if ('end' in line && writing) {
        writing.pass.end();
        await writing.done;
        writing = undefined;
        files++;
      }
    }
    return { tables, rows, files, migrated };
  } finally {
    await lines.return?.(undefined);
  }
}

/** A queue of the job queue is made by its own function, which also makes the table its jobs live in. */
async function createQueue(tx: Queryable, schema: string, row: Record<string, unknown>) {
  const options = {
    policy: row.policy,
    retryLimit: row.retry_limit,
    retryDelay: row.retry_delay,
    retryBackoff: row.retry_backoff,
    expireInSeconds: row.expire_seconds,
    retentionMinutes: row.retention_minutes,
    deadLetter: row.dead_letter,
  };
  await tx.query(`SELECT ${quoteIdent(schema)}.create_queue($1, $2::json)`, [row.name, JSON.stringify(options)]);
}
