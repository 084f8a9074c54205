import cors from '@fastify/cors';
import Fastify, { LogController } from 'fastify';
import { IncomingMessage, type Server } from 'node:http';
import path from 'node:path';
import type { Config } from '#contract/config';
import { REQUEST_ID_HEADER, requestIdFor, trustedPeers } from '#contract/request-id';
import { adminRoutes } from './admin/routes.js';
import { redactSecrets } from '#contract/log-redaction';
import { createLimiters } from './auth/rate-limits.js';
import { authRoutes } from './auth/routes.js';
import { createCacheForDb } from './cache/broadcast.js';
import { conversationRoutes } from './conversations/routes.js';
import { contentApi } from './content/index.js';
import type { ApiContext } from './context.js';
import type { Db } from './db/client.js';
import { badRequest, handleError, holdsNul, notFound } from './http.js';
import { defineJobs } from './jobs/index.js';
import { checkMediaTools } from './media/ffmpeg.js';
import { clearAbandonedWork } from './media/processing.js';
import { createJobQueue } from './jobs/queue.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { createMetrics, holdsToken, metricsServer } from './metrics.js';
import type { NotificationServices } from './notifications/fanout.js';
import { loadVapidKeys } from './notifications/push.js';
import { systemResolve, type Resolve } from './notifications/push-endpoint.js';
import { notificationRoutes } from './notifications/routes.js';
import { loadUnsubscribeSecret } from './notifications/unsubscribe.js';
import { createTestGateway } from './payments/test-gateway.js';
import { moderationRoutes } from './moderation/routes.js';
import { messageRoutes } from './messages/routes.js';
import { createGateway, paymentRoutes } from './payments/routes.js';
import { earningsRoutes } from './earnings/routes.js';
import { artistPromoRoutes } from './payments/artist-promos.js';
import { giftRoutes } from './payments/gifts.js';
import { performerImageRoutes } from './performers/images.js';
import { performerProfileRoutes } from './performers/profile.js';
import { performerRoutes } from './performers/routes.js';
import { createRealtime } from './realtime/server.js';
import { connectRedis } from './redis.js';
import { currentRequestId, runAs } from './request-context.js';
import { setupRoutes } from './setup/routes.js';
import { subscriptionRoutes } from './subscriptions/routes.js';
import { userRoutes } from './users/routes.js';
import { accountSettingsRoutes } from './users/settings.js';

export interface ApiOptions {
  config: Config;
  db: Db;
  /** Replaces the configured mailer (tests point it at their own outbox). */
  mailer?: Mailer;
  /** Where log lines go (standard output by default; tests read them). */
  logStream?: { write(line: string): void };
  /**
   * Enables the operator endpoints (/admin/…) for callers presenting this token. Only the server that holds
   * the embedded database's lock sets it, so the CLI can act through it (api/db/lock.ts).
   */
  adminToken?: string;
  /** The clock of the sweeps (renewals, reminders, digests); tests pass one they move. */
  now?: () => Date;
  /** How push endpoints' host names are resolved (DNS by default; tests stand in for it). */
  resolveHost?: Resolve;
}

/**
 * The policy of an HTML answer of the api that sets none of its own: no script, no framing, forms posted back to the
 * api only.
 */
const API_PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** A request slower than this is logged at info however it ended. */
const SLOW_REQUEST_MS = 1000;

