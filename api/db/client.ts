import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** One typed query layer over both drivers: PGlite (embedded) and node-postgres (a real server). */
export interface Queryable {
  /** Runs one statement with $1… parameters and returns its rows. */
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
}

/**
 * PostgreSQL's LISTEN/NOTIFY, for what several api processes on one database must tell each other (the read
 * cache's invalidations). PGlite has none: it lives in one process.
 */
export interface Notifications {
  /** Sends payload to every listener of channel (this process's own included). */
  notify(channel: string, payload: string): Promise<void>;
  /**
   * Listens on channel over a connection of its own, reconnecting (1 s, growing to 10 s) whenever it is lost;
   * onState(true) once listening, onState(false) as soon as the connection is gone.
   */
  listen(channel: string, onMessage: (payload: string) => void, onState: (listening: boolean) => void): { close(): Promise<void> };
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  readonly notifications?: Notifications;
  /**
   * Runs fn in a transaction: committed when it resolves, rolled back when it throws. timeoutMs replaces the usual
   * wait for each statement's answer (QUERY_TIMEOUT_MS) for work known to be long: migrations.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: { timeoutMs?: number }): Promise<T>;
  /**
   * Runs several statements separated by semicolons, without parameters (migrations, the job queue's
   * maintenance), and returns the rows of the last one.
   */
  exec<Row = Record<string, unknown>>(sql: string): Promise<Row[]>;
  /** The connection pool's state now, for the metrics (PostgreSQL; PGlite is one connection in this process). */
  pool?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

/** The first row, or undefined. */
export async function one<Row>(db: Queryable, sql: string, params?: unknown[]): Promise<Row | undefined> {
  const rows = await db.query<Row>(sql, params);
  return rows[0];
}

export type DbOptions =
  | { databaseUrl: string; schema?: string; max?: number }
  /** PGlite under dataDir, or in memory (null) starting from a dump of another (`dumpDataDir`) when one is given. */
  | { dataDir: string | null; from?: Blob };

/** Opens PostgreSQL when a URL is given, else PGlite persisted under dataDir (in memory when dataDir is null). */
export async function openDb(options: DbOptions): Promise<Db> {
  if ('databaseUrl' in options) return openPostgres(options.databaseUrl, options.schema, options.max);
  return openPglite(options.dataDir, options.from);
}

/**
 * PGlite's memory is a WebAssembly heap that grows and never shrinks. PostgreSQL's default shared buffers (160 MB
 * here) would be filled by any scan and then held for good; 32 MB holds a fan club's hot pages many times over.
 */
const PGLITE_SETTINGS = ['-c', 'shared_buffers=32MB'];

/**
 * Creates a new data directory (initdb) in a process of its own. Done in this process, initdb's WebAssembly heap
 * (about 430 MB) is given back to the allocator but not to the system: the server would idle at about 120 MB more
 * after its first start than after any later one (docs/benchmarks-history.md, "Memory: where the idle 500 MB went").
 */
function initPgliteDir(dir: string) {
  const pglite = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')).href;
  const script = `const { PGlite } = await import(${JSON.stringify(pglite)}); await (await PGlite.create(${JSON.stringify(dir)})).close();`;
  execFileSync(process.execPath, ['--input-type=module', '--eval', script], { stdio: 'inherit' });
}

/** Whether PGlite has yet to make its database under this data directory (a first start). */
export function isNewPgliteDir(dataDir: string) {
  return !fs.existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'));
}

async function openPglite(dataDir: string | null, from?: Blob): Promise<Db> {
  let dir: string | undefined;
  if (dataDir) {
    dir = path.join(dataDir, 'pglite');
    fs.mkdirSync(dir, { recursive: true });
    if (isNewPgliteDir(dataDir)) initPgliteDir(dir);
  }
  const lite = await PGlite.create(dir, {
    loadDataDir: dir ? undefined : from,
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS],
  });
  return pgliteDb(lite);
}

