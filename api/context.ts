import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../server/config.js';
import type { Db } from './db/client.js';
import type { Mailer } from './mail/mailer.js';
import type { Limiters } from './auth/rate-limits.js';

/** What every api module needs, built once at start-up and passed down explicitly. */
export interface ApiContext {
  db: Db;
  config: Config;
  mailer: Mailer;
  limiters: Limiters;
  log: FastifyBaseLogger;
}
