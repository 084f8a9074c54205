import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../api/cli';
import { backupStream, ownTables, snapshotDatabase } from '../../api/backup/backup';
import { openDb, type Db } from '../../api/db/client';
import { acquireLock, writeAdminToken } from '../../api/db/lock';
import { migrate } from '../../api/db/migrate';
import { migrations } from '../../api/db/migrations/index';
import { seed } from '../../api/db/seed';
import { createMediaStorage } from '../../api/storage/index';
import { createDiskStorage } from '../../api/storage/disk';
import { describeEachDatabase, openTestDb, startTestApi, TEST_DATABASE_URL, whenJobsIdle, type TestApi } from '../helpers/api';
import { captureCli, runCliProcess } from '../helpers/process';
import { startS3StandIn, type S3StandIn } from '../helpers/s3-stand-in';
import { fanAndArtist, send } from './messages-fixtures';

/**
 * `npm run cli -- backup` and `restore` (api/backup): a backup taken from a running api restores into an empty
 * data directory or database with every table's rows and every media file's bytes as they were; one taken while
 * messages are being sent restores to one consistent moment; bad files and non-empty targets are refused.
 */

// PGlite made anew for each restore (initdb, eighteen migrations), seeded media: minutes on a loaded machine.
vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

const tempDirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-backup-'));
  tempDirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

const pgUrl = (schema: string) => {
  const url = new URL(TEST_DATABASE_URL!);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.href;
};

async function cli(args: string[], env: Record<string, string>) {
  const { io, out, err } = captureCli({ PUBLIC_WEB_URL: 'http://web.test', LOG_LEVEL: 'silent', ...env });
  const code = await runCli(args, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Every row of every table the migrations make, as JSON text, sorted: what "the same data" means here. */
async function allRows(db: Db) {
  const tables: Record<string, string[]> = {};
  for (const name of await ownTables(db)) {
    if (name === 'schema_migrations') continue;
    const rows = await db.query<{ j: string }>(`SELECT row_to_json(t)::text AS j FROM "${name}" t`);
    tables[name] = rows.map((row) => row.j).sort();
  }
  const applied = await db.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
  return { tables, migrations: applied.map((row) => row.id) };
}

/** Every file under a media folder (relative path → bytes), the disk storage's scratch folder left out. */
function mediaFiles(root: string) {
  const files: Record<string, Buffer> = {};
  const walk = (dir: string, prefix: string) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!prefix && entry.name === '.tmp') continue;
      if (entry.isDirectory()) walk(path.join(dir, entry.name), `${prefix}${entry.name}/`);
      else files[`${prefix}${entry.name}`] = fs.readFileSync(path.join(dir, entry.name));
    }
  };
  walk(root, '');
  return files;
}

