import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';

/** The four environments; each selects defaults for the API base, Stripe key and cookie security. */
export const APP_ENVS = ['local', 'staging', 'demo', 'production'] as const;
export type AppEnv = (typeof APP_ENVS)[number];

const ENV_DEFAULTS: Record<AppEnv, { publicApiUrl: string; publicWebUrl: string; stripePublishableKey: string }> = {
  local: { publicApiUrl: 'http://localhost:8080', publicWebUrl: 'http://localhost:3000', stripePublishableKey: '' },
  staging: { publicApiUrl: 'https://api.staging.stagedoor.fm', publicWebUrl: 'https://staging.stagedoor.fm', stripePublishableKey: '' },
  demo: { publicApiUrl: 'https://api.demo.stagedoor.fm', publicWebUrl: 'https://demo.stagedoor.fm', stripePublishableKey: '' },
  production: { publicApiUrl: 'https://api.stagedoor.fm', publicWebUrl: 'https://app.stagedoor.fm', stripePublishableKey: '' },
};

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());
const optionalUrl = z.preprocess(emptyAsUndefined, z.url().optional());
const port = (fallback: number) => z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).default(fallback));

/** The named ranges both Fastify and express understand (proxy-addr), for a configuration that reads plainly. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** An address, a CIDR range (10.0.0.0/8, fd00::/8) or one of PROXY_RANGE_NAMES. */
function isProxyAddress(value: string) {
  if (PROXY_RANGE_NAMES.includes(value)) return true;
  const [address, bits, ...rest] = value.split('/');
  const version = net.isIP(address);
  if (!version || rest.length) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128));
}

/** A comma-separated setting as its parts (trimmed, empty ones dropped), or undefined when it is empty or unset. */
const commaParts = (value: unknown) =>
  typeof value === 'string' && value.trim()
    ? value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)
    : undefined;

const proxyList = z.preprocess(
  commaParts,
  z
    .array(z.string().refine(isProxyAddress, 'must be IP addresses or CIDR ranges separated by commas, e.g. 10.0.0.5,10.1.0.0/16'))
    .default(['loopback']),
);

/** Origins separated by commas (`https://fans.example,https://www.fans.example`), each read as a URL's origin. */
const originList = z.preprocess(
  commaParts,
  z
    .array(
      z
        .url('must be origins separated by commas, e.g. https://fans.example,https://www.fans.example')
        .transform((url) => new URL(url).origin),
    )
    .default([]),
);

