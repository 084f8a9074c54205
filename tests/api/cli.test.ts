import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_TOKEN_HEADER } from '../../api/admin/routes';
import { parseCreateArtistArgs, runCli } from '../../api/cli';
import { openDb, type Db } from '../../api/db/client';
import { captureCli, runCliProcess } from '../helpers/process';
import { acquireLock, adminTokenFile, DatabaseLockedError, lockFile, readLock, writeAdminToken } from '../../api/db/lock';
import { PRICE_MESSAGE } from '../../api/performers/create';
import { messages } from '#contract/accounts';
import { call, describeEachDatabase, login, openTestDb, startTestApi, TEST_DATABASE_URL, uniqueName, type TestApi } from '../helpers/api';

/** The operator CLI (api/cli.ts): its argument rules, its work on each database, and the PGlite lock it honours. */

// Each command opens the database itself (PGlite: a new data directory made, then eleven migrations): on a loaded
// machine a test of three commands takes more than the default 30 s.
vi.setConfig({ testTimeout: 90_000 });

const PASSWORD = 'Encore-Encore-1!';
const root = path.resolve(__dirname, '../..');
const tempDirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-cli-'));
  tempDirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

const artistArgs = (username: string, extra: string[] = []) => [
  'create-artist',
  '--username',
  username,
  '--email',
  `${username}@example.com`,
  '--password',
  PASSWORD,
  '--name',
  `Artist ${username}`,
  '--yearly-price',
  '49.99',
  ...extra,
];

/** Runs the CLI in a child process, as `npm run cli` does (through tsx here, so no build is needed). */
const runProcess = runCliProcess;

describe('cli arguments', () => {
  it('accepts a complete create-artist and turns the price into cents', () => {
    const parsed = parseCreateArtistArgs(artistArgs('NovaTwo').slice(1));
    expect(parsed).toEqual({
      help: false,
      artist: {
        username: 'novatwo',
        email: 'novatwo@example.com',
        password: PASSWORD,
        name: 'Artist NovaTwo',
        yearlyPrice: 4999,
        currency: 'usd',
      },
    });
  });

  it.each([
    [['--username', 'ab'], `--username: ${messages.usernameTooShort}`],
    [['--username', 'dj_nova'], `--username: ${messages.usernameCharacters}`],
    [['--email', 'nova-at-example'], `--email: ${messages.emailInvalid}`],
    [['--password', 'short'], `--password: ${messages.passwordTooShort}`],
    [['--password', 'longbutsimple'], `--password: ${messages.passwordComplexity}`],
    [['--name', '  '], "--name: Please enter the artist's name"],
    [['--yearly-price', '-1'], `--yearly-price: ${PRICE_MESSAGE}`],
    [['--yearly-price', '49.999'], `--yearly-price: ${PRICE_MESSAGE}`],
    [['--yearly-price', 'free'], `--yearly-price: ${PRICE_MESSAGE}`],
  ])('refuses %j with one clear line', async (override, message) => {
    const args = artistArgs('goodname');
    const at = args.indexOf(override[0]);
    // --flag=value, the one spelling that also carries a value starting with "-".
    args.splice(at, 2, `${override[0]}=${override[1]}`);
    const { io, out, err } = captureCli({});
    expect(await runCli(args, io)).toBe(2);
    expect(err).toEqual([`error: ${message}`]);
    expect(out).toEqual([]);
  });

  it('names a missing option, an unknown one, a valueless one and a stray argument', async () => {
    const cases: [string[], RegExp][] = [
      [['create-artist', '--username', 'nova'], /^error: --email is required\. Usage: npm run cli -- create-artist /],
      [[...artistArgs('nova'), '--colour', 'red'], /^error: Unknown option --colour for create-artist\./],
      [['create-artist', '--username'], /^error: --username needs a value\./],
      [
        ['create-artist', '--yearly-price', '-1'],
        /^error: --yearly-price: write --yearly-price=<value> for a value that starts with "-"\.$/,
      ],
      [[...artistArgs('nova'), 'extra'], /^error: Unexpected argument "extra" for create-artist\./],
      [['destroy-everything'], /^error: Unknown command "destroy-everything"\. Run "npm run cli -- --help"/],
    ];
    for (const [args, line] of cases) {
      const { io, err } = captureCli({});
      expect(await runCli(args, io), args.join(' ')).toBe(2);
      expect(err).toHaveLength(1);
      expect(err[0]).toMatch(line);
    }
  });

  it('prints help for the CLI and for each command', async () => {
    for (const [args, heading] of [
      [['--help'], 'Stagedoor operator CLI'],
      [[], 'Stagedoor operator CLI'],
      [['help', 'create-artist'], 'Usage: npm run cli -- create-artist'],
      [['create-artist', '--help'], 'Usage: npm run cli -- create-artist'],
      [['seed', '-h'], 'Usage: npm run cli -- seed'],
    ] as const) {
      const { io, out, err } = captureCli({});
      expect(await runCli([...args], io)).toBe(0);
      expect(out.join('\n')).toContain(heading);
      expect(err).toEqual([]);
    }
  });
});

