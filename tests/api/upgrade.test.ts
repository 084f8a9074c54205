import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createApi } from '../../api/app';
import { openDb, QUERY_TIMEOUT_MS, type Db } from '../../api/db/client';
import { migrate, MIGRATION_LOCK } from '../../api/db/migrate';
import { migrations } from '../../api/db/migrations/index';
import { DEMO_ARTISTS, seedIfEmpty } from '../../api/db/seed';
import { call, describeEachDatabase, TEST_DATABASE_URL } from '../helpers/api';
import { parseConfig } from '#contract/config';

/**
 * An install made by an earlier release (tests/fixtures/schema-0014.sql: the schema after migrations 0001–0014 and a
 * small club in it) is upgraded by today's migrate(): every row is still there, the later migrations did what they say
 * to the old rows, and the api answers for them. And several nodes starting at once on an empty PostgreSQL database
 * migrate it once between them.
 */
const FIXTURE = fs.readFileSync(path.resolve(__dirname, '../fixtures/schema-0014.sql'), 'utf8');
const PASSWORD = /every account's password is (\S+)/.exec(FIXTURE)![1];
const OLD_IDS = migrations.slice(0, 14).map((m) => m.id);
const NEW_IDS = migrations.slice(14).map((m) => m.id);

/** An empty database of that kind, nothing migrated: PGlite in memory, or a PostgreSQL schema of its own. */
async function emptyDb(kind: 'PGlite' | 'PostgreSQL', max = 5) {
  if (kind === 'PGlite') {
    const db = await openDb({ dataDir: null });
    return { db, schema: undefined, open: async () => db, drop: () => db.close() };
  }
  const schema = `up_${randomBytes(6).toString('hex')}`;
  const opened: Db[] = [];
  const open = async () => {
    const db = await openDb({ databaseUrl: TEST_DATABASE_URL!, schema, max });
    opened.push(db);
    return db;
  };
  const db = await open();
  return {
    db,
    schema,
    open,
    async drop() {
      await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await db.query(`DROP SCHEMA IF EXISTS "${schema}_jobs" CASCADE`);
      for (const each of opened) await each.close();
    },
  };
}

/** Every table's row count, by name. */
async function rowCounts(db: Db) {
  const tables = await db.query<{ name: string }>(
    `SELECT relname AS name FROM pg_class WHERE relkind = 'r' AND relnamespace = current_schema()::regnamespace ORDER BY 1`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) counts[name] = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${name}"`))[0].n;
  return counts;
}