/** Our Db over a PGlite instance. */
export function pgliteDb(lite: PGlite): Db {
  const queryable = (q: Pick<PGlite, 'query'>): Queryable => ({
    async query<Row>(sql: string, params: unknown[] = []) {
      const result = await q.query<Row>(sql, params);
      return result.rows;
    },
  });
  return {
    kind: 'pglite',
    ...queryable(lite),
    transaction: (fn) => lite.transaction((tx) => fn(queryable(tx))),
    exec: async <Row>(sql: string) => {
      const results = await lite.exec(sql);
      return (results[results.length - 1]?.rows ?? []) as Row[];
    },
    close: () => lite.close(),
  };
}

/** How long a query may wait for one of the pool's clients to come free under load (not for the database). */
export const POOL_WAIT_MS = 15_000;

/**
 * How long a query waits for PostgreSQL's answer on an open connection. A server that has gone silent (a network
 * partition: nothing refused, nothing answered) would otherwise hold every request for as long as TCP takes to
 * give up; past this the api answers 503 like any outage, well inside the web tier's 10 s deadline. Migrations
 * (exec) may take longer.
 */
export const QUERY_TIMEOUT_MS = 5000;
export const MIGRATION_TIMEOUT_MS = 10 * 60_000;

/**
 * A first-come, first-served queue for the pool's clients. pg-pool's own queue counts waiting for a busy client
 * against connectionTimeoutMillis, so a crowd (200 fans browsing at once) looked like a database outage: 503s after
 * 5 s in the queue. Here requests queue for a client up to POOL_WAIT_MS, and the pool is only asked for a client
 * when one is free, so its 5 s timeout measures the database alone: an outage still fails fast.
 */
export function clientQueue(slots: number, waitMs = POOL_WAIT_MS) {
  let free = slots;
  const waiting: { resolve: () => void; timer: ReturnType<typeof setTimeout> }[] = [];
  return {
    acquire(): Promise<void> {
      if (free > 0) {
        free--;
        return Promise.resolve();
      }
      return new Promise((resolve, reject) => {
        const entry = {
          resolve,
          timer: setTimeout(() => {
            waiting.splice(waiting.indexOf(entry), 1);
            // Worded as pg's own timeout, so the api answers it as it answers an unreachable database: a 503.
            reject(new Error(`timeout exceeded when trying to connect: every database client stayed busy for ${waitMs / 1000} s`));
          }, waitMs),
        };
        waiting.push(entry);
      });
    },
    release() {
      const next = waiting.shift();
      if (next) {
        clearTimeout(next.timer);
        next.resolve();
      } else free++;
    },
    get waiting() {
      return waiting.length;
    },
  };
}

async function openPostgres(databaseUrl: string, schema?: string, max = 10): Promise<Db> {
  const queue = clientQueue(max);
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max,
    // Fail fast when the server is gone instead of queueing requests forever (the wait for a busy client is
    // clientQueue's, above).
    connectionTimeoutMillis: 5000,
    query_timeout: QUERY_TIMEOUT_MS,
    keepAlive: true,
    options: schema ? `-c search_path=${schema}` : undefined,
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  if (schema) {
    const client = await pool.connect();
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    } finally {
      client.release();
    }
  }
  const db: Db = {
    kind: 'postgres',
    async query<Row>(sql: string, params: unknown[] = []) {
      await queue.acquire();
      try {
        const result = await pool.query(sql, params);
        return result.rows as Row[];
      } finally {
        queue.release();
      }
    },
    async transaction(fn, options) {
      await queue.acquire();
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        queue.release();
        throw error;
      }
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await fn({
          async query<Row>(sql: string, params: unknown[] = []) {
            const r = await client.query({ text: sql, values: params, query_timeout: options?.timeoutMs } as pg.QueryConfig);
            return r.rows as Row[];
          },
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        // A connection that cannot even roll back (gone, or silent) is not handed to the next request.
        await client.query('ROLLBACK').catch((lost: Error) => {
          broken = lost;
        });
        throw error;
      } finally {
        client.release(broken);
        queue.release();
      }
    },
    async exec<Row>(sql: string) {
      await queue.acquire();
      try {
        // Several statements answer one result each; one statement answers a single result.
        const result = (await pool.query({ text: sql, query_timeout: MIGRATION_TIMEOUT_MS } as pg.QueryConfig)) as
          pg.QueryResult | pg.QueryResult[];
        const last = Array.isArray(result) ? result[result.length - 1] : result;
        return (last?.rows ?? []) as Row[];
      } finally {
        queue.release();
      }
    },
    notifications: postgresNotifications(databaseUrl, schema, async (sql, params) => {
      await db.query(sql, params);
    }),
    // Queries wait in our own queue for a free client (clientQueue), seldom in pg's.
    pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: queue.waiting + pool.waitingCount }),
    close: () => pool.end(),
  };
  return db;
}