/** The embedded database of a data directory, opened once the CLI has let go of it. */
async function withPglite<T>(dataDir: string, fn: (db: Db) => Promise<T>) {
  const db = await openDb({ dataDir });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

describeEachDatabase('backup and restore', (database) => {
  let t: TestApi;
  let env: Record<string, string>;
  let release = () => {};
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    const dataDir = tempDir();
    if (database.name === 'PGlite') {
      // A server holding the embedded database, as in production: the CLI asks it for the backup.
      const lock = acquireLock(dataDir, 'server');
      release = () => lock.release();
      t = await startTestApi({ dataDir, adminToken: writeAdminToken(dataDir) });
      lock.setApiUrl(t.url);
      env = { DATA_DIR: dataDir };
    } else {
      t = await startTestApi({ database: 'PostgreSQL', dataDir });
      env = { DATA_DIR: dataDir, DATABASE_URL: pgUrl(t.schema!), JOBS_SCHEMA: t.config.jobs.schema };
    }
    // The demo clubs: artists, posts, vault items and their media files.
    await seed(t.db, { storage: createMediaStorage(t.config) });
    const { fan, conversationId } = await fanAndArtist(t);
    for (let i = 0; i < 3; i++) expect((await send(t, fan, conversationId, `Hello ${i}`)).status).toBe(200);
    await whenJobsIdle(t);
  });
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
    release();
    await t?.close();
  });

  /**
   * The backup, from a process of its own on PGlite: the lock's holder is this test's process, and the CLI takes
   * its own process for a dead one.
   */
  async function backup(file: string) {
    if (database.name === 'PostgreSQL') return cli(['backup', '--to', file], env);
    const result = await runCliProcess(['backup', '--to', file], env);
    return { code: result.code, out: result.stdout.trim(), err: result.stderr.trim() };
  }

  /** A restore target as empty as a new install: a fresh data directory, and (PostgreSQL) a fresh schema. */
  async function emptyTarget(): Promise<{ env: Record<string, string>; dataDir: string; rows: () => ReturnType<typeof allRows> }> {
    const dataDir = tempDir();
    if (database.name === 'PGlite') {
      return { env: { DATA_DIR: dataDir }, dataDir, rows: () => withPglite(dataDir, allRows) };
    }
    const opened = await openTestDb('PostgreSQL');
    const jobsSchema = `${opened.schema}_jobs`;
    cleanups.push(async () => {
      await opened.db.query(`DROP SCHEMA IF EXISTS "${jobsSchema}" CASCADE`);
      await opened.drop();
    });
    return {
      env: { DATA_DIR: dataDir, DATABASE_URL: pgUrl(opened.schema!), JOBS_SCHEMA: jobsSchema },
      dataDir,
      rows: () => allRows(opened.db),
    };
  }

  let backupFile: string;

  it('backs up while the api runs and restores every row and every media file into an empty target', async () => {
    backupFile = path.join(tempDir(), 'nightly.backup.gz');
    const before = await allRows(t.db);
    const taken = await backup(backupFile);
    expect(taken.err).toBe('');
    expect(taken.code).toBe(0);
    expect(taken.out).toMatch(/^Backed up \d+ rows in \d+ tables and \d+ media files \(.+\) to .+nightly\.backup\.gz/);
    if (database.name === 'PGlite') expect(taken.out).toContain(`(taken by the running server, pid ${process.pid})`);
    expect(await allRows(t.db)).toEqual(before);
    const sourceMedia = mediaFiles(path.join(t.dataDir, 'media'));
    expect(Object.keys(sourceMedia).length).toBeGreaterThan(5);

    const target = await emptyTarget();
    const restored = await cli(['restore', '--from', backupFile], target.env);
    expect(restored.err).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.out).toMatch(/^Restored \d+ rows in \d+ tables and \d+ files from /);

    const after = await target.rows();
    expect(after.migrations).toEqual(migrations.map((m) => m.id));
    expect(Object.keys(after.tables).sort()).toEqual(Object.keys(before.tables).sort());
    for (const [table, rows] of Object.entries(before.tables)) expect(after.tables[table], table).toEqual(rows);
    expect(before.tables.users.length).toBeGreaterThan(3);
    expect(before.tables.messages).toHaveLength(3);

    const restoredMedia = mediaFiles(path.join(target.dataDir, 'media'));
    expect(Object.keys(restoredMedia).sort()).toEqual(Object.keys(sourceMedia).sort());
    for (const [key, bytes] of Object.entries(sourceMedia)) expect(restoredMedia[key].equals(bytes), key).toBe(true);
    // The push keys generated on the api's first start go with the data (subscriptions are bound to them).
    expect(fs.readFileSync(path.join(target.dataDir, 'vapid.json'), 'utf8')).toBe(
      fs.readFileSync(path.join(t.dataDir, 'vapid.json'), 'utf8'),
    );

    // Now it holds data: a second restore is refused, and --force replaces what is there.
    const again = await cli(['restore', '--from', backupFile], target.env);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/^error: Not restored: the target is not empty \(\d+ rows in \d+ tables, \d+ media files\); .* add --force/);
    const forced = await cli(['restore', '--from', backupFile, '--force'], target.env);
    expect(forced.err).toBe('');
    expect(forced.code).toBe(0);
    expect((await target.rows()).tables).toEqual(after.tables);
  });

  it('a backup taken while messages are being sent restores to one consistent moment', async () => {
    const pairs = await Promise.all([fanAndArtist(t), fanAndArtist(t)]);
    let writing = true;
    let sent = 0;
    const failures: unknown[] = [];
    const writers = pairs
      .map(async ({ fan, conversationId }) => {
        while (writing) {
          const answer = await send(t, fan, conversationId, `Under way ${sent}`);
          // The api's rate limit on sending: a fan typing this fast is told to wait, and does.
          if (answer.status === 429) await new Promise((resolve) => setTimeout(resolve, 1000));
          else if (answer.status !== 200) throw new Error(`send failed: ${JSON.stringify(answer.body)}`);
          else sent++;
        }
      })
      .map((writer) => writer.catch((error: unknown) => failures.push(error)));
    const count = async () =>
      (
        await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM messages WHERE conversation_id = ANY($1)', [
          pairs.map((p) => p.conversationId),
        ])
      )[0].n;
    while (sent < 10) await new Promise((resolve) => setTimeout(resolve, 50));
    const atStart = await count();
    const file = path.join(tempDir(), 'busy.backup.gz');
    const taken = await backup(file);
    const atEnd = await count();
    writing = false;
    await Promise.all(writers);
    expect(failures).toEqual([]);
    expect(taken.err).toBe('');
    expect(taken.code).toBe(0);
    // The writes did go on while it ran.
    expect(atEnd).toBeGreaterThan(atStart);

    const target = await emptyTarget();
    const restored = await cli(['restore', '--from', file], target.env);
    expect(restored.err).toBe('');
    expect(restored.code).toBe(0);
    const { tables } = await target.rows();
    const messages = tables.messages.map((j) => JSON.parse(j) as { id: string; conversation_id: string; created_at: string });
    const conversations = tables.conversations.map((j) => JSON.parse(j) as { id: string; last_message_id: string | null });
    const mine = messages.filter((m) => pairs.some((p) => p.conversationId === m.conversation_id));
    expect(mine.length).toBeGreaterThanOrEqual(atStart);
    expect(mine.length).toBeLessThanOrEqual(atEnd);
    // Each send writes the message and its conversation's newest message together: one moment has both or neither.
    const ids = new Set(messages.map((m) => m.id));
    for (const conversation of conversations) {
      const own = messages.filter((m) => m.conversation_id === conversation.id);
      expect(conversation.last_message_id === null ? own.length : ids.has(conversation.last_message_id), conversation.id).toBe(
        conversation.last_message_id === null ? 0 : true,
      );
      if (own.length) {
        const newest = own.reduce((a, b) => (a.created_at > b.created_at || (a.created_at === b.created_at && a.id > b.id) ? a : b));
        expect(conversation.last_message_id, conversation.id).toBe(newest.id);
      }
    }
    for (const message of messages) expect(conversations.some((c) => c.id === message.conversation_id)).toBe(true);
  });

  it('refuses a missing file, a damaged one, one that is no backup and one from a newer release', async () => {
    const target = await emptyTarget();
    const dir = tempDir();
    const missing = await cli(['restore', '--from', path.join(dir, 'nope.gz')], target.env);
    expect(missing.code).toBe(1);
    expect(missing.err).toBe(`error: There is no backup at ${path.join(dir, 'nope.gz')}.`);

    const bytes = fs.readFileSync(backupFile);
    const cut = path.join(dir, 'cut.gz');
    fs.writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const text = gunzipSync(bytes).toString();
    // One byte of one media file changed, the file otherwise whole: its sha256 gives it away.
    const dataLine = text.split('\n').findIndex((line) => line.startsWith('{"d":"'));
    const lines = text.split('\n');
    const data = Buffer.from((JSON.parse(lines[dataLine]) as { d: string }).d, 'base64');
    data[0] ^= 0xff;
    lines[dataLine] = JSON.stringify({ d: data.toString('base64') });
    const flipped = path.join(dir, 'flipped.gz');
    fs.writeFileSync(flipped, gzipSync(lines.join('\n')));
    const notGzip = path.join(dir, 'notes.txt');
    fs.writeFileSync(notGzip, 'just some notes\n');
    const newer = path.join(dir, 'newer.gz');
    const header = JSON.parse(text.slice(0, text.indexOf('\n'))) as { header: { migrations: string[] } };
    header.header.migrations.push('9999_from_the_future');
    fs.writeFileSync(newer, gzipSync(`${JSON.stringify(header)}${text.slice(text.indexOf('\n'))}`));

    for (const [file, message] of [
      [cut, 'it is not gzip-compressed or it is damaged'],
      [flipped, 'the file '],
      [notGzip, 'it is not gzip-compressed or it is damaged'],
    ]) {
      const answer = await cli(['restore', '--from', file], target.env);
      expect(answer.code, file).toBe(1);
      expect(answer.err).toContain(`error: ${file} is not a usable Stagedoor backup: ${message}`);
    }
    const fromTheFuture = await cli(['restore', '--from', newer], target.env);
    expect(fromTheFuture.code).toBe(1);
    expect(fromTheFuture.err).toBe(
      'error: Not restored: the backup was made by a newer Stagedoor (its schema has 9999_from_the_future, which this release does not know); restore it with that release or a later one.',
    );
    const usage = await cli(['restore'], target.env);
    expect(usage.code).toBe(2);
    expect(usage.err).toBe('error: --from is required. Usage: npm run cli -- restore --from FILE [--force]');
    // Nothing was written: the target is still empty.
    const { tables } = await target.rows().catch(() => ({ tables: {} as Record<string, string[]> }));
    for (const [table, rows] of Object.entries(tables)) expect(rows, table).toEqual([]);
  });
});