export const EnvSchema = z.object({
  APP_ENV: z.preprocess(emptyAsUndefined, z.enum(APP_ENVS).default('local')),
  /** all: web and api in one process; web or api: one tier alone, so the tiers scale separately. */
  SERVE: z.preprocess(emptyAsUndefined, z.enum(['all', 'web', 'api']).default('all')),
  HOST: z.preprocess(emptyAsUndefined, z.string().default('0.0.0.0')),
  PORT: port(3000),
  API_PORT: port(8080),
  /**
   * The proxies whose X-Forwarded-For both tiers believe: the load balancer, and the web tier's address when it runs
   * apart from the api. Anyone else's header is ignored, so no client chooses its own address for the rate limits.
   */
  TRUSTED_PROXIES: proxyList,
  /** Where the browser reaches the api (each environment has its own API base). */
  PUBLIC_API_URL: optionalUrl,
  /** Where the web server reaches the api; defaults to loopback on API_PORT. */
  API_URL: optionalUrl,
  /** The web app's own public address, used in links sent by mail. */
  PUBLIC_WEB_URL: optionalUrl,
  /**
   * More origins whose pages may call the api from the browser, besides PUBLIC_WEB_URL's (the web app served under a
   * second name). Every other origin is refused by CORS.
   */
  EXTRA_WEB_ORIGINS: originList,
  DATABASE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default('./data')),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_PUBLISHABLE_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  /** Where the Stripe SDK sends its calls instead of Stripe's servers (tests point it at a local stand-in). */
  STRIPE_API_URL: optionalUrl,
  /** The platform's share of every payment, in percent: Stripe Connect's application fee; the rest is the artist's. */
  PLATFORM_FEE_PERCENT: z.preprocess(emptyAsUndefined, z.coerce.number().min(0).max(50).default(10)),
  SMTP_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  MAIL_FROM: z.preprocess(emptyAsUndefined, z.string().default('Stagedoor <no-reply@stagedoor.fm>')),
  REDIS_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
      .optional(),
  ),
  MARKETING_URL: z.preprocess(emptyAsUndefined, z.url().default('https://stagedoor.fm')),
  /** How long an API session token lives, in days. The cookie itself lives one year. */
  SESSION_TTL_DAYS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(3650).default(365)),
  /** Seed demo content into an empty database on start (on by default so a fresh machine shows a live app). */
  SEED_DEMO: z.preprocess(emptyAsUndefined, z.enum(['true', 'false']).default('true')),
  LOG_LEVEL: z.preprocess(emptyAsUndefined, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  /** The schema that holds the job queue's tables (pg-boss); api nodes sharing a queue share it. */
  JOBS_SCHEMA: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,50}$/, 'must be a lowercase schema name')
      .default('pgboss'),
  ),
  /** Scales the number of jobs this api node runs at once (1: the defaults of api/jobs/index.ts); 0 runs none. */
  JOB_CONCURRENCY: z.preprocess(emptyAsUndefined, z.coerce.number().min(0).max(16).default(1)),
  /** How often an idle worker asks the queue for work, in seconds. */
  JOB_POLL_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().min(0.5).max(60).default(2)),
  /** A job still running after this many seconds is taken as lost (its process died) and retried. */
  JOB_TIMEOUT_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(3600).default(300)),
  /**
   * A media processing job (a transcode) still running after this many seconds is taken as lost and retried: long
   * enough for a 4 GB video's ladder at low priority (docs/media.md).
   */
  MEDIA_JOB_TIMEOUT_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(86_400).default(10_800)),
  /**
   * A resumable upload that has received nothing for this many seconds is taken as abandoned and its parts removed
   * (docs/media.md): a day, time enough to come back to a dropped phone upload.
   */
  UPLOAD_EXPIRY_SECONDS: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number()
      .int()
      .min(1)
      .max(30 * 86_400)
      .default(86_400),
  ),
  /** The ffmpeg and ffprobe that process uploads; by default the PATH's, else the binaries of @ffmpeg-installer and @ffprobe-installer. */
  FFMPEG_PATH: optionalString,
  FFPROBE_PATH: optionalString,
  /**
   * Media in an S3-compatible bucket instead of DATA_DIR/media (docs/media.md): required when several api nodes
   * serve the same club. S3_ENDPOINT names a service other than AWS (MinIO, R2…); the keys may come from the
   * SDK's usual sources (AWS_* variables, an instance role) when unset here.
   */
  S3_BUCKET: optionalString,
  S3_ENDPOINT: z.preprocess(emptyAsUndefined, z.string().url('must be a URL').optional()),
  S3_REGION: z.preprocess(emptyAsUndefined, z.string().default('us-east-1')),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  /** Where in the bucket this app's media go, as a key prefix ending in a slash ('' for the whole bucket). */
  S3_PREFIX: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^([a-z0-9][a-z0-9-]*\/)*$/, 'must be lowercase path segments, each ending in /')
      .default(''),
  ),
  /** Fans told about a new post per job of the fan-out. */
  NOTIFY_BATCH_SIZE: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(5000).default(500)),
  /** Web push (VAPID) keys, as web-push generates them; when unset they are generated into DATA_DIR/vapid.json. */
  VAPID_PUBLIC_KEY: optionalString,
  VAPID_PRIVATE_KEY: optionalString,
  /**
   * Host names (or IP literals) whose push endpoints are taken although they are not public, comma-separated: for a
   * stand-in push service on loopback in tests only. Empty (the default): every endpoint must be a public host.
   */
  PUSH_ALLOW_HOSTS: z.preprocess(
    (value) => commaParts(value)?.map((host) => host.toLowerCase().replace(/^\[(.*)\]$/, '$1')),
    z.array(z.string()).default([]),
  ),
  /** Who push services may contact about our pushes: a mailto: or https: URL. */
  VAPID_SUBJECT: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^(mailto:|https:\/\/)/, 'must be a mailto: or https:// URL')
      .optional(),
  ),
  /**
   * With SERVE=all: how many processes render pages. 1 renders them in the api's process (its calls to the api stay
   * in memory); more start that many web processes beside the api's, so pages use the other cores (docs/operations.md).
   */
  WEB_PROCESSES: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(64).default(1)),
  /** Pages the web tier renders at once; the rest wait their turn (server/admission.ts). */
  PAGE_CONCURRENCY: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(1000).default(4)),
  /** How long a page may wait for its turn before it is answered 503 with Retry-After, in milliseconds. */
  PAGE_QUEUE_TIMEOUT_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(100).max(60_000).default(8000)),
  /**
   * The bearer token a Prometheus scraper presents for /metrics. Long enough not to be guessed: the metrics say how
   * busy the club is and which routes fail.
   */
  METRICS_TOKEN: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^[\x21-\x7e]{24,}$/, 'must be at least 24 printable characters without spaces (openssl rand -hex 24 makes one)')
      .optional(),
  ),
  /**
   * A port of its own for /metrics, on HOST, apart from the api's (firewalled from the public, say). Empty: /metrics is
   * on the api's port when METRICS_TOKEN is set, and nowhere otherwise.
   */
  METRICS_PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(65535).optional()),
});

