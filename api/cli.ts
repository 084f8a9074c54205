import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { formatPrice } from '#contract/money';
import { ConfigError, parseConfig, type Config } from '#contract/config';
import { ADMIN_TOKEN_HEADER } from './admin/routes.js';
import { isNewPgliteDir, openDb, type Db } from './db/client.js';
import { BadBackupError, verifyBackup } from './backup/archive.js';
import { backupStream, snapshotDatabase } from './backup/backup.js';
import { checkSchema, restoreBackup, RestoreRefusedError, type RestoreSummary } from './backup/restore.js';
import { acquireLock, DatabaseLockedError, isLive, readAdminToken, readLock, adminTokenFile, type LockHolder } from './db/lock.js';
import { migrate } from './db/migrate.js';
import { seed, type SeedSummary } from './db/seed.js';
import { createMediaStorage } from './storage/index.js';
import { ApiError, type FieldErrors } from './http.js';
import { createArtist, NewArtistSchema, type CreatedArtist } from './performers/create.js';
import { createPromo, NewPromoSchema, type CreatedPromo } from './payments/promos.js';
import { JobsCommandSchema, runJobsCommand, type JobsAnswer } from './jobs/admin.js';
import { createJobQueue } from './jobs/queue.js';
import { createCacheForDb } from './cache/broadcast.js';
import { tag } from './cache/tags.js';
import { operatorRefund, OperatorRefundSchema, type OperatorRefund } from './payments/refunds.js';
import { createStripeGateway } from './payments/stripe-gateway.js';
import { createTestGateway } from './payments/test-gateway.js';
import { endMembership, EndMembershipSchema, type EndedMembership } from './subscriptions/end.js';
import { SuspendSchema } from '#contract/moderation';
import { CLI_ACTOR, grantOperator, OperatorSchema, suspendAccount, type Suspension } from './moderation/suspend.js';
import { possessive } from '#contract/names';

/**
 * The operator CLI (`npm run cli -- <command>`). With PostgreSQL it connects directly. With the embedded database it
 * never opens PGlite beside a running server: it sends the command to that server's admin endpoint instead, and
 * otherwise takes the database lock itself for the few seconds it needs (api/db/lock.ts).
 */

const USAGE = 'npm run cli --';

const HELP = `Stagedoor operator CLI

Usage: ${USAGE} <command> [options]

Commands:
  backup          Write everything (database, media, the generated push keys) to one file, while the server runs
  create-artist   Create an artist account (isPerformer) with a profile
  create-promo    Create a promo code for an artist's fan club (percent or amount off the first year)
  end-membership  End a fan's membership of an artist's fan club today, without a refund
  jobs            List background jobs by state; retry failed ones (the dead letters)
  refund          Refund a fan's latest payment to an artist (all of it, or an amount), by Stripe or the test gateway
  seed            Add the demo artists, the demo fan and the fan's subscriptions (skips whatever exists)
  suspend         Suspend an account (its sessions end at once; it cannot sign in), or lift a suspension
  operator        Let an account open the operator pages (/operator: every report, suspensions), or stop it
  restore         Put a backup file back into an empty database and data directory (or replace everything: --force)

Run "${USAGE} <command> --help" for the options of one command.
It works whether or not the server is running. It reads DATA_DIR and DATABASE_URL like the server does.`;

const CREATE_ARTIST_HELP = `Usage: ${USAGE} create-artist --username U --email E --password P --name N --yearly-price 49.99 [--currency gbp]

Creates an artist account and its profile. The artist signs in with the email (or username) and password.

Options:
  --username       letters and digits only, 3 to 30 characters (stored lowercased); the artist's page is /<username>
  --email          the artist's email address
  --password       at least 10 characters with an uppercase and a lowercase letter, a number and a special character
  --name           the name shown to fans, e.g. "Nova Ricci"
  --yearly-price   the yearly subscription price in major units, e.g. 49.99; 0 makes joining free
  --currency       usd (default), eur or gbp: what fans pay in (the artist can change it until the first payment)
  -h, --help       show this help`;

const CREATE_PROMO_HELP = `Usage: ${USAGE} create-promo --artist U --code C (--percent-off N | --amount-off A) [--expires-at DATE] [--max-redemptions N]

Creates a promo code that fans type on the payment page (or bring as ?promo=C). It takes a percent or an amount off
the first year; renewals are at the full price.

Options:
  --artist            the artist's username
  --code              3 to 40 letters, digits, dashes or underscores; fans may type it in any case
  --percent-off       1 to 100
  --amount-off        an amount in major units, e.g. 5 or 4.99 (give this or --percent-off)
  --expires-at        optional: the code stops working at this date and time, e.g. 2027-01-31 or 2027-01-31T18:00Z
  --max-redemptions   optional: how many payments may use it
  -h, --help          show this help`;