describe('backup and restore of media in an S3 bucket, on the embedded database with no server running', () => {
  let source: S3StandIn;
  let target: S3StandIn;
  beforeAll(async () => {
    [source, target] = await Promise.all([startS3StandIn(), startS3StandIn()]);
  });
  afterAll(async () => {
    await Promise.all([source?.close(), target?.close()]);
  });
  const s3Env = (s3: S3StandIn) => ({
    S3_BUCKET: s3.bucket,
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY_ID: 'test',
    S3_SECRET_ACCESS_KEY: 'test-secret',
  });

  it('takes every object of the bucket and puts it back byte for byte', async () => {
    const from = { DATA_DIR: tempDir(), ...s3Env(source) };
    expect((await cli(['seed'], from)).code).toBe(0);
    expect(source.objects.size).toBeGreaterThan(5);
    const file = path.join(tempDir(), 's3.backup.gz');
    const taken = await cli(['backup', '--to', file], from);
    expect(taken.err).toBe('');
    expect(taken.out).toContain(`and ${source.objects.size} media files`);

    const to = { DATA_DIR: tempDir(), ...s3Env(target) };
    const restored = await cli(['restore', '--from', file], to);
    expect(restored.err).toBe('');
    expect(restored.code).toBe(0);
    expect([...target.objects.keys()].sort()).toEqual([...source.objects.keys()].sort());
    for (const [key, bytes] of source.objects) expect(target.objects.get(key)!.equals(bytes), key).toBe(true);
    expect(await withPglite(to.DATA_DIR, allRows)).toEqual(await withPglite(from.DATA_DIR, allRows));
  });
});