describeEachDatabase('cli on the database itself', (database) => {
  let env: Record<string, string>;
  let db: Db;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const dataDir = tempDir();
    env = { DATA_DIR: dataDir, PUBLIC_WEB_URL: 'http://web.test' };
    if (database.name === 'PostgreSQL') {
      // A schema of its own, named through the connection string as an operator could.
      const opened = await openTestDb('PostgreSQL');
      const url = new URL(TEST_DATABASE_URL!);
      url.searchParams.set('options', `-c search_path=${opened.schema}`);
      env.DATABASE_URL = url.href;
      db = opened.db;
      cleanup = opened.drop;
    } else {
      cleanup = async () => {};
    }
  });
  afterAll(async () => {
    await cleanup?.();
  });

  /** PGlite is opened by the CLI itself, so the test looks only once it has closed it. */
  async function query<Row>(sql: string, params: unknown[] = []) {
    if (database.name === 'PostgreSQL') return db.query<Row>(sql, params);
    const lite = await openDb({ dataDir: env.DATA_DIR });
    try {
      return await lite.query<Row>(sql, params);
    } finally {
      await lite.close();
    }
  }

  it('creates an artist with a profile, then refuses the same username or email', async () => {
    const username = uniqueName('artist');
    const { io, out, err } = captureCli(env);
    expect(await runCli(artistArgs(username), io)).toBe(0);
    expect(err).toEqual([]);
    expect(out).toEqual([
      `Created artist ${username} (Artist ${username}, ${username}@example.com), $49.99 a year.`,
      `Their page: http://web.test/${username}`,
    ]);
    const [row] = await query<{ isPerformer: boolean; cents: number; name: string }>(
      `SELECT u.is_performer AS "isPerformer", p.yearly_price_cents AS cents, u.name
         FROM users u JOIN artist_profiles p ON p.user_id = u.id WHERE u.username = $1`,
      [username],
    );
    expect(row).toEqual({ isPerformer: true, cents: 4999, name: `Artist ${username}` });

    const again = captureCli(env);
    expect(await runCli(artistArgs(username), again.io)).toBe(1);
    expect(again.err).toEqual(['error: --username: That username is already taken. Please choose another.']);
    const sameEmail = captureCli(env);
    const args = artistArgs(uniqueName('other'));
    args[args.indexOf('--email') + 1] = `${username}@example.com`;
    expect(await runCli(args, sameEmail.io)).toBe(1);
    expect(sameEmail.err).toEqual(['error: --email: An account with this email address already exists. Log in instead.']);
    if (database.name === 'PGlite') expect(fs.existsSync(lockFile(env.DATA_DIR))).toBe(false);
  });

  it('suspends an account (its sessions end, the log says so), lifts it, and makes an operator', async () => {
    const username = uniqueName('artist');
    expect(await runCli(artistArgs(username), captureCli(env).io)).toBe(0);
    const [user] = await query<{ id: string }>('SELECT id FROM users WHERE username = $1', [username]);
    if (database.name === 'PostgreSQL') {
      await db.query(`INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 day')`, [
        `h-${username}`,
        user.id,
      ]);
    } else {
      const lite = await openDb({ dataDir: env.DATA_DIR });
      await lite.query(`INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 day')`, [
        `h-${username}`,
        user.id,
      ]);
      await lite.close();
    }

    const suspended = captureCli(env);
    expect(await runCli(['suspend', '--user', `${username}@example.com`, '--reason', 'Harassing fans'], suspended.io)).toBe(0);
    expect(suspended.out).toEqual([`Suspended ${username}: 1 session ended.`]);
    expect(await query('SELECT 1 FROM sessions WHERE user_id = $1', [user.id])).toEqual([]);
    expect(await query(`SELECT status FROM users WHERE id = $1`, [user.id])).toEqual([{ status: 'forbidden' }]);
    expect(
      await query(`SELECT actor_label AS actor, action, detail FROM moderation_actions WHERE subject_user_id = $1`, [user.id]),
    ).toEqual([{ actor: 'operator (CLI)', action: 'suspended account', detail: 'Harassing fans' }]);

    const lifted = captureCli(env);
    expect(await runCli(['suspend', '--user', username, '--lift'], lifted.io)).toBe(0);
    expect(lifted.out).toEqual([`Lifted the suspension of ${username}: they can sign in again.`]);
    expect(await query(`SELECT status FROM users WHERE id = $1`, [user.id])).toEqual([{ status: 'active' }]);

    const granted = captureCli(env);
    expect(await runCli(['operator', '--user', username], granted.io)).toBe(0);
    expect(granted.out).toEqual([`${username} can now open the operator pages (/operator).`]);
    expect(await query(`SELECT is_operator AS "isOperator" FROM users WHERE id = $1`, [user.id])).toEqual([{ isOperator: true }]);

    const unknown = captureCli(env);
    expect(await runCli(['suspend', '--user', 'nobody-at-all'], unknown.io)).toBe(1);
    expect(unknown.err).toEqual(["error: We couldn't find an account with that username or email."]);
    const missing = captureCli(env);
    expect(await runCli(['suspend'], missing.io)).toBe(2);
  });

  it('creates a free artist with --yearly-price 0', async () => {
    const username = uniqueName('free');
    const args = artistArgs(username);
    args[args.indexOf('--yearly-price') + 1] = '0';
    const { io, out } = captureCli(env);
    expect(await runCli(args, io)).toBe(0);
    expect(out[0]).toContain('free to join');
  });

  it('seeds, and seeding again leaves everything as it was', async () => {
    const first = captureCli(env);
    expect(await runCli(['seed'], first.io)).toBe(0);
    expect(first.out).toEqual([
      'Seeded demo content: created novaricci, thelatenights, juniperlane, demofan.',
      'Added demo content (posts, vault items, a collection) for novaricci, thelatenights, juniperlane.',
    ]);
    const second = captureCli(env);
    expect(await runCli(['seed'], second.io)).toBe(0);
    expect(second.out).toEqual(['Already there, left as they were: novaricci, thelatenights, juniperlane, demofan.']);
    const [counts] = await query<{ artists: number; subscriptions: number }>(
      `SELECT (SELECT count(*) FROM artist_profiles p JOIN users u ON u.id = p.user_id WHERE u.email LIKE '%@stagedoor.test')::int AS artists,
              (SELECT count(*) FROM subscriptions)::int AS subscriptions`,
    );
    expect(counts).toEqual({ artists: 3, subscriptions: 2 });
    // The demo content came once: the second run found it and added nothing.
    const [content] = await query<{ items: number; collections: number }>(
      `SELECT (SELECT count(*) FROM content_items)::int AS items, (SELECT count(*) FROM collections)::int AS collections`,
    );
    expect(content).toEqual({ items: 23, collections: 3 });
  });
});