const REFUND_HELP = `Usage: ${USAGE} refund --artist U --fan EMAIL [--amount N] [--keep-access] [--reason TEXT]

Refunds the fan's latest payment to the artist's fan club through the gateway it was made with (Stripe's refund
API, or the test gateway), and mails the fan. A full refund ends the fan's membership unless --keep-access.

Options:
  --artist        the artist's username
  --fan           the fan's email address
  --amount        optional: how much to give back in major units, e.g. 10 or 4.99 (default: all that is left)
  --keep-access   a full refund leaves the membership running
  --reason        optional: what the fan is told (default "Refunded by Stagedoor support.")
  -h, --help      show this help`;

const END_MEMBERSHIP_HELP = `Usage: ${USAGE} end-membership --artist U --fan EMAIL

Ends the fan's running membership of the artist's fan club today, without a refund (a membership given in error, a
fan's own request by mail): it stops renewing and its year ends now. A membership Stripe renews is cancelled at
Stripe first (STRIPE_SECRET_KEY must be set); if Stripe cannot be told, nothing ends. When the artist lets fans
keep what they paid for, the items published before today stay the fan's; use refund to take the money (and the
access) back instead.

Options:
  --artist        the artist's username
  --fan           the fan's email address
  -h, --help      show this help`;

const JOBS_HELP = `Usage: ${USAGE} jobs [--state S] [--limit N] | --retry ID | --retry-failed

Background jobs (mail, pushes, scheduled posts, renewals) and how many there are in each state. A job that has run
out of retries is "failed": it stays listed (two weeks) until it is retried.

Options:
  --state          list only jobs in this state: created, retry, active, completed, cancelled or failed
  --limit          how many jobs to list, newest first (default 50)
  --retry ID       send one failed job round again
  --retry-failed   send every failed job round again
  -h, --help       show this help`;

const SUSPEND_HELP = `Usage: ${USAGE} suspend --user USERNAME_OR_EMAIL [--reason TEXT] [--lift]

Suspends an account: every session it has ends at once (its tokens stop working, its realtime connections drop) and
signing in tells it that it is suspended. The suspension and its reason go in the moderation log.

Options:
  --user      the account's username or email address
  --reason    optional: why, for the log
  --lift      lift the suspension instead: the account can sign in again
  -h, --help  show this help`;

const OPERATOR_HELP = `Usage: ${USAGE} operator --user USERNAME_OR_EMAIL [--revoke]

Lets an account open the operator pages (/operator): every club's reports, the whole moderation log, and the form
that suspends accounts.

Options:
  --user      the account's username or email address
  --revoke    take the operator pages away from the account instead
  -h, --help  show this help`;

const SEED_HELP = `Usage: ${USAGE} seed

Adds the demo artists (novaricci, thelatenights, juniperlane), the demo fan (demofan) and the fan's two
subscriptions. Accounts that already exist are left as they are, so it is safe to run again.`;

const BACKUP_HELP = `Usage: ${USAGE} backup --to FILE

Writes the database's rows (one consistent moment, however busy the server is), every media file (DATA_DIR/media
or the S3 bucket) and the generated push keys to FILE, a gzip'd file of JSON lines, then reads it back to check it.
It works while the server runs: on the embedded database the running server takes the backup and sends it here.
An existing FILE is replaced only once the new backup is complete. docs/operations.md, "Backups", says more.

Options:
  --to        the file to write, e.g. /backups/stagedoor-$(date +%F).backup.gz
  -h, --help  show this help`;

const RESTORE_HELP = `Usage: ${USAGE} restore --from FILE [--force]

Restores a backup into this DATA_DIR (embedded database) or DATABASE_URL, and its media into DATA_DIR/media or
the S3 bucket; then runs the migrations this release has beyond the backup's. Stop the server first. It refuses a
target that holds data already, and a backup made by a newer release.

Options:
  --from      the backup file
  --force     replace whatever the database and media storage hold now (it is deleted)
  -h, --help  show this help`;

