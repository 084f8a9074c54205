import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, inject } from 'vitest';
import { createApi, type Api } from '../../api/app';
import type { ReadCache } from '../../api/cache/read-cache';
import type { Resolve } from '../../api/notifications/push-endpoint';
import { openDb, type Db } from '../../api/db/client';
import { migrate } from '../../api/db/migrate';
import { readOutbox } from '../../api/mail/mailer';
import { parseConfig, type Config } from '#contract/config';

/**
 * The shared api test helper: the real api listening on port 0 over a real database, reached over HTTP.
 * PGlite in memory always; PostgreSQL in a fresh schema (dropped afterwards) when TEST_DATABASE_URL is set.
 * PGlite takes seconds to start, so a test file starts one api in beforeAll and each test makes its own users.
 */

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

export interface TestDatabase {
  name: 'PGlite' | 'PostgreSQL';
  /** Why this database is not tested in this run, if it is not. */
  skip?: string;
}

export const testDatabases: TestDatabase[] = [
  { name: 'PGlite' },
  { name: 'PostgreSQL', skip: TEST_DATABASE_URL ? undefined : 'set TEST_DATABASE_URL=postgres://… to run it' },
];

/** One describe block per database; a database that cannot run here shows up as skipped, with the reason. */
export function describeEachDatabase(title: string, body: (database: TestDatabase) => void) {
  for (const database of testDatabases) {
    const name = `${title} (${database.name}${database.skip ? ` — skipped: ${database.skip}` : ''})`;
    describe.skipIf(Boolean(database.skip))(name, () => body(database));
  }
}

/** The dump of a migrated PGlite database (tests/api/pglite-template.ts), read once per test file. */
let template: Blob | null | undefined;
function migratedTemplate() {
  if (template === undefined) {
    const file = inject('pgliteTemplate');
    template = file && fs.existsSync(file) ? new Blob([fs.readFileSync(file)]) : null;
  }
  return template ?? undefined;
}

/** Opens an empty, migrated database of that kind; drop() removes what it created. */
export async function openTestDb(database: TestDatabase['name'] = 'PGlite'): Promise<{ db: Db; schema?: string; drop(): Promise<void> }> {
  if (database === 'PostgreSQL') {
    if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const db = await openDb({ databaseUrl: TEST_DATABASE_URL, schema, max: 5 });
    await migrate(db);
    return {
      db,
      schema,
      async drop() {
        await db.query(`DROP SCHEMA "${schema}" CASCADE`);
        await db.close();
      },
    };
  }
  const db = await openDb({ dataDir: null, from: migratedTemplate() });
  await migrate(db);
  return { db, drop: () => db.close() };
}

export interface TestApi {
  url: string;
  api: Api;
  /**
   * The api's database, for setting up what the api has no call for (a subscription that has lapsed, a comment
   * made an hour ago). Such writes happen behind the api's back, so each one that changes data clears the api's
   * read cache, as it would need clearing after an operator's hand-made change. The api itself uses `api.ctx.db`.
   */
  db: Db;
  /** The PostgreSQL schema the api runs in (PostgreSQL only): a second api node can share it. */
  schema?: string;
  config: Config;
  /** The api's own DATA_DIR (a temp folder): mail goes to its outbox, media under it. */
  dataDir: string;
  outboxDir: string;
  close(): Promise<void>;
}

export interface StartOptions {
  database?: TestDatabase['name'];
  /** More environment for parseConfig (PUBLIC_WEB_URL…). */
  env?: Record<string, string>;
  adminToken?: string;
  /** Use this DATA_DIR instead of a fresh temp folder (kept on close). */
  dataDir?: string;
  /** Where the api's log lines go (with LOG_LEVEL set in env). */
  logStream?: { write(line: string): void };
  /** The clock of the api's sweeps (renewals, reminders, digests). */
  now?: () => Date;
  /** How the api resolves push endpoints' host names (DNS by default). */
  resolveHost?: Resolve;
}