describe('the embedded database lock', () => {
  it('refuses a second holder while the first lives, naming it, and takes over a stale lock', async () => {
    const dataDir = tempDir();
    // Our parent process is alive and is not us: it stands for a server that holds the lock.
    fs.writeFileSync(
      lockFile(dataDir),
      JSON.stringify({ pid: process.ppid, role: 'server', hostname: os.hostname(), startedAt: '2026-01-01T00:00:00.000Z' }),
    );
    expect(() => acquireLock(dataDir, 'cli')).toThrow(DatabaseLockedError);
    expect(() => acquireLock(dataDir, 'server')).toThrow(
      `is in use by a Stagedoor server (pid ${process.ppid}) since 2026-01-01T00:00:00.000Z`,
    );

    // A process that has exited leaves a stale lock.
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => gone.on('close', resolve));
    fs.writeFileSync(lockFile(dataDir), JSON.stringify({ pid: gone.pid, role: 'server', hostname: os.hostname(), startedAt: 'then' }));
    const lock = acquireLock(dataDir, 'cli');
    expect(readLock(dataDir)).toMatchObject({ pid: process.pid, role: 'cli' });
    lock.release();
    expect(fs.existsSync(lockFile(dataDir))).toBe(false);
  });

  it('a server replaces a lock left on another host; the CLI does not', () => {
    const dataDir = tempDir();
    const foreign = { pid: 1, role: 'server', hostname: `not-${os.hostname()}`, startedAt: 'then' };
    fs.writeFileSync(lockFile(dataDir), JSON.stringify(foreign));
    expect(() => acquireLock(dataDir, 'cli')).toThrow(`pid 1 on not-${os.hostname()}`);
    const lock = acquireLock(dataDir, 'server');
    const token = writeAdminToken(dataDir);
    expect(fs.statSync(adminTokenFile(dataDir)).mode & 0o777).toBe(0o600);
    expect(token).toMatch(/^[\w-]{40,}$/);
    lock.release();
    expect(fs.existsSync(lockFile(dataDir))).toBe(false);
    expect(fs.existsSync(adminTokenFile(dataDir))).toBe(false);
  });
});