describeEachDatabase('upgrading a database made by the release of migration 0014', (database) => {
  let target: Awaited<ReturnType<typeof emptyDb>>;
  let before: Record<string, number>;
  let applied: string[];
  beforeAll(async () => {
    target = await emptyDb(database.name);
    await target.db.exec(FIXTURE);
    before = await rowCounts(target.db);
    applied = await migrate(target.db);
  }, 120_000);
  afterAll(() => target?.drop());

  it('applies exactly the migrations the old release did not have, and none again', async () => {
    expect(applied).toEqual(NEW_IDS);
    const recorded = await target.db.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
    expect(recorded.map((r) => r.id)).toEqual([...OLD_IDS, ...NEW_IDS]);
    expect(await migrate(target.db)).toEqual([]);
  });

  it('keeps every row of every old table', async () => {
    expect(before.users).toBe(4);
    expect(before.payments).toBe(2);
    expect(before.messages).toBe(2);
    const after = await rowCounts(target.db);
    for (const [table, count] of Object.entries(before)) if (table !== 'schema_migrations') expect(after[table], table).toBe(count);
    expect(after.schema_migrations).toBe(migrations.length);
  });

  it('keeps the money as it was, and gives the old gift its year as migration 0015 says', async () => {
    const payments = await target.db.query<{ kind: string; amount: number; fee: number; refunded: number }>(
      `SELECT kind, amount_cents AS amount, fee_cents AS fee, refunded_cents AS refunded FROM payments ORDER BY created_at`,
    );
    expect(payments).toEqual([
      { kind: 'subscribe', amount: 4900, fee: 490, refunded: 0 },
      { kind: 'gift', amount: 4900, fee: 490, refunded: 0 },
    ]);
    const [gift] = await target.db.query<{ from: Date; until: Date }>(`SELECT period_from AS "from", period_until AS until FROM gifts`);
    expect(new Date(gift.from).toISOString()).toBe('2026-10-06T08:00:00.000Z');
    expect(new Date(gift.until).toISOString()).toBe('2027-10-06T08:00:00.000Z');
    const [mara] = await target.db.query<{ status: string; type: string; paid: number; expires: Date }>(
      `SELECT s.status, s.type, s.price_paid_cents AS paid, s.expires_at AS expires FROM subscriptions s JOIN users u ON u.id = s.user_id
        WHERE u.username = 'mara'`,
    );
    expect({ ...mara, expires: new Date(mara.expires).toISOString() }).toEqual({
      status: 'active',
      type: 'yearly',
      paid: 4900,
      expires: '2027-10-01T09:00:00.000Z',
    });
    // Columns added since default sensibly for the old rows.
    const [owls] = await target.db.query<{ operator: boolean }>(`SELECT is_operator AS operator FROM users WHERE username = 'nightowls'`);
    expect(owls.operator).toBe(false);
  });

  it('serves the old club through today’s api: the artist page, the fan’s membership, content, messages and payments', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-upgrade-'));
    const config = parseConfig({
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      JOBS_SCHEMA: target.schema ? `${target.schema}_jobs` : 'pgboss',
    } as unknown as NodeJS.ProcessEnv);
    const api = await createApi({ config, db: target.db });
    const url = `http://127.0.0.1:${await api.listen(0, '127.0.0.1')}`;
    try {
      const page = await call(url, 'GET', '/performers/nightowls');
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      expect(page.body.data).toMatchObject({ username: 'nightowls', name: 'The Night Owls' });

      const login = async (username: string) => {
        const answer = await call(url, 'POST', '/auth/login', { body: { username, password: PASSWORD } });
        expect(answer.status, `${username} signs in with the password of the old release`).toBe(200);
        return answer.body.data.token as string;
      };
      const mara = await login('mara@old-release.test');
      const asMara = await call(url, 'GET', '/performers/nightowls', { token: mara });
      // Her paid year runs to 2027-10-01 (a run after that date sees it over, as the app should).
      expect(asMara.body.data.isSubscribed).toBe(Date.now() < Date.parse('2027-10-01T09:00:00Z'));

      const content = await call(url, 'GET', '/performers/nightowls/content', { token: mara });
      expect(content.status, JSON.stringify(content.body)).toBe(200);
      const titles = JSON.stringify(content.body.data);
      for (const title of ['Van demo', 'Tour dates are in', 'Which song opens the set?']) expect(titles).toContain(title);

      const conversations = await call(url, 'GET', '/conversations', { token: mara });
      expect(conversations.status).toBe(200);
      expect(JSON.stringify(conversations.body.data)).toContain('Will you play Lanterns in Leeds?');

      const artist = await login('nightowls');
      const unread = await call(url, 'GET', '/messages/total-unread-messages', { token: artist });
      expect(unread.status).toBe(200);
      expect(JSON.stringify(unread.body.data)).toMatch(/\b1\b/);
      const payments = await call(url, 'GET', '/performers/me/payments', { token: artist });
      expect(payments.status, JSON.stringify(payments.body)).toBe(200);
      expect(JSON.stringify(payments.body.data)).toContain('mara');
    } finally {
      await api.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

/**
 * A database of its own for a test that takes the migration lock: advisory locks are per database, so holding it here
 * keeps other test files migrating their schemas in the shared test database from waiting on this one.
 */
async function ownDatabase() {
  const name = `stagedoor_up_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  const opened: Db[] = [];
  return {
    url: url.href,
    async open() {
      const db = await openDb({ databaseUrl: url.href, max: 2 });
      opened.push(db);
      return db;
    },
    async drop() {
      for (const db of opened) await db.close();
      await admin.query(`DROP DATABASE "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

describe.skipIf(!TEST_DATABASE_URL)('several nodes starting together on an empty PostgreSQL database', () => {
  it('both migrate() calls succeed and each migration is applied once', async () => {
    // A few rounds: a race between two nodes shows only now and then.
    for (let round = 0; round < 4; round++) {
      const database = await ownDatabase();
      try {
        const nodes = [await database.open(), await database.open()];
        const results = await Promise.all(nodes.map((db) => migrate(db)));
        expect(results.flat().sort(), `round ${round}`).toEqual(migrations.map((m) => m.id).sort());
        const rows = await nodes[0].query<{ id: string; n: number }>('SELECT id, count(*)::int AS n FROM schema_migrations GROUP BY id');
        expect(rows).toHaveLength(migrations.length);
        expect(await migrate(nodes[1])).toEqual([]);
      } finally {
        await database.drop();
      }
    }
  }, 120_000);

  it('with SEED_DEMO, one of them seeds the demo accounts and the other finds them', async () => {
    const database = await ownDatabase();
    try {
      const nodes = [await database.open(), await database.open()];
      await migrate(nodes[0]);
      const seeded = await Promise.all(nodes.map((db) => seedIfEmpty(db)));
      expect(seeded.sort()).toEqual([false, true]);
      const [{ n }] = await nodes[0].query<{ n: number }>('SELECT count(*)::int AS n FROM users');
      expect(n).toBe(Object.keys(DEMO_ARTISTS).length + 1);
      expect(await seedIfEmpty(nodes[1])).toBe(false);
    } finally {
      await database.drop();
    }
  }, 120_000);

  it('a node that finds another migrating waits for it, longer than any ordinary query may take', async () => {
    const database = await ownDatabase();
    // Another node in the middle of a long migration: it holds the lock for longer than QUERY_TIMEOUT_MS.
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    try {
      await other.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      const node = await database.open();
      const migrating = migrate(node);
      const outcome = await Promise.race([
        migrating.then(
          () => 'done',
          (error: Error) => error.message,
        ),
        sleep(QUERY_TIMEOUT_MS + 1500),
      ]);
      expect(outcome, 'still waiting for the other node').toBeUndefined();
      await other.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
      expect(await migrating).toEqual(migrations.map((m) => m.id));
    } finally {
      await other.end();
      await database.drop();
    }
  }, 60_000);
});