/** Builds the api: the REST routes (docs/api.md) and the socket.io server, not yet listening. */
export async function createApi({
  config,
  db,
  mailer,
  adminToken,
  logStream = process.stdout,
  now = () => new Date(),
  resolveHost = systemResolve,
}: ApiOptions) {
  const metrics = createMetrics();
  const trusted = trustedPeers(config.trustedProxies);
  // The root logger, once made: its lines name the request or job under way (a request's own logger names it already).
  let root: unknown;
  const app = Fastify({
    // Every line is redacted as it is written, whatever wrote it: a failed request's URL, an error, a mail in the outbox.
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            stream: { write: (line: string) => logStream.write(redactSecrets(line)) },
            mixin: (_object: object, _level: number, logger: unknown) => {
              const requestId = logger === root ? currentRequestId() : undefined;
              return requestId ? { requestId } : {};
            },
          },
    // Two log lines for every request cost about 14 % of the api's CPU under load (docs/benchmarks.md): requests
    // are logged by the hook below instead, all of them at debug, and at info only when they failed or were slow.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    // The web tier's id for the page request this call is part of, when the call comes from it: through inject in
    // this process (a request no network delivered), or from TRUSTED_PROXIES, the addresses the web tier and the load
    // balancer call from. Anyone else's is replaced: no client writes what the log lines are found by.
    genReqId: (raw) =>
      requestIdFor(raw.headers[REQUEST_ID_HEADER], () => !(raw instanceof IncomingMessage) || trusted(raw.socket.remoteAddress)),
    bodyLimit: 1024 * 1024,
    // X-Forwarded-For is believed from TRUSTED_PROXIES only (loopback by default): no one else, a neighbour on the
    // same private network included, chooses the address the per-address rate limits count.
    trustProxy: config.trustedProxies,
  });
  // Many request helpers send Content-Type: application/json on a call without a payload (a delete, "mark all
  // read"): such a call is read as having no body rather than refused as empty JSON. A body is parsed as Fastify
  // parses it, prototype poisoning refused.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    body.length === 0 ? done(null, undefined) : parseJson(request, String(body), done),
  );
  // Once closing, every answer asks its client to close the connection: an idle keep-alive connection (Fastify
  // keeps them 72 s) would otherwise hold the shutdown open.
  root = app.log;
  // The rest of the request runs as part of it: a job it sends, and a line the services log, carry its id.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    runAs({ requestId: request.id }, done);
  });
  app.addHook('onResponse', async (request, reply) => {
    const ms = reply.elapsedTime;
    metrics.observeRequest(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode, ms / 1000);
    const line = { method: request.method, url: request.url, statusCode: reply.statusCode, ms: Math.round(ms) };
    if (reply.statusCode >= 500) request.log.error(line, 'request failed');
    else if (reply.statusCode >= 400 || ms >= SLOW_REQUEST_MS) request.log.info(line, 'request');
    else request.log.debug(line, 'request');
  });
  // PostgreSQL text cannot hold NUL (the query would fail as a 500): refuse it wherever it comes in.
  app.addHook('preValidation', async (request) => {
    if (holdsNul(request.params) || holdsNul(request.query) || holdsNul(request.body)) {
      throw badRequest('Text cannot contain the NUL character (\\u0000).');
    }
  });
  let closing = false;
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    // Every page the api serves (the one-click unsubscribe page, the test gateway's approval page, Stripe's return
    // pages) is a button another site could frame and trick a fan into pressing: none may be framed, and none runs
    // a script. A page with a policy of its own (one naming where its form posts) keeps it.
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', API_PAGE_POLICY);
      reply.header('x-frame-options', 'DENY');
    }
    return payload;
  });
  // Every route the api serves, for the access-control matrix test (a route without a row there fails it).
  const routes: { method: string; url: string }[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url });
  });
  const readCache = createCacheForDb(db, (error) => app.log.warn({ err: error }, 'read cache: an invalidation could not be announced'));
  // One Redis client for the api: the rate limits' counters and the realtime adapter's events.
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, app.log) : undefined;
  const ctx: ApiContext = {
    db,
    cache: readCache.cache,
    config,
    limiters: createLimiters(redis),
    log: app.log,
    mailer: metrics.countMails(
      mailer ??
        createMailer({
          smtpUrl: config.smtpUrl,
          from: config.mailFrom,
          outboxDir: path.join(config.dataDir, 'outbox'),
          log: (line) => app.log.info(line),
        }),
    ),
    jobs: createJobQueue({
      db,
      ...config.jobs,
      onError: (error) => app.log.error({ err: error }, 'job queue'),
      onRecovered: (summary) => app.log.warn(summary, 'job queue: the jobs of api processes that died are handed back'),
      onRun: ({ queue, id, ms, error }) => {
        metrics.jobRun(queue, error !== undefined);
        const line = { queue, jobId: id, ms: Math.round(ms) };
        if (error !== undefined) app.log.warn({ ...line, err: error }, 'job failed');
        else app.log.debug(line, 'job done');
      },
    }),
    metrics,
    now,
  };

  // The browser calls the api directly for messages (send, delete, read): every method the api uses is allowed, from
  // the web app's pages only. Those calls carry the session as a bearer token and the api sets no cookie, so no
  // credentials mode is allowed: a foreign page gets no Access-Control-Allow-Origin, and nothing with cookies.
  await app.register(cors, { origin: config.webOrigins, credentials: false, methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] });
  app.setErrorHandler(handleError);
  app.setNotFoundHandler(() => {
    throw notFound();
  });

  // Only for whoever holds the token, on the api's port unless it has a port of its own (server/index.ts).
  const { token: metricsToken, port: metricsPort } = config.metrics;
  if (metricsToken && metricsPort === undefined) {
    app.get('/metrics', async (request, reply) => {
      if (!holdsToken(request.headers.authorization, metricsToken)) {
        return reply.status(401).header('www-authenticate', 'Bearer').send({ status: 401, message: 'Unauthorized' });
      }
      return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    });
  }

  app.get('/healthz', async (_request, reply) => {
    try {
      await db.query('SELECT 1');
      return { status: 'ok' };
    } catch {
      return reply.status(503).send({ status: 'unavailable', message: 'The database is not answering.' });
    }
  });

  authRoutes(app, ctx);
  setupRoutes(app, ctx);
  userRoutes(app, ctx);
  performerRoutes(app, ctx);
  performerProfileRoutes(app, ctx);
  subscriptionRoutes(app, ctx);
  const gateway = createGateway(ctx);
  paymentRoutes(app, ctx, gateway);
  earningsRoutes(app, ctx, gateway);
  artistPromoRoutes(app, ctx);
  giftRoutes(app, ctx, gateway);
  const stopping = new AbortController();
  const content = await contentApi(app, ctx, { signal: stopping.signal });
  // Said once at start, plainly, rather than by every upload failing to process.
  void checkMediaTools(content.mediaTools).then((said) => ('problem' in said ? app.log.error(said.problem) : app.log.info(said.running)));
  performerImageRoutes(app, content);
  await accountSettingsRoutes(app, content, gateway);
  const realtime = await createRealtime(app.server, ctx, redis);
  metrics.watch({
    db,
    jobsSchema: config.jobs.schema,
    queues: () => ctx.jobs.queueNames(),
    realtimeConnections: () => realtime.io.of('/').sockets.size,
  });
  if (adminToken) adminRoutes(app, ctx, adminToken, { storage: content.storage, gateway, realtime });
  conversationRoutes(app, ctx);
  messageRoutes(app, ctx, realtime);
  moderationRoutes(app, ctx, realtime, gateway);
  const notifications: NotificationServices = Object.assign(Object.create(ctx) as ApiContext, {
    emit: realtime.emitToUser,
    vapid: loadVapidKeys(config, (line) => app.log.warn(line)),
    pushPolicy: { allowHosts: config.pushAllowHosts, resolve: resolveHost },
    unsubscribeSecret: await loadUnsubscribeSecret(db),
  });
  notificationRoutes(app, notifications);
  defineJobs(ctx, notifications, config.stripe.secretKey ? null : createTestGateway(db, config), gateway, content);
  // The queue's tables exist before the first request can send a job.
  await ctx.jobs.start();

  let metricsListener: Server | undefined;
  return {
    app,
    io: realtime.io,
    ctx,
    routes,
    /** Starts this node's job workers (server/index.ts, once listening; the test helper). */
    async startWorkers() {
      await clearAbandonedWork();
      await ctx.jobs.work();
    },
    async listen(port: number, host: string) {
      await app.listen({ port, host });
      const address = app.server.address();
      return typeof address === 'object' && address ? address.port : port;
    },
    /** Serves /metrics on a port of its own (METRICS_PORT): answers the port bound. */
    async listenMetrics(port: number, host: string) {
      metricsListener = metricsServer(metrics, metricsToken);
      const listener = metricsListener;
      await new Promise<void>((resolve, reject) => listener.once('error', reject).listen(port, host, resolve));
      const address = listener.address();
      return typeof address === 'object' && address ? address.port : port;
    },
    /** Graceful: new connections are refused, requests under way finish, then their connections close. */
    async close() {
      closing = true;
      // A transcode would not finish in the jobs' grace period: its ffmpeg is killed now, and its file handed to a new
      // job for after the restart (processing.ts). Other jobs under way finish first (they may still send realtime
      // events and use the database).
      stopping.abort();
      await ctx.jobs.stop();
      await realtime.close();
      await app.close();
      await new Promise((resolve) => (metricsListener ? metricsListener.close(resolve) : resolve(undefined)));
      ctx.mailer.close();
      await readCache.close();
      await redis?.close();
    },
  };
}

export type Api = Awaited<ReturnType<typeof createApi>>;
