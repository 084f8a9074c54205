import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** One typed query layer over both drivers: PGlite (embedded) and node-postgres (a real server). */
export interface Queryable {
  /** Runs one statement with $1… parameters and returns its rows. */
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in a transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs several statements separated by semicolons, without parameters (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

/** The first row, or undefined. */
export async function one<Row>(db: Queryable, sql: string, params?: unknown[]): Promise<Row | undefined> {
  const rows = await db.query<Row>(sql, params);
  return rows[0];
}

export type DbOptions =
  | { databaseUrl: string; schema?: string; max?: number }
  | { dataDir: string | null };

/** Opens PostgreSQL when a URL is given, else PGlite persisted under dataDir (in memory when dataDir is null). */
export async function openDb(options: DbOptions): Promise<Db> {
  if ('databaseUrl' in options) return openPostgres(options.databaseUrl, options.schema, options.max);
  return openPglite(options.dataDir);
}

async function openPglite(dataDir: string | null): Promise<Db> {
  let dir: string | undefined;
  if (dataDir) {
    dir = path.join(dataDir, 'pglite');
    fs.mkdirSync(dir, { recursive: true });
  }
  const lite = await PGlite.create(dir);
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
    exec: async (sql) => {
      await lite.exec(sql);
    },
    close: () => lite.close(),
  };
}

/** How long a query may wait for one of the pool's clients to come free under load (not for the database). */
export const POOL_WAIT_MS = 15_000;

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
  return {
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
    async transaction(fn) {
      await queue.acquire();
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        queue.release();
        throw error;
      }
      try {
        await client.query('BEGIN');
        const result = await fn({
          async query<Row>(sql: string, params: unknown[] = []) {
            const r = await client.query(sql, params);
            return r.rows as Row[];
          },
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
        queue.release();
      }
    },
    async exec(sql) {
      await queue.acquire();
      try {
        await pool.query(sql);
      } finally {
        queue.release();
      }
    },
    close: () => pool.end(),
  };
}
