import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from './db/client.js';
import type { Mailer } from './mail/mailer.js';

/**
 * What an operator watches the api by, in Prometheus's text format (prom-client): how fast each route answers, how
 * the job queues keep up, whether mail and pushes go out, how many fans are connected live, how busy the database
 * pool is, and the process's own figures (memory, CPU, event loop, garbage collection). Every label is a name from
 * a fixed list (a route's pattern, a queue, an outcome), never an id or a username: one series per thing watched.
 * Each api has a registry of its own (tests run several in one process).
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const requestSeconds = new Histogram({
    name: 'stagedoor_http_request_duration_seconds',
    help: 'Time the api took to answer a request, by route pattern, method and status class (2xx, 4xx…)',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const pageSeconds = new Histogram({
    name: 'stagedoor_page_render_seconds',
    help: "Time the web tier took to render a page (its loaders' api calls and the HTML), by Remix route id",
    labelNames: ['route'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const jobRuns = new Counter({
    name: 'stagedoor_job_runs_total',
    help: 'Job runs on this api node, by queue and outcome (done, or failed: retried later or dead)',
    labelNames: ['queue', 'outcome'] as const,
    registers,
  });
  const mailsSent = new Counter({ name: 'stagedoor_mails_sent_total', help: 'Mails the SMTP server (or the outbox) accepted', registers });
  const mailsFailed = new Counter({
    name: 'stagedoor_mails_failed_total',
    help: 'Mails not accepted (each is retried by its job)',
    registers,
  });
  const pushesSent = new Counter({ name: 'stagedoor_pushes_sent_total', help: 'Web pushes a push service accepted', registers });
  const pushesFailed = new Counter({
    name: 'stagedoor_pushes_failed_total',
    help: "Web pushes not delivered, by reason: gone (the browser's subscription has ended), refused (not a public host), error (retried)",
    labelNames: ['reason'] as const,
    registers,
  });

  /** The status classes as labels, made once: an answer's label is looked up, never built. */
  const statusClasses = ['1xx', '2xx', '3xx', '4xx', '5xx'];

  return {
    registry,
    /** One answered request (the api's onResponse hook): `route` is the router's pattern, never the URL. */
    observeRequest(route: string, method: string, status: number, seconds: number) {
      requestSeconds.observe({ route, method, status: statusClasses[Math.floor(status / 100) - 1] ?? 'other' }, seconds);
    },
    /**
     * A page rendered by the web tier in this process (server/web.ts, app/entry.server.tsx), since `startedAt`
     * (performance.now()); `routeId` is Remix's id of the page's route (`routes/$artistUsername._index`), never its URL.
     */
    pageRendered(routeId: string, startedAt: number) {
      pageSeconds.observe({ route: routeId }, (performance.now() - startedAt) / 1000);
    },
    jobRun(queue: string, failed: boolean) {
      jobRuns.inc({ queue, outcome: failed ? 'failed' : 'done' });
    },
    pushed(outcome: 'sent' | 'gone' | 'refused' | 'error') {
      if (outcome === 'sent') pushesSent.inc();
      else pushesFailed.inc({ reason: outcome });
    },
    /** The mailer, counting what it sends and what fails. */
    countMails(mailer: Mailer): Mailer {
      return {
        async send(mail) {
          try {
            await mailer.send(mail);
          } catch (error) {
            mailsFailed.inc();
            throw error;
          }
          mailsSent.inc();
        },
        close: () => mailer.close(),
      };
    },
    /** Gauges read at each scrape: the job queues, the realtime connections, the database pool. */
    watch(sources: { db: Db; jobsSchema: string; queues: () => string[]; realtimeConnections: () => number }) {
      watchQueues(registry, sources.db, sources.jobsSchema, sources.queues);
      new Gauge({
        name: 'stagedoor_realtime_connections',
        help: 'Signed-in realtime (socket.io) connections to this api node',
        registers,
        collect() {
          this.set(sources.realtimeConnections());
        },
      });
      const pool = sources.db.pool;
      if (pool) {
        new Gauge({
          name: 'stagedoor_db_pool_clients',
          help: "PostgreSQL connections of this api node's pool: total open, and idle among them",
          labelNames: ['state'] as const,
          registers,
          collect() {
            const now = pool();
            this.set({ state: 'total' }, now.total);
            this.set({ state: 'idle' }, now.idle);
          },
        });
        new Gauge({
          name: 'stagedoor_db_pool_waiting',
          help: 'Queries of this api node waiting for a free PostgreSQL connection',
          registers,
          collect() {
            this.set(pool().waiting);
          },
        });
      }
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

interface QueueRow {
  queue: string;
  waiting: number;
  active: number;
  dead: number;
  oldest: number;
}

/**
 * The queues as the database holds them (every api node sees the same figures): jobs due and waiting for a worker,
 * running, dead (failed for good), and how long the longest-waiting due job has waited. One query per scrape, shared
 * by the four gauges.
 */
function watchQueues(registry: Registry, db: Db, schema: string, queues: () => string[]) {
  let last: { at: number; rows: Promise<Map<string, QueueRow>> } | undefined;
  const read = () => {
    if (last && Date.now() - last.at < 1000) return last.rows;
    const rows = db
      .query<QueueRow>(
        `SELECT name AS queue,
                count(*) FILTER (WHERE state IN ('created', 'retry') AND start_after <= now())::int AS waiting,
                count(*) FILTER (WHERE state = 'active')::int AS active,
                count(*) FILTER (WHERE state = 'failed')::int AS dead,
                coalesce(extract(epoch FROM now() - min(start_after) FILTER (WHERE state IN ('created', 'retry') AND start_after <= now())), 0)::float8 AS oldest
           FROM ${schema}.job WHERE state IN ('created', 'retry', 'active', 'failed') GROUP BY name`,
      )
      .then((found) => new Map(found.map((row) => [row.queue, row])));
    last = { at: Date.now(), rows };
    // A failed read is not kept: the next scrape asks again.
    rows.catch(() => (last = undefined));
    return rows;
  };
  const gauge = (name: string, help: string, value: (row: QueueRow) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['queue'] as const,
      registers: [registry],
      async collect() {
        const rows = await read();
        for (const queue of new Set([...queues(), ...rows.keys()])) {
          const row = rows.get(queue);
          this.set({ queue }, row ? Number(value(row)) : 0);
        }
      },
    });
  gauge('stagedoor_jobs_waiting', 'Jobs due and waiting for a worker, by queue (all api nodes)', (row) => row.waiting);
  gauge('stagedoor_jobs_active', 'Jobs running now, by queue (all api nodes)', (row) => row.active);
  gauge('stagedoor_jobs_dead', 'Jobs that failed for good (dead letters, npm run cli -- jobs), by queue', (row) => row.dead);
  gauge('stagedoor_jobs_oldest_waiting_seconds', 'How long the longest-waiting due job has waited, by queue', (row) => row.oldest);
}

/** Whether a request's Authorization header holds this token (compared in constant time). */
export function holdsToken(authorization: string | undefined, token: string) {
  const given = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1];
  if (!given) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/**
 * /metrics on a port of its own (METRICS_PORT), with nothing else on it; when METRICS_TOKEN is set too, the token is
 * asked for here as well.
 */
export function metricsServer(metrics: Metrics, token: string | undefined) {
  return http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    if (token && !holdsToken(request.headers.authorization, token)) {
      response.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).end('Unauthorized');
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(request.method === 'HEAD' ? '' : text),
      () => response.writeHead(503, { 'content-type': 'text/plain' }).end('Metrics unavailable'),
    );
  });
}
