import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { Db, Queryable } from '../db/client.js';
import { migrations } from '../db/migrations/index.js';
import type { MediaStorage } from '../storage/storage.js';
import { BACKUP_FORMAT, BACKUP_VERSION, type BackupHeader, type FileEntry, type Manifest, type TableEntry } from './archive.js';

/**
 * Taking a backup (docs/operations.md, "Backups"). The database's rows are read in one read-only REPEATABLE READ
 * transaction, so they are one consistent moment however many writes run meanwhile, and spooled to a temporary
 * file: the snapshot lasts as long as reading the rows takes, not as long as sending media to a slow reader (on the
 * embedded database every other query waits while it lasts). The media are read after it.
 */

/** The files of DATA_DIR that belong in a backup: the push keys generated on first start (VAPID_* unset). */
export const DATA_FILES = ['vapid.json'];

/** Rows fetched at a time from a table's cursor. */
const FETCH_ROWS = 500;

/** The job queue's tables worth keeping: its queues, and the jobs still to do or failed (not the finished ones). */
const JOB_TABLES: { name: string; where?: string }[] = [
  { name: 'queue' },
  { name: 'job', where: "state::text IN ('created', 'retry', 'active', 'failed')" },
];

export interface Snapshot {
  header: BackupHeader;
  tables: Manifest['tables'];
  /** The rows as backup lines, uncompressed. */
  spool: string;
}

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The columns a row is restored by: generated ones are left out (the database computes them again). */
export async function storedColumns(q: Queryable, table: string) {
  const rows = await q.query<{ name: string }>(
    `SELECT attname AS name FROM pg_attribute
      WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
      ORDER BY attnum`,
    [table],
  );
  return rows.map((row) => row.name);
}

/**
 * The tables the migrations make, in the schema on the search path: the only ones a backup takes and a restore
 * counts, drops and loads (a table someone else keeps in the same schema is theirs).
 */
export const OWN_TABLES = new Set([
  'schema_migrations',
  ...migrations.flatMap((m) => [...m.sql.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?([a-z_]+)/g)].map((match) => match[1])),
]);

export async function ownTables(q: Queryable) {
  const rows = await q.query<{ name: string }>(
    `SELECT relname AS name FROM pg_class
      WHERE relnamespace = current_schema()::regnamespace AND relkind IN ('r', 'p') ORDER BY relname`,
  );
  return rows.map((row) => row.name).filter((name) => OWN_TABLES.has(name));
}

/** Reads every row of the database in one snapshot into a spool file under tmpDir. */
export async function snapshotDatabase(db: Db, jobsSchema: string, tmpDir = os.tmpdir()): Promise<Snapshot> {
  const spool = path.join(tmpDir, `stagedoor-backup-${randomUUID()}.jsonl`);
  const out = fs.createWriteStream(spool, { flags: 'wx', mode: 0o600 });
  const write = async (text: string) => {
    if (!out.write(text)) await new Promise<void>((resolve, reject) => out.once('drain', resolve).once('error', reject));
  };
  try {
    const snapshot = await db.transaction(async (tx) => {
      await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      const migrations = (await tx.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id')).map((row) => row.id);
      const tables: Manifest['tables'] = [];
      const dump = async (entry: TableEntry, qualified: string, where?: string) => {
        await write(`${JSON.stringify({ table: entry })}\n`);
        const select = entry.columns.map(quoteIdent).join(', ');
        await tx.query(
          `DECLARE backup_rows NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS j FROM (SELECT ${select} FROM ${qualified}${where ? ` WHERE ${where}` : ''}) t`,
        );
        let rows = 0;
        for (;;) {
          const batch = await tx.query<{ j: string }>(`FETCH ${FETCH_ROWS} FROM backup_rows`);
          for (const row of batch) await write(`{"r":${row.j}}\n`);
          rows += batch.length;
          if (batch.length < FETCH_ROWS) break;
        }
        await tx.query('CLOSE backup_rows');
        tables.push({ scope: entry.scope, name: entry.name, rows });
      };
      // The migrations' own record is the header's list.
      for (const name of (await ownTables(tx)).filter((table) => table !== 'schema_migrations')) {
        await dump({ scope: 'app', name, columns: await storedColumns(tx, quoteIdent(name)) }, quoteIdent(name));
      }
      // The job queue makes its schema when a server first starts: a database no server has run on has none.
      for (const { name, where } of JOB_TABLES) {
        const qualified = `${quoteIdent(jobsSchema)}.${quoteIdent(name)}`;
        const [exists] = await tx.query<{ oid: string | null }>('SELECT to_regclass($1)::text AS oid', [qualified]);
        if (!exists?.oid) continue;
        await dump({ scope: 'jobs', name, columns: await storedColumns(tx, qualified) }, qualified, where);
      }
      const header: BackupHeader = {
        format: BACKUP_FORMAT,
        version: BACKUP_VERSION,
        createdAt: new Date().toISOString(),
        database: db.kind,
        migrations,
      };
      return { header, tables, spool };
    });
    await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    return snapshot;
  } catch (error) {
    out.destroy();
    await fs.promises.rm(spool, { force: true });
    throw error;
  }
}

/** Media are sent as base64 lines of at most this many bytes each. */
const CHUNK_BYTES = 256 * 1024;

/**
 * The backup file's bytes (gzip'd): the header, the snapshot's rows, DATA_DIR's own files, every media file, the
 * manifest. The spool is removed once read (or on failure).
 */
export function backupStream(snapshot: Snapshot, { storage, dataDir }: { storage: MediaStorage; dataDir: string }): Readable {
  async function* lines(): AsyncGenerator<string | Buffer> {
    try {
      yield `${JSON.stringify({ header: snapshot.header })}\n`;
      for await (const chunk of fs.createReadStream(snapshot.spool)) yield chunk as Buffer;
      const files: Manifest['files'] = [];
      async function* file(entry: FileEntry, source: AsyncIterable<Buffer>) {
        yield `${JSON.stringify({ file: entry })}\n`;
        const hash = createHash('sha256');
        let size = 0;
        for await (const chunk of rechunk(source)) {
          hash.update(chunk);
          size += chunk.length;
          yield `{"d":"${chunk.toString('base64')}"}\n`;
        }
        // Size and hash come after the bytes: a file that changed between its listing and its reading is recorded
        // as it was read.
        const sha256 = hash.digest('hex');
        yield `${JSON.stringify({ end: { size, sha256 } })}\n`;
        files.push({ kind: entry.kind, key: entry.key, size, sha256 });
      }
      for (const name of DATA_FILES) {
        const full = path.join(dataDir, name);
        if (fs.existsSync(full)) yield* file({ kind: 'data', key: name }, fs.createReadStream(full));
      }
      const keys: string[] = [];
      for await (const stored of storage.list()) keys.push(stored.key);
      for (const key of keys.sort()) yield* file({ kind: 'media', key }, storage.read(key));
      yield `${JSON.stringify({ manifest: { tables: snapshot.tables, files } })}\n`;
    } finally {
      await fs.promises.rm(snapshot.spool, { force: true });
    }
  }
  const gzip = createGzip();
  const source = Readable.from(lines(), { objectMode: false });
  source.on('error', (error) => gzip.destroy(error));
  return source.pipe(gzip);
}

/** Chunks of at most CHUNK_BYTES, whatever size the source hands out. */
async function* rechunk(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  for await (const chunk of source) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    for (let at = 0; at < bytes.length; at += CHUNK_BYTES) yield bytes.subarray(at, at + CHUNK_BYTES);
  }
}
