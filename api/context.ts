import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '#contract/config';
import type { Db } from './db/client.js';
import type { Mailer } from './mail/mailer.js';
import type { Limiters } from './auth/rate-limits.js';
import type { ReadCache } from './cache/read-cache.js';
import type { JobQueue } from './jobs/queue.js';
import type { Metrics } from './metrics.js';

/** What every api module needs, built once at start-up and passed down explicitly. */
export interface ApiContext {
  db: Db;
  /** Hot reads kept in memory, invalidated by the writes that change them (cache/read-cache.ts). */
  cache: ReadCache;
  config: Config;
  mailer: Mailer;
  limiters: Limiters;
  log: FastifyBaseLogger;
  /** Background work: mail, push, scheduled posts, renewals (jobs/queue.ts). */
  jobs: JobQueue;
  /** What /metrics shows (metrics.ts): the services count their own sends. */
  metrics: Metrics;
  /** The time as the sweeps (renewals, reminders, digests) see it; tests move it. */
  now: () => Date;
}

/** What a cached read needs: the database, and the cache in front of it. */
export type Reads = Pick<ApiContext, 'db' | 'cache'>;