describe('cli as a process', () => {
  it('creates an artist in a fresh DATA_DIR, and exits 2 with one line for a bad argument', async () => {
    const dataDir = tempDir();
    const username = uniqueName('proc');
    const ok = await runProcess(artistArgs(username), { DATA_DIR: dataDir });
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toContain(`Created artist ${username} (Artist ${username}, ${username}@example.com), $49.99 a year.`);
    expect(ok.code).toBe(0);
    expect(fs.existsSync(lockFile(dataDir))).toBe(false);

    const lite = await openDb({ dataDir });
    try {
      const rows = await lite.query<{ is_performer: boolean }>('SELECT is_performer FROM users WHERE username = $1', [username]);
      expect(rows).toEqual([{ is_performer: true }]);
    } finally {
      await lite.close();
    }

    const bad = await runProcess(
      ['create-artist', '--username', 'x!', '--email', 'a@b.co', '--password', PASSWORD, '--name', 'X', '--yearly-price', '1'],
      {
        DATA_DIR: dataDir,
      },
    );
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trim().split('\n')).toEqual([`error: --username: ${messages.usernameTooShort}`]);
  });

  describe('while a server holds the embedded database', () => {
    let t: TestApi;
    let dataDir: string;
    let release: () => void;
    let adminToken: string;
    beforeAll(async () => {
      dataDir = tempDir();
      const lock = acquireLock(dataDir, 'server');
      release = () => lock.release();
      adminToken = writeAdminToken(dataDir);
      t = await startTestApi({ dataDir, adminToken });
      lock.setApiUrl(t.url);
    });
    afterAll(async () => {
      release?.();
      await t?.close();
    });
    afterEach(() => {
      expect(readLock(dataDir)).toMatchObject({ pid: process.pid, role: 'server', apiUrl: t.url });
    });

    it('the CLI process sends create-artist to the server, which creates the artist', async () => {
      const username = uniqueName('viaapi');
      const result = await runProcess(artistArgs(username, []), { DATA_DIR: dataDir });
      expect(result.stderr).toBe('');
      expect(result.stdout).toContain(
        `Created artist ${username} (Artist ${username}, ${username}@example.com), $49.99 a year (through the running server, pid ${process.pid}).`,
      );
      expect(result.code).toBe(0);
      const artist = await call(t.url, 'GET', `/performers/${username}`);
      expect(artist.body.data).toMatchObject({ username, yearlyPrice: 49.99 });
      expect((await login(t, `${username}@example.com`, PASSWORD)).status).toBe(200);

      const taken = await runProcess(artistArgs(username), { DATA_DIR: dataDir });
      expect(taken.code).toBe(1);
      expect(taken.stderr.trim()).toBe('error: --username: That username is already taken. Please choose another.');
    });

    it('a server will not start on the same DATA_DIR, and says why in one line', async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
        cwd: root,
        env: { ...process.env, SERVE: 'api', API_PORT: '0', DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'silent' },
      });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      // Should it start after all, stop it rather than leave it running.
      const stray = setTimeout(() => child.kill(), 20_000);
      const code = await new Promise((resolve) => child.on('close', resolve));
      clearTimeout(stray);
      expect(code).toBe(1);
      expect(stderr.trim().split('\n')).toEqual([
        expect.stringContaining(`The embedded database in ${dataDir} is in use by a Stagedoor server (pid ${process.pid})`),
      ]);
    });

    it('the admin endpoints need this server’s token and validate like the CLI', async () => {
      const body = {
        username: uniqueName('admin'),
        email: `${randomBytes(4).toString('hex')}@example.com`,
        password: PASSWORD,
        name: 'A',
        yearlyPrice: 5,
      };
      expect((await call(t.url, 'POST', '/admin/artists', { body })).status).toBe(403);
      expect((await call(t.url, 'POST', '/admin/seed', { body: {}, headers: { [ADMIN_TOKEN_HEADER]: 'guess' } })).status).toBe(403);
      const invalid = await call(t.url, 'POST', '/admin/artists', {
        body: { ...body, yearlyPrice: 1.234 },
        headers: { [ADMIN_TOKEN_HEADER]: adminToken },
      });
      expect(invalid.status).toBe(400);
      expect(invalid.body.errors).toEqual({ yearlyPrice: [PRICE_MESSAGE] });
      const created = await call(t.url, 'POST', '/admin/artists', { body, headers: { [ADMIN_TOKEN_HEADER]: adminToken } });
      expect(created.status).toBe(200);
      expect(created.body.data).toMatchObject({ username: body.username, yearlyPrice: 5 });
    });

    it('an api started without an admin token has no admin endpoints', async () => {
      const plain = await startTestApi();
      try {
        expect((await call(plain.url, 'POST', '/admin/seed', { body: {}, headers: { [ADMIN_TOKEN_HEADER]: adminToken } })).status).toBe(
          404,
        );
      } finally {
        await plain.close();
      }
    });
  });
});
