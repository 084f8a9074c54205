import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi, type Api } from '../../api/app';
import { openDb, type Db } from '../../api/db/client';
import { call, startTestApi, TEST_DATABASE_URL, type TestApi } from '../helpers/api';
import { createArtist, createFan, subscribe, type ContentUser } from './content-fixtures';

/**
 * Two api nodes on one PostgreSQL database, each with its own read cache (docs/decisions/004-read-cache.md): what
 * one node changes, the other stops serving from memory as soon as PostgreSQL delivers the notice; and a node that
 * cannot hear the notices serves nothing from memory until it can again.
 */
describe.skipIf(!TEST_DATABASE_URL)(
  `the read cache across two api nodes (PostgreSQL${TEST_DATABASE_URL ? '' : ' — skipped: set TEST_DATABASE_URL=postgres://… to run it'})`,
  () => {
    let a: TestApi;
    let bDb: Db;
    let b: Api;
    let bUrl: string;
    let artist: ContentUser;
    let fan: ContentUser;

    /** Polls until check passes, for at most `ms`: a notice takes milliseconds, not seconds. */
    async function within(ms: number, check: () => Promise<boolean>) {
      const end = Date.now() + ms;
      while (!(await check())) {
        if (Date.now() > end) return false;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return true;
    }

    const titlesOn = async (url: string) => {
      const answer = await call<{ data: { title: string }[] }>(url, 'GET', `/performers/${artist.username}/content`, { token: fan.token });
      expect(answer.status).toBe(200);
      return answer.body.data.data.map((item) => item.title);
    };

    beforeAll(async () => {
      a = await startTestApi({ database: 'PostgreSQL' });
      bDb = await openDb({ databaseUrl: TEST_DATABASE_URL!, schema: a.schema, max: 3 });
      b = await createApi({ config: a.config, db: bDb });
      bUrl = `http://127.0.0.1:${await b.listen(0, '127.0.0.1')}`;
      artist = await createArtist(a);
      fan = await createFan(a);
      await subscribe(a, fan, artist);
      expect(await within(5000, async () => a.api.ctx.cache.enabled && b.ctx.cache.enabled)).toBe(true);
    });
    afterAll(async () => {
      await b?.close();
      await bDb?.close();
      await a?.close();
    });

    it('a post published through one node shows on the other at once, although the other had the list in memory', async () => {
      expect(await titlesOn(bUrl)).toEqual([]);
      const hits = b.ctx.cache.stats().hits;
      expect(await titlesOn(bUrl)).toEqual([]);
      expect(b.ctx.cache.stats().hits).toBeGreaterThan(hits);

      const created = await call(a.url, 'POST', '/content', {
        token: artist.token,
        body: { title: 'Out now', content: 'Listen', tags: 'post' },
      });
      expect(created.status).toBe(201);
      expect(await within(1000, async () => (await titlesOn(bUrl)).includes('Out now'))).toBe(true);
    });

    it('a log-out through one node ends the session on the other', async () => {
      const other = await createFan(a);
      expect((await call(bUrl, 'GET', '/users/me', { token: other.token })).status).toBe(200);
      expect((await call(a.url, 'POST', '/auth/logout', { token: other.token })).status).toBe(200);
      expect(await within(1000, async () => (await call(bUrl, 'GET', '/users/me', { token: other.token })).status === 401)).toBe(true);
    });

    it('a node that loses its listening connection serves nothing from memory until it listens again', async () => {
      await titlesOn(bUrl);
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      try {
        const channel = `stagedoor_cache_${a.schema}`;
        const cut = await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()`,
          [`listen ${channel}`],
        );
        expect(cut.rowCount).toBe(2);
        expect(await within(2000, async () => !b.ctx.cache.enabled)).toBe(true);

        // Behind both nodes' backs (no notice at all): a node that is not listening must still show it.
        await admin.query(`SET search_path = "${a.schema}"`);
        await admin.query(`UPDATE content_items SET title = 'Renamed by hand' WHERE artist_id = $1`, [artist.id]);
        expect(b.ctx.cache.enabled).toBe(false);
        expect(await titlesOn(bUrl)).toContain('Renamed by hand');

        // It listens again by itself (1 s, growing), starting empty.
        expect(await within(5000, async () => b.ctx.cache.enabled)).toBe(true);
        expect(b.ctx.cache.stats().entries).toBe(0);
        expect(await titlesOn(bUrl)).toContain('Renamed by hand');
      } finally {
        await admin.end();
      }
    });

    it('announces an invalidation at once while every pool client is busy, on the listening connection', async () => {
      const db = await openDb({ databaseUrl: TEST_DATABASE_URL!, schema: `notices${Date.now()}`, max: 1 });
      const heard: string[] = [];
      const listener = db.notifications!.listen(
        'probe',
        (payload) => heard.push(payload),
        () => {},
      );
      try {
        expect(await within(5000, async () => (await timedNotify(db, 'ready')) < 1000 && heard.includes('ready'))).toBe(true);
        // The pool's one client sleeps for 2 s: a notice that waited for it would take that long.
        const busy = db.query('SELECT pg_sleep(2)');
        expect(await timedNotify(db, 'while busy')).toBeLessThan(1000);
        expect(await within(1000, async () => heard.includes('while busy'))).toBe(true);
        await busy;
      } finally {
        await listener.close();
      }
      // Not listening: the notice goes through the pool, and still goes.
      const busy = db.query('SELECT pg_sleep(1)');
      expect(await timedNotify(db, 'through the pool')).toBeGreaterThanOrEqual(900);
      await busy;
      await db.close();
    });
  },
);

async function timedNotify(db: Db, payload: string) {
  const started = Date.now();
  await db.notifications!.notify('probe', payload);
  return Date.now() - started;
}