const LISTEN_RETRY_MS = [1000, 2000, 5000, 10_000];
/** A listening connection says nothing while nobody writes: it is asked to answer this often, to tell silence from loss. */
const LISTEN_HEARTBEAT_MS = 5000;
/** A notice sent on the listening connection that has no answer by then goes through the pool instead. */
const NOTIFY_TIMEOUT_MS = 2500;

function postgresNotifications(
  databaseUrl: string,
  schema: string | undefined,
  run: (sql: string, params: unknown[]) => Promise<void>,
): Notifications {
  // Schemas share one database's channels: test runs, each in a schema of its own, keep apart by name.
  const scoped = (channel: string) => (schema ? `${channel}_${schema}` : channel);
  // The connections listening right now. A notice goes out on one of them when there is one: a write that has
  // committed then answers without waiting in the pool's queue a second time, which under load is the long wait.
  const listening = new Set<pg.Client>();
  return {
    async notify(channel, payload) {
      const [client] = listening;
      if (client) {
        try {
          const values = [scoped(channel), payload];
          await client.query({ text: 'SELECT pg_notify($1, $2)', values, query_timeout: NOTIFY_TIMEOUT_MS } as pg.QueryConfig);
          return;
        } catch {
          // The connection is going: its own handler notices; this notice goes through the pool instead.
        }
      }
      await run('SELECT pg_notify($1, $2)', [scoped(channel), payload]);
    },
    listen(channel, onMessage, onState) {
      let client: pg.Client | undefined;
      let closed = false;
      let failures = 0;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let heartbeat: ReturnType<typeof setInterval> | undefined;
      const lost = () => {
        if (closed || !client) return;
        clearInterval(heartbeat);
        const gone = client;
        client = undefined;
        listening.delete(gone);
        gone.removeAllListeners();
        gone.on('error', () => {});
        void gone.end().catch(() => {});
        onState(false);
        retry();
      };
      const retry = () => {
        if (closed) return;
        timer = setTimeout(connect, LISTEN_RETRY_MS[Math.min(failures, LISTEN_RETRY_MS.length - 1)]);
        failures += 1;
      };
      const connect = async () => {
        // Named for pg_stat_activity: its last query is often a notice or a heartbeat, not the LISTEN.
        const next = new pg.Client({
          connectionString: databaseUrl,
          connectionTimeoutMillis: 5000,
          application_name: `listen ${scoped(channel)}`.slice(0, 63),
        });
        next.on('error', () => {});
        try {
          await next.connect();
          await next.query(`LISTEN "${scoped(channel)}"`);
        } catch {
          void next.end().catch(() => {});
          retry();
          return;
        }
        if (closed) {
          void next.end().catch(() => {});
          return;
        }
        client = next;
        failures = 0;
        next.removeAllListeners('error');
        next.on('error', lost);
        next.on('end', lost);
        next.on('notification', (message) => {
          if (message.payload !== undefined) onMessage(message.payload);
        });
        heartbeat = setInterval(() => {
          next.query({ text: 'SELECT 1', query_timeout: LISTEN_HEARTBEAT_MS / 2 } as pg.QueryConfig).catch(lost);
        }, LISTEN_HEARTBEAT_MS);
        heartbeat.unref();
        listening.add(next);
        onState(true);
      };
      void connect();
      return {
        async close() {
          closed = true;
          clearTimeout(timer);
          clearInterval(heartbeat);
          const last = client;
          client = undefined;
          if (last) {
            listening.delete(last);
            last.removeAllListeners();
            last.on('error', () => {});
            await last.end().catch(() => {});
          }
        },
      };
    },
  };
}