/** What one variable alone cannot say: ports that must not collide. */
const CheckedEnvSchema = EnvSchema.refine(
  (e) => e.METRICS_PORT === undefined || (e.METRICS_PORT !== e.PORT && e.METRICS_PORT !== e.API_PORT),
  {
    path: ['METRICS_PORT'],
    message: 'must differ from PORT and API_PORT',
  },
);

export type Config = ReturnType<typeof parseConfig>;

export class ConfigError extends Error {}

/** Validates the environment once; a bad value throws a ConfigError whose message is one line naming the variable. */
export function parseConfig(env: NodeJS.ProcessEnv = process.env) {
  const result = CheckedEnvSchema.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`Invalid environment variable ${name}: ${issue.message} (got ${JSON.stringify(env[name] ?? '')})`);
  }
  const e = result.data;
  // Locally the public addresses follow the ports, so `API_PORT=9090 npm start` needs nothing else.
  const defaults =
    e.APP_ENV === 'local'
      ? { ...ENV_DEFAULTS.local, publicApiUrl: `http://localhost:${e.API_PORT}`, publicWebUrl: `http://localhost:${e.PORT}` }
      : ENV_DEFAULTS[e.APP_ENV];
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    appEnv: e.APP_ENV,
    serve: e.SERVE,
    webProcesses: e.WEB_PROCESSES,
    host: e.HOST,
    port: e.PORT,
    apiPort: e.API_PORT,
    trustedProxies: e.TRUSTED_PROXIES,
    publicApiUrl: stripSlash(e.PUBLIC_API_URL ?? defaults.publicApiUrl),
    apiUrl: stripSlash(e.API_URL ?? `http://127.0.0.1:${e.API_PORT}`),
    publicWebUrl: stripSlash(e.PUBLIC_WEB_URL ?? defaults.publicWebUrl),
    /** The origins whose pages call the api from the browser (CORS): the web app's own, and EXTRA_WEB_ORIGINS. */
    webOrigins: [...new Set([new URL(e.PUBLIC_WEB_URL ?? defaults.publicWebUrl).origin, ...e.EXTRA_WEB_ORIGINS])],
    databaseUrl: e.DATABASE_URL,
    dataDir,
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY,
      publishableKey: e.STRIPE_PUBLISHABLE_KEY ?? defaults.stripePublishableKey,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
      apiUrl: e.STRIPE_API_URL,
    },
    platformFeePercent: e.PLATFORM_FEE_PERCENT,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    redisUrl: e.REDIS_URL,
    marketingUrl: e.MARKETING_URL,
    sessionTtlDays: e.SESSION_TTL_DAYS,
    seedDemo: e.SEED_DEMO === 'true',
    logLevel: e.LOG_LEVEL,
    jobs: {
      schema: e.JOBS_SCHEMA,
      concurrency: e.JOB_CONCURRENCY,
      pollSeconds: e.JOB_POLL_SECONDS,
      timeoutSeconds: e.JOB_TIMEOUT_SECONDS,
    },
    media: {
      s3: e.S3_BUCKET
        ? {
            bucket: e.S3_BUCKET,
            endpoint: e.S3_ENDPOINT,
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            prefix: e.S3_PREFIX,
          }
        : undefined,
      jobTimeoutSeconds: e.MEDIA_JOB_TIMEOUT_SECONDS,
      uploadExpirySeconds: e.UPLOAD_EXPIRY_SECONDS,
      ffmpegPath: e.FFMPEG_PATH,
      ffprobePath: e.FFPROBE_PATH,
    },
    notifyBatchSize: e.NOTIFY_BATCH_SIZE,
    vapid: {
      publicKey: e.VAPID_PUBLIC_KEY,
      privateKey: e.VAPID_PRIVATE_KEY,
      subject: e.VAPID_SUBJECT ?? `mailto:${/<([^>]+)>/.exec(e.MAIL_FROM)?.[1] ?? e.MAIL_FROM}`,
    },
    pushAllowHosts: e.PUSH_ALLOW_HOSTS,
    pageConcurrency: e.PAGE_CONCURRENCY,
    pageQueueTimeoutMs: e.PAGE_QUEUE_TIMEOUT_MS,
    /** Where /metrics is served, if anywhere (docs/operations.md "Metrics and logs"). */
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT },
    /** The session cookie is Secure in every environment except local. */
    secureCookies: e.APP_ENV !== 'local',
  };
}

function stripSlash(url: string) {
  return url.replace(/\/+$/, '');
}

let cached: Config | undefined;
export function getConfig(): Config {
  cached ??= parseConfig();
  return cached;
}