/** Starts the api as server/index.ts does (config from parseConfig, the outbox mailer), on 127.0.0.1:0. */
export async function startTestApi(options: StartOptions = {}): Promise<TestApi> {
  const ownDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-api-'));
  const { db, schema, drop } = await openTestDb(options.database);
  // On PostgreSQL the job queue's tables go in a schema of this test's own too, so tests never work each other's jobs.
  const jobs = { JOBS_SCHEMA: schema ? `${schema}_jobs` : 'pgboss', JOB_POLL_SECONDS: '0.5', JOB_TIMEOUT_SECONDS: '5' };
  const config = parseConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    ...jobs,
    ...options.env,
  } as unknown as NodeJS.ProcessEnv);
  const api = await createApi({
    config,
    db,
    adminToken: options.adminToken,
    logStream: options.logStream,
    now: options.now,
    resolveHost: options.resolveHost,
  });
  const port = await api.listen(0, '127.0.0.1');
  await api.startWorkers();
  return {
    url: `http://127.0.0.1:${port}`,
    api,
    db: behindTheApi(db, api.ctx.cache),
    schema,
    config,
    dataDir,
    outboxDir: path.join(dataDir, 'outbox'),
    async close() {
      await api.close();
      if (schema) await db.query(`DROP SCHEMA IF EXISTS "${config.jobs.schema}" CASCADE`);
      await drop();
      if (ownDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const READS = /^\s*(SELECT|WITH\s[\s\S]*?\)\s*SELECT)\b/i;

/** The database as a test writes to it directly: after any statement but a read, the api's read cache is cleared. */
function behindTheApi(db: Db, cache: ReadCache): Db {
  return {
    ...db,
    async query<Row>(sql: string, params?: unknown[]) {
      const rows = await db.query<Row>(sql, params);
      if (!READS.test(sql)) cache.clear();
      return rows;
    },
    async transaction(fn, options) {
      const result = await db.transaction(fn, options);
      cache.clear();
      return result;
    },
  };
}

export interface Answer<T = any> {
  status: number;
  body: { status: number; data: T; message?: string; errors?: Record<string, string[]> };
  headers: Headers;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  query?: Record<string, string | number>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** One HTTP call to the api, as the web's request helper makes it (Bearer token, JSON body). */
export async function call<T = any>(base: string, method: string, pathname: string, options: CallOptions = {}): Promise<Answer<T>> {
  const url = new URL(pathname, base);
  for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, String(value));
  const response = await fetch(url, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
    signal: options.signal,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

let counter = 0;

/** A username no other test has used: letters and digits only, at most 30 characters. */
export function uniqueName(prefix = 'fan') {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}${randomBytes(2).toString('hex')}`.toLowerCase();
}

/**
 * A client address of its own for each caller: the api trusts X-Forwarded-For from loopback (the web tier), so
 * tests that register many users do not share one per-address budget, as real fans would not.
 */
export function clientAddress() {
  counter += 1;
  return `2001:db8::${counter.toString(16)}`;
}

export const FAN_PASSWORD = 'Backstage-Pass-1';

export interface TestUser {
  id: string;
  username: string;
  email: string;
  password: string;
  token: string;
}

/** Registers a fan through POST /auth/users/register, as the sign-up page does. */
export async function registerFan(t: TestApi, prefix = 'fan'): Promise<TestUser> {
  const username = uniqueName(prefix);
  const credentials = { username, email: `${username}@example.com`, password: FAN_PASSWORD };
  const answer = await call(t.url, 'POST', '/auth/users/register', { body: credentials, headers: { 'x-forwarded-for': clientAddress() } });
  if (answer.status !== 200) throw new Error(`register failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  const [row] = await t.db.query<{ id: string }>('SELECT id FROM users WHERE username = $1', [username]);
  return { ...credentials, id: row.id, token: answer.body.data.token };
}

/** Logs in through POST /auth/login from an address of its own; answers the raw reply. */
export function login(t: TestApi, username: string, password: string, address = clientAddress()) {
  return call<{ token: string }>(t.url, 'POST', '/auth/login', {
    body: { username, password, remember: true },
    headers: { 'x-forwarded-for': address },
  });
}

/** Makes an existing user an artist with a profile (the seed and the CLI make them through createArtist). */
export async function makeArtist(t: TestApi, user: TestUser, profile: { yearlyPriceCents?: number; name?: string } = {}) {
  await t.db.query('UPDATE users SET is_performer = true, name = $2 WHERE id = $1', [user.id, profile.name ?? user.username]);
  await t.db.query('INSERT INTO artist_profiles (user_id, yearly_price_cents) VALUES ($1, $2)', [user.id, profile.yearlyPriceCents ?? 0]);
}

/** A subscription row, as the subscribe issue's payment step will create it: active for a year. */
export async function subscribe(t: TestApi, fanId: string, artistId: string) {
  await t.db.query(
    `INSERT INTO subscriptions (user_id, artist_id, status, type, expires_at) VALUES ($1, $2, 'active', 'yearly', now() + interval '1 year')`,
    [fanId, artistId],
  );
}

/** Waits for the mail to this address to land in the outbox (it is sent after the api has answered). */
export async function waitForMail(t: TestApi, to: string, { after = 0, timeoutMs = 5000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = (await readOutbox(t.outboxDir)).filter((mail) => mail.to === to);
    if (mails.length > after) return mails[mails.length - 1];
    if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every mail to this address so far. */
export async function mailsTo(t: TestApi, to: string) {
  return (await readOutbox(t.outboxDir)).filter((mail) => mail.to === to);
}

/**
 * Waits until the test api's job queue has nothing due or running (media processing, fan-outs), so a test file can
 * close its api without a job still writing into a schema that is being dropped. Gives up quietly after `timeoutMs`.
 */
export async function whenJobsIdle(t: TestApi, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const [pending] = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${t.config.jobs.schema}.job WHERE state IN ('created', 'retry', 'active') AND start_after <= now()`,
    );
    if (!pending?.n) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