describe('a backup from an earlier release', () => {
  it('restores into the schema it was taken from, then the newer migrations run over its rows', async () => {
    const older = migrations.slice(0, -1).map((m) => m.id);
    const db = await openDb({ dataDir: null });
    const file = path.join(tempDir(), 'older.backup.gz');
    try {
      await migrate(db, { only: new Set(older) });
      await db.query(
        `INSERT INTO users (id, username, email, password_hash, name) VALUES ('u-old', 'oldtimer', 'old@example.com', 'x', 'Old Timer')`,
      );
      const snapshot = await snapshotDatabase(db, 'pgboss');
      expect(snapshot.header.migrations).toEqual(older);
      const storage = createDiskStorage(path.join(tempDir(), 'media'));
      await pipeline(backupStream(snapshot, { storage, dataDir: tempDir() }), fs.createWriteStream(file));
    } finally {
      await db.close();
    }
    const dataDir = tempDir();
    const restored = await cli(['restore', '--from', file], { DATA_DIR: dataDir });
    expect(restored.err).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.out).toContain(`Then migrated it to this release: ${migrations[migrations.length - 1].id}.`);
    const after = await withPglite(dataDir, allRows);
    expect(after.migrations).toEqual(migrations.map((m) => m.id));
    expect(after.tables.users.map((j) => (JSON.parse(j) as { username: string }).username)).toEqual(['oldtimer']);
  });
});