/** A failure to report in one line: usage errors exit 2, everything else 1. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  env: NodeJS.ProcessEnv;
}

const processIo: CliIo = { out: (line) => console.log(line), err: (line) => console.error(line), env: process.env };

/** Runs one CLI invocation and answers its exit code; nothing here calls process.exit, so tests can call it. */
export async function runCli(argv: string[], io: CliIo = processIo): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      io.out(
        (
          {
            'create-artist': CREATE_ARTIST_HELP,
            'create-promo': CREATE_PROMO_HELP,
            seed: SEED_HELP,
            jobs: JOBS_HELP,
            refund: REFUND_HELP,
            suspend: SUSPEND_HELP,
            operator: OPERATOR_HELP,
            backup: BACKUP_HELP,
            restore: RESTORE_HELP,
          } as Record<string, string>
        )[rest[0]] ?? HELP,
      );
      return 0;
    }
    if (command === 'create-artist') return await createArtistCommand(rest, io);
    if (command === 'create-promo') return await createPromoCommand(rest, io);
    if (command === 'seed') return await seedCommand(rest, io);
    if (command === 'jobs') return await jobsCommand(rest, io);
    if (command === 'refund') return await refundCommand(rest, io);
    if (command === 'end-membership') return await endMembershipCommand(rest, io);
    if (command === 'suspend') return await suspendCommand(rest, io);
    if (command === 'operator') return await operatorCommand(rest, io);
    if (command === 'backup') return await backupCommand(rest, io);
    if (command === 'restore') return await restoreCommand(rest, io);
    throw new CliError(`Unknown command "${command}". Run "${USAGE} --help" to see the commands.`, 2);
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`error: ${error.message}`);
      return error.exitCode;
    }
    if (error instanceof ConfigError) {
      io.err(`error: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

const FLAGS: Record<string, string> = {
  username: '--username',
  email: '--email',
  password: '--password',
  name: '--name',
  yearlyPrice: '--yearly-price',
};
const OPTIONAL_FLAGS: Record<string, string> = { currency: '--currency' };

/** Checks the create-artist arguments with the shared sign-up schemas and the price rule. */
export function parseCreateArtistArgs(args: string[]) {
  const { values } = parseCommandArgs('create-artist', args, {
    username: { type: 'string' },
    email: { type: 'string' },
    password: { type: 'string' },
    name: { type: 'string' },
    'yearly-price': { type: 'string' },
    currency: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return { help: true as const };
  const input = {
    username: values.username,
    email: values.email,
    password: values.password,
    name: values.name,
    yearlyPrice: values['yearly-price'],
    currency: values.currency?.toLowerCase(),
  };
  for (const [field, flag] of Object.entries(FLAGS)) {
    if (input[field as keyof typeof input] === undefined) {
      throw new CliError(
        `${flag} is required. Usage: ${USAGE} create-artist --username U --email E --password P --name N --yearly-price 49.99`,
        2,
      );
    }
  }
  const result = NewArtistSchema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new CliError(`${FLAGS[String(issue.path[0])] ?? OPTIONAL_FLAGS[String(issue.path[0])] ?? 'arguments'}: ${issue.message}`, 2);
  }
  return { help: false as const, artist: result.data };
}

async function createArtistCommand(args: string[], io: CliIo) {
  const parsed = parseCreateArtistArgs(args);
  if (parsed.help) {
    io.out(CREATE_ARTIST_HELP);
    return 0;
  }
  const config = parseConfig(io.env);
  const { result, via } = await execute<CreatedArtist>(config, {
    path: '/admin/artists',
    body: { ...parsed.artist, yearlyPrice: parsed.artist.yearlyPrice / 100 },
    direct: (db) => thenTellServers(db, io, createArtist(db, parsed.artist), tag.artists()),
  });
  const price = result.yearlyPrice > 0 ? `${formatPrice(result.yearlyPrice, result.currency)} a year` : 'free to join';
  io.out(`Created artist ${result.username} (${result.name}, ${result.email}), ${price}${via}.`);
  io.out(`Their page: ${config.publicWebUrl}/${result.username}`);
  return 0;
}

const PROMO_FLAGS: Record<string, string> = {
  artist: '--artist',
  code: '--code',
  percentOff: '--percent-off',
  amountOff: '--amount-off',
  expiresAt: '--expires-at',
  maxRedemptions: '--max-redemptions',
};

/** Checks the create-promo arguments with the same schema as POST /admin/promos. */
export function parseCreatePromoArgs(args: string[]) {
  const { values } = parseCommandArgs('create-promo', args, {
    artist: { type: 'string' },
    code: { type: 'string' },
    'percent-off': { type: 'string' },
    'amount-off': { type: 'string' },
    'expires-at': { type: 'string' },
    'max-redemptions': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return { help: true as const };
  for (const flag of ['artist', 'code'] as const) {
    if (values[flag] === undefined) {
      throw new CliError(`--${flag} is required. Usage: ${USAGE} create-promo --artist U --code C --percent-off 20`, 2);
    }
  }
  const input = {
    artist: values.artist,
    code: values.code,
    percentOff: values['percent-off'],
    amountOff: values['amount-off'],
    expiresAt: values['expires-at'],
    maxRedemptions: values['max-redemptions'],
  };
  const result = NewPromoSchema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new CliError(`${PROMO_FLAGS[String(issue.path[0])] ?? 'arguments'}: ${issue.message}`, 2);
  }
  return { help: false as const, promo: result.data, input };
}

async function createPromoCommand(args: string[], io: CliIo) {
  const parsed = parseCreatePromoArgs(args);
  if (parsed.help) {
    io.out(CREATE_PROMO_HELP);
    return 0;
  }
  const config = parseConfig(io.env);
  const { result, via } = await execute<CreatedPromo>(config, {
    path: '/admin/promos',
    body: parsed.input,
    direct: (db) => createPromo(db, parsed.promo),
  });
  const off = result.percentOff ? `${result.percentOff}% off` : `${formatPrice(result.amountOff ?? 0, result.currency)} off`;
  const limits = [
    result.expiresAt ? `until ${result.expiresAt}` : null,
    result.maxRedemptions ? `for ${result.maxRedemptions} payment${result.maxRedemptions === 1 ? '' : 's'}` : null,
  ].filter(Boolean);
  io.out(
    `Created promo code ${result.code} for ${result.artist}: ${off} the first year${limits.length ? `, ${limits.join(', ')}` : ''}${via}.`,
  );
  io.out(`Share it as: ${config.publicWebUrl}/${result.artist}/subscribe?promo=${encodeURIComponent(result.code)}`);
  return 0;
}

/**
 * A write done here, on PostgreSQL, that servers sharing the database keep in their read caches: once it is done,
 * they are told which tags it made stale (on PGlite no server is running while the CLI holds the database).
 */
async function thenTellServers<T>(db: Db, io: CliIo, write: Promise<T>, ...tags: string[]) {
  const result = await write;
  const { cache, close } = createCacheForDb(db, (error) => io.err(`cache: ${(error as Error).message}`));
  try {
    await cache.invalidate(...tags);
  } finally {
    await close();
  }
  return result;
}

async function seedCommand(args: string[], io: CliIo) {
  const { values } = parseCommandArgs('seed', args, { help: { type: 'boolean', short: 'h' } });
  if (values.help) {
    io.out(SEED_HELP);
    return 0;
  }
  const config = parseConfig(io.env);
  const { result, via } = await execute<SeedSummary>(config, {
    path: '/admin/seed',
    body: {},
    direct: (db) => thenTellServers(db, io, seed(db, { storage: createMediaStorage(config) }), tag.artists()),
  });
  if (result.created.length) io.out(`Seeded demo content${via}: created ${result.created.join(', ')}.`);
  if (result.existing.length) io.out(`Already there, left as they were: ${result.existing.join(', ')}.`);
  if (result.content?.length) io.out(`Added demo content (posts, vault items, a collection) for ${result.content.join(', ')}.`);
  return 0;
}

async function jobsCommand(args: string[], io: CliIo) {
  const { values } = parseCommandArgs('jobs', args, {
    state: { type: 'string' },
    limit: { type: 'string' },
    retry: { type: 'string' },
    'retry-failed': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.out(JOBS_HELP);
    return 0;
  }
  const input = values['retry-failed']
    ? { action: 'retry-failed' }
    : values.retry !== undefined
      ? { action: 'retry', id: values.retry }
      : { action: 'list', state: values.state, limit: values.limit };
  const parsed = JobsCommandSchema.safeParse(input);
  if (!parsed.success) throw new CliError(`${parsed.error.issues[0].message}. Run "${USAGE} jobs --help".`, 2);
  const config = parseConfig(io.env);
  const { result } = await execute<JobsAnswer>(config, {
    path: '/admin/jobs',
    body: parsed.data,
    direct: async (db) => {
      const jobs = createJobQueue({ db, ...config.jobs, concurrency: 0, onError: (error) => io.err(`job queue: ${error.message}`) });
      await jobs.start();
      try {
        return await runJobsCommand(jobs, parsed.data);
      } finally {
        await jobs.stop();
      }
    },
  });
  if ('retried' in result) {
    io.out(
      result.retried.length
        ? `Retrying ${result.retried.length} failed job${result.retried.length === 1 ? '' : 's'}: ${result.retried.join(', ')}`
        : 'No failed jobs to retry.',
    );
    return 0;
  }
  const { counts, jobs } = result.summary;
  if (!counts.length) {
    io.out('No jobs yet.');
    return 0;
  }
  io.out('queue                 state       jobs');
  for (const row of counts) io.out(`${row.queue.padEnd(22)}${row.state.padEnd(12)}${row.count}`);
  if (jobs.length) {
    io.out('');
    io.out(`${parsed.data.action === 'list' && parsed.data.state ? `${parsed.data.state} jobs` : 'Newest jobs'}:`);
    for (const job of jobs) {
      const tries = `try ${job.retryCount + 1}/${job.retryLimit + 1}`;
      io.out(
        `${job.id}  ${job.queue.padEnd(20)} ${job.state.padEnd(9)} ${tries.padEnd(10)} ${job.createdAt}${job.error ? `  ${job.error}` : ''}`,
      );
    }
  }
  return 0;
}

async function refundCommand(args: string[], io: CliIo) {
  const { values } = parseCommandArgs('refund', args, {
    artist: { type: 'string' },
    fan: { type: 'string' },
    amount: { type: 'string' },
    'keep-access': { type: 'boolean' },
    reason: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.out(REFUND_HELP);
    return 0;
  }
  for (const flag of ['artist', 'fan'] as const) {
    if (values[flag] === undefined)
      throw new CliError(`--${flag} is required. Usage: ${USAGE} refund --artist U --fan EMAIL [--amount N]`, 2);
  }
  const input = {
    artist: values.artist,
    fan: values.fan,
    amount: values.amount,
    keepAccess: values['keep-access'] ?? false,
    reason: values.reason,
  };
  const parsed = OperatorRefundSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CliError(`--${String(issue.path[0] ?? 'arguments').replace('keepAccess', 'keep-access')}: ${issue.message}`, 2);
  }
  const config = parseConfig(io.env);
  const { result, via } = await execute<OperatorRefund>(config, {
    path: '/admin/refunds',
    body: input,
    direct: async (db) => {
      // No server is running on this database (or it is PostgreSQL, which its nodes share): do it here, with a
      // queue that only sends (the refund mail goes out when a server works the queue) and a cache that tells them.
      const jobs = createJobQueue({ db, ...config.jobs, concurrency: 0, onError: (error) => io.err(`job queue: ${error.message}`) });
      const { cache, close } = createCacheForDb(db, (error) => io.err(`cache: ${(error as Error).message}`));
      await jobs.start();
      try {
        const gateway = config.stripe.secretKey ? createStripeGateway(db, config) : createTestGateway(db, config);
        const log = { error: (o: unknown, m: string) => io.err(m), warn: (o: unknown, m: string) => io.err(m) };
        return await operatorRefund({ db, cache, jobs, config, gateway, log }, parsed.data);
      } finally {
        await jobs.stop();
        await close();
      }
    },
  });
  io.out(
    `Refunded ${result.refunded} of ${result.paid} to ${result.fan} for ${possessive(result.artist)} fan club; ` +
      `${result.endedAccess ? 'their membership has ended' : 'their membership carries on'}${via}.`,
  );
  return 0;
}

async function endMembershipCommand(args: string[], io: CliIo) {
  const { values } = parseCommandArgs('end-membership', args, {
    artist: { type: 'string' },
    fan: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.out(END_MEMBERSHIP_HELP);
    return 0;
  }
  for (const flag of ['artist', 'fan'] as const) {
    if (values[flag] === undefined) throw new CliError(`--${flag} is required. Usage: ${USAGE} end-membership --artist U --fan EMAIL`, 2);
  }
  const input = { artist: values.artist, fan: values.fan };
  const parsed = EndMembershipSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CliError(`--${String(issue.path[0] ?? 'arguments')}: ${issue.message}`, 2);
  }
  const config = parseConfig(io.env);
  const { result, via } = await execute<EndedMembership>(config, {
    path: '/admin/memberships/end',
    body: input,
    direct: async (db) => {
      // The running servers' caches hear of the change through the database, as with a refund.
      const { cache, close } = createCacheForDb(db, (error) => io.err(`cache: ${(error as Error).message}`));
      try {
        // A membership Stripe renews is cancelled there too (the test gateway renews nothing).
        const gateway = config.stripe.secretKey ? createStripeGateway(db, config) : null;
        return await endMembership({ db, cache, gateway }, parsed.data);
      } finally {
        await close();
      }
    },
  });
  io.out(
    `Ended ${possessive(result.fan)} membership of ${possessive(result.artist)} fan club on ${result.endedAt.slice(0, 10)}, without a refund${via}.`,
  );
  return 0;
}

async function suspendCommand(args: string[], io: CliIo) {
  const { values } = parseCommandArgs('suspend', args, {
    user: { type: 'string' },
    reason: { type: 'string' },
    lift: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.out(SUSPEND_HELP);
    return 0;
  }
  if (values.user === undefined) throw new CliError(`--user is required. Usage: ${USAGE} suspend --user USERNAME_OR_EMAIL`, 2);
  const input = { user: values.user, reason: values.reason, lift: values.lift ?? false };
  const parsed = SuspendSchema.safeParse(input);
  if (!parsed.success)
    throw new CliError(`--${String(parsed.error.issues[0].path[0] ?? 'arguments')}: ${parsed.error.issues[0].message}`, 2);
  const config = parseConfig(io.env);
  const { result, via } = await execute<Suspension>(config, {
    path: '/admin/suspensions',
    body: input,
    direct: async (db) => {
      // Servers on the same PostgreSQL hear through the database that the account's cached sessions are gone.
      const { cache, close } = createCacheForDb(db, (error) => io.err(`cache: ${(error as Error).message}`));
      try {
        return await suspendAccount({ db, cache }, parsed.data, CLI_ACTOR);
      } finally {
        await close();
      }
    },
  });
  io.out(
    result.suspended
      ? `Suspended ${result.user}: ${result.sessionsEnded} session${result.sessionsEnded === 1 ? '' : 's'} ended${via}.`
      : `Lifted the suspension of ${result.user}: they can sign in again${via}.`,
  );
  return 0;
}

async function operatorCommand(args: string[], io: CliIo) {
  const { values } = parseCommandArgs('operator', args, {
    user: { type: 'string' },
    revoke: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.out(OPERATOR_HELP);
    return 0;
  }
  if (values.user === undefined) throw new CliError(`--user is required. Usage: ${USAGE} operator --user USERNAME_OR_EMAIL`, 2);
  const input = { user: values.user, revoke: values.revoke ?? false };
  const parsed = OperatorSchema.safeParse(input);
  if (!parsed.success) throw new CliError(`--user: ${parsed.error.issues[0].message}`, 2);
  const config = parseConfig(io.env);
  const { result, via } = await execute<{ user: string; operator: boolean }>(config, {
    path: '/admin/operators',
    body: input,
    direct: (db) => grantOperator(db, parsed.data),
  });
  io.out(
    result.operator
      ? `${result.user} can now open the operator pages (/operator)${via}.`
      : `${result.user} can no longer open the operator pages${via}.`,
  );
  return 0;
}

async function backupCommand(args: string[], io: CliIo) {
  const { values } = parseCommandArgs('backup', args, { to: { type: 'string' }, help: { type: 'boolean', short: 'h' } });
  if (values.help) {
    io.out(BACKUP_HELP);
    return 0;
  }
  if (!values.to) throw new CliError(`--to is required. Usage: ${USAGE} backup --to FILE`, 2);
  const config = parseConfig(io.env);
  const file = path.resolve(values.to);
  if (!fs.existsSync(path.dirname(file))) throw new CliError(`--to: the folder ${path.dirname(file)} does not exist.`, 2);
  // Written aside and renamed into place once checked: a failed backup never replaces a good one.
  const partial = `${file}.partial-${process.pid}`;
  let via = '';
  try {
    const write = async (db: Db) => {
      const snapshot = await snapshotDatabase(db, config.jobs.schema).catch((error: Error) => {
        if (/schema_migrations/.test(error.message))
          throw new CliError('The database has no Stagedoor tables yet: there is nothing to back up.');
        throw error;
      });
      await pipeline(
        backupStream(snapshot, { storage: createMediaStorage(config), dataDir: config.dataDir }),
        fs.createWriteStream(partial, { mode: 0o600 }),
      );
    };
    if (config.databaseUrl) {
      const db = await openDb({ databaseUrl: config.databaseUrl, max: 2 });
      try {
        await write(db);
      } finally {
        await db.close();
      }
    } else {
      via = await withEmbeddedDb(config, 'backup', write, (holder) => backupViaServer(config, holder, partial));
    }
    const { manifest } = await verifyBackup(partial).catch((error: Error) => {
      throw new CliError(`The backup written to ${partial} does not read back (${error.message}); it has been removed.`);
    });
    fs.renameSync(partial, file);
    const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
    const media = manifest.files.filter((entry) => entry.kind === 'media');
    const bytes = media.reduce((sum, entry) => sum + entry.size, 0);
    io.out(
      `Backed up ${rows} rows in ${manifest.tables.length} tables and ${media.length} media files (${formatBytes(bytes)}) ` +
        `to ${file} (${formatBytes(fs.statSync(file).size)})${via}.`,
    );
    return 0;
  } finally {
    fs.rmSync(partial, { force: true });
  }
}

async function restoreCommand(args: string[], io: CliIo) {
  const { values } = parseCommandArgs('restore', args, {
    from: { type: 'string' },
    force: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.out(RESTORE_HELP);
    return 0;
  }
  if (!values.from) throw new CliError(`--from is required. Usage: ${USAGE} restore --from FILE [--force]`, 2);
  const config = parseConfig(io.env);
  const file = path.resolve(values.from);
  if (!fs.existsSync(file)) throw new CliError(`There is no backup at ${file}.`);
  if (!fs.statSync(file).isFile()) throw new CliError(`${file} is not a file.`);
  const { header } = await verifyBackup(file).catch((error: Error) => {
    if (error instanceof BadBackupError) throw new CliError(`${file} is not a usable Stagedoor backup: ${error.message}.`);
    throw new CliError(`${file} cannot be read: ${error.message}.`);
  });
  try {
    checkSchema(header);
  } catch (error) {
    if (error instanceof RestoreRefusedError) throw new CliError(`Not restored: ${error.message}.`);
    throw error;
  }
  const restore = async (db: Db) => {
    try {
      return await restoreBackup({ db, storage: createMediaStorage(config), dataDir: config.dataDir, jobs: config.jobs }, file, header, {
        force: values.force ?? false,
      });
    } catch (error) {
      if (error instanceof RestoreRefusedError) throw new CliError(`Not restored: ${error.message}.`);
      throw error;
    }
  };
  let summary: RestoreSummary | undefined;
  if (config.databaseUrl) {
    const db = await openDb({ databaseUrl: config.databaseUrl, max: 2 });
    try {
      summary = await restore(db);
    } finally {
      await db.close();
    }
  } else {
    await withEmbeddedDb(config, 'restore', async (db) => {
      summary = await restore(db);
    });
  }
  const result = summary!;
  io.out(`Restored ${result.rows} rows in ${result.tables} tables and ${result.files} files from ${file} (taken ${header.createdAt}).`);
  if (result.migrated.length) io.out(`Then migrated it to this release: ${result.migrated.join(', ')}.`);
  return 0;
}

/**
 * Runs work on the embedded database under the CLI's lock. A running server holds it: a backup is asked of the
 * server (viaServer); a restore, which replaces the database under it, is refused.
 */
async function withEmbeddedDb(
  config: Config,
  command: 'backup' | 'restore',
  work: (db: Db) => Promise<void>,
  viaServer?: (holder: LockHolder) => Promise<string>,
): Promise<string> {
  const refuse = (holder: LockHolder) =>
    new CliError(
      `The server (pid ${holder.pid}) is running on ${config.dataDir}: stop it first, then restore (a restore replaces its database).`,
    );
  const holder = readLock(config.dataDir);
  if (holder && holder.role === 'server' && isLive(holder)) {
    if (!viaServer) throw refuse(holder);
    return viaServer(holder);
  }
  if (command === 'backup' && isNewPgliteDir(config.dataDir)) {
    throw new CliError(`There is no embedded database in ${config.dataDir} to back up (is DATA_DIR right?).`);
  }
  let lock;
  try {
    lock = acquireLock(config.dataDir, 'cli');
  } catch (error) {
    if (!(error instanceof DatabaseLockedError)) throw error;
    if (error.holder?.role === 'server') {
      if (!viaServer) throw refuse(error.holder);
      return viaServer(error.holder);
    }
    throw new CliError(error.message);
  }
  try {
    const db = await openDb({ dataDir: config.dataDir });
    try {
      await work(db);
    } finally {
      await db.close();
    }
  } finally {
    lock.release();
  }
  return '';
}

/** The running server takes the backup (it holds the embedded database) and streams it into the file. */
async function backupViaServer(config: Config, first: LockHolder, file: string) {
  const deadline = Date.now() + SERVER_WAIT_MS;
  let holder: LockHolder | undefined = first;
  // A server still starting has not written its api address yet.
  while (!holder?.apiUrl) {
    if (!holder || !isLive(holder) || Date.now() > deadline) {
      throw new CliError(`The server (pid ${first.pid}) holds the database but does not answer; run the backup again once it has started.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
    holder = readLock(config.dataDir);
  }
  const token = readAdminToken(config.dataDir);
  if (!token)
    throw new CliError(
      `The server (pid ${holder.pid}) holds the database, but its admin token ${adminTokenFile(config.dataDir)} cannot be read: run the CLI as the user that runs the server.`,
    );
  let response: Response;
  try {
    response = await fetch(`${holder.apiUrl}/admin/backup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [ADMIN_TOKEN_HEADER]: token },
      body: '{}',
    });
  } catch (error) {
    throw new CliError(`The server (pid ${holder.pid}) did not answer at ${holder.apiUrl} (${(error as Error).message}).`);
  }
  if (!response.ok || !response.body) {
    const body = (await response.json().catch(() => undefined)) as { message?: string } | undefined;
    throw new CliError(`The server did not take the backup: ${body?.message ?? `HTTP ${response.status}`}.`);
  }
  await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), fs.createWriteStream(file, { mode: 0o600 }));
  return ` (taken by the running server, pid ${holder.pid})`;
}

function formatBytes(bytes: number) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

type Options = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

/** node's parseArgs, strict, with its errors turned into one line that names the command. */
function parseCommandArgs<O extends Options>(command: string, args: string[], options: O) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message = (error as Error).message;
    const help = `Run "${USAGE} ${command} --help".`;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const option = /'([^']+)'/.exec(message)?.[1] ?? 'option';
      throw new CliError(`Unknown option ${option} for ${command}. ${help}`, 2);
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      const option = /'(--?[\w-]+)/.exec(message)?.[1] ?? 'an option';
      // parseArgs will not take "-1" as a value: it could be a forgotten value followed by an option.
      if (message.includes('ambiguous')) throw new CliError(`${option}: write ${option}=<value> for a value that starts with "-".`, 2);
      throw new CliError(`${option} needs a value. ${help}`, 2);
    }
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      const value = /'([^']+)'/.exec(message)?.[1] ?? '';
      throw new CliError(`Unexpected argument "${value}" for ${command}. ${help}`, 2);
    }
    throw error;
  }
}

interface Action<T> {
  /** The admin endpoint that does the same on the running server. */
  path: string;
  body: unknown;
  direct: (db: Db) => Promise<T>;
}

/** Runs an action where it is safe: directly on PostgreSQL, through the running server, or on PGlite under our lock. */
export async function execute<T>(config: Config, action: Action<T>): Promise<{ result: T; via: string }> {
  if (config.databaseUrl) {
    const db = await openDb({ databaseUrl: config.databaseUrl, max: 2 });
    try {
      await migrate(db);
      return { result: await runDirect(db, action), via: '' };
    } finally {
      await db.close();
    }
  }
  const holder = readLock(config.dataDir);
  if (holder && holder.role === 'server' && isLive(holder)) return viaServer(config, holder, action);

  let lock;
  try {
    lock = acquireLock(config.dataDir, 'cli');
  } catch (error) {
    if (!(error instanceof DatabaseLockedError)) throw error;
    // A server that started a moment ago holds it now: ask it instead.
    if (error.holder?.role === 'server') return viaServer(config, error.holder, action);
    throw new CliError(error.message);
  }
  try {
    const db = await openDb({ dataDir: config.dataDir });
    try {
      await migrate(db);
      return { result: await runDirect(db, action), via: '' };
    } finally {
      await db.close();
    }
  } finally {
    lock.release();
  }
}

/** An api error names the field it is about; the CLI names the option instead ("--email: …"). */
function withFlag(message: string, errors?: FieldErrors) {
  const field = Object.keys(errors ?? {})[0];
  return field && ERROR_FLAGS[field] ? `${ERROR_FLAGS[field]}: ${message}` : message;
}

/** The options an api error can be about (a promo code that does not fit the artist's price names its discount). */
const ERROR_FLAGS: Record<string, string> = { ...FLAGS, amountOff: '--amount-off', percentOff: '--percent-off' };

async function runDirect<T>(db: Db, action: Action<T>) {
  try {
    return await action.direct(db);
  } catch (error) {
    if (error instanceof ApiError) throw new CliError(withFlag(error.message, error.errors));
    throw error;
  }
}

/** How long the CLI waits for a server that holds the lock but is still starting (migrations, seed). */
const SERVER_WAIT_MS = 30_000;

async function viaServer<T>(config: Config, first: LockHolder, action: Action<T>): Promise<{ result: T; via: string }> {
  const deadline = Date.now() + SERVER_WAIT_MS;
  let holder: LockHolder | undefined = first;
  let lastError = '';
  while (Date.now() < deadline) {
    if (!holder || !isLive(holder)) {
      throw new CliError(`The server (pid ${first.pid}) stopped while this command waited for it; run the command again.`);
    }
    if (holder.apiUrl) {
      const token = readAdminToken(config.dataDir);
      if (!token) {
        const file = adminTokenFile(config.dataDir);
        const reason = fs.existsSync(file) ? 'cannot be read: run the CLI as the user that runs the server' : 'is missing';
        throw new CliError(`The server (pid ${holder.pid}) holds the database, but its admin token ${file} ${reason}.`);
      }
      try {
        const response = await fetch(`${holder.apiUrl}${action.path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [ADMIN_TOKEN_HEADER]: token },
          body: JSON.stringify(action.body),
          signal: AbortSignal.timeout(Math.max(1000, deadline - Date.now())),
        });
        const body = (await response.json().catch(() => undefined)) as
          { status?: number; data?: T; message?: string; errors?: FieldErrors } | undefined;
        if (response.ok && body?.status === 0) return { result: body.data as T, via: ` (through the running server, pid ${holder.pid})` };
        throw new CliError(body?.message ? withFlag(body.message, body.errors) : `The server answered HTTP ${response.status}.`);
      } catch (error) {
        if (error instanceof CliError) throw error;
        lastError = (error as Error).message;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
    holder = readLock(config.dataDir);
  }
  throw new CliError(
    `The database is in use by the server (pid ${first.pid}), which did not answer at ${holder?.apiUrl ?? 'its api address'}` +
      `${lastError ? ` (${lastError})` : ''}; run the command where the server runs, or stop the server first.`,
  );
}

function isEntryPoint() {
  if (!process.argv[1]) return false;
  try {
    return import.meta.url === pathToFileURL(fs.realpathSync(process.argv[1])).href;
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
