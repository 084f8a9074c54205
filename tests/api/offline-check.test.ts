import { afterAll, beforeAll, expect, it } from 'vitest';
import { OFFLINE_CHECK_LIMIT, OFFLINE_CHECKS_PER_USER, offlineMessages } from '#contract/offline';
import { call, describeEachDatabase, startTestApi, type TestApi } from '../helpers/api';
import { createArtist, createFan, subscribe, type ContentUser } from './content-fixtures';

/**
 * GET /content/offline-check (docs/listening.md "Offline"): which of the items saved in a browser the fan may still
 * open, by the vault's rule, for all of them in one call; ids that are not item ids, or too many of them, are a 400;
 * a fan asking again and again is limited; and a check of a hundred items costs a handful of queries, not a hundred
 * reads.
 */
describeEachDatabase('offline check', (database) => {
  let t: TestApi;
  let artist: ContentUser;
  let other: ContentUser;

  beforeAll(async () => {
    t = await startTestApi({ database: database.name });
    [artist, other] = await Promise.all([createArtist(t), createArtist(t)]);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function post(by: ContentUser, body: Record<string, unknown> = {}) {
    const created = await call<{ _id: string }>(t.url, 'POST', '/content', {
      token: by.token,
      body: { title: 'Saved', content: 'Track', tags: 'post', ...body },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.data._id;
  }
  /** The check as the web tier asks it: the ids as repeated parameters. */
  async function check(viewer: ContentUser | undefined, ids: string[]) {
    const search = new URLSearchParams(ids.map((id) => ['id', id]));
    return call<{ playable: string[] }>(t.url, 'GET', `/content/offline-check?${search}`, { token: viewer?.token });
  }

  it('answers by the vault’s rule: a member’s, a lapsed fan’s kept items, never another club’s, a draft or a deleted item', async () => {
    const [member, lapsed, stranger] = await Promise.all([createFan(t), createFan(t), createFan(t)]);
    await subscribe(t, member, artist);
    const old = await post(artist);
    const newer = await post(artist);
    const draft = await post(artist, { draft: true });
    const deleted = await post(artist);
    const elsewhere = await post(other);
    await call(t.url, 'DELETE', `/content/${deleted}`, { token: artist.token });
    // The lapsed fan paid for a year that ended an hour ago; `old` came out while they paid, `newer` after.
    await t.db.query(`UPDATE content_items SET publish_at = now() - interval '2 days' WHERE id = $1`, [old]);
    await t.db.query(
      `INSERT INTO subscriptions (user_id, artist_id, status, type, price_paid_cents, started_at, expires_at)
       VALUES ($1, $2, 'expired', 'yearly', 499, now() - interval '1 year', now() - interval '1 hour')`,
      [lapsed.id, artist.id],
    );
    const asked = [old, newer, draft, deleted, elsewhere, 'no-such-item'];

    expect((await check(member, asked)).body.data.playable).toEqual([old, newer]);
    expect((await check(lapsed, asked)).body.data.playable).toEqual([old]);
    expect((await check(stranger, asked)).body.data.playable).toEqual([]);
    // Its artist may open all of theirs, the draft included.
    expect((await check(artist, asked)).body.data.playable).toEqual([old, newer, draft]);
    expect((await check(undefined, asked)).status).toBe(401);
    expect((await check(member, [])).body.data.playable).toEqual([]);
  });

  it('refuses with a 400 and a clear message an id with NUL, an overlong id, an id of other characters, too many ids', async () => {
    const fan = await createFan(t);
    const cases: [string[], string][] = [
      [['abc\u0000def'], 'NUL'],
      [['x'.repeat(65)], offlineMessages.badId],
      [['../users/me'], offlineMessages.badId],
      [[''], offlineMessages.badId],
      [Array.from({ length: OFFLINE_CHECK_LIMIT + 1 }, (_, i) => `item-${i}`), offlineMessages.tooMany],
    ];
    for (const [ids, message] of cases) {
      const refused = await check(fan, ids);
      expect(refused.status, ids[0]).toBe(400);
      expect(refused.body.message).toContain(message);
    }
    // The same id twice is one id; the limit counts distinct ones.
    expect(
      (
        await check(
          fan,
          Array.from({ length: OFFLINE_CHECK_LIMIT + 5 }, () => 'item-1'),
        )
      ).status,
    ).toBe(200);
  });

  it('limits the checks of one fan, with Retry-After, and not those of another', async () => {
    const [busy, calm] = await Promise.all([createFan(t), createFan(t)]);
    for (let i = 0; i < OFFLINE_CHECKS_PER_USER.points; i++) expect((await check(busy, ['item-1'])).status).toBe(200);
    const limited = await check(busy, ['item-1']);
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe(offlineMessages.tooOften);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await check(calm, ['item-1'])).status).toBe(200);
  });

  it('costs a few queries for a hundred items of two clubs, as for one', async () => {
    const fan = await createFan(t);
    await subscribe(t, fan, artist);
    const ids = [];
    for (let i = 0; i < OFFLINE_CHECK_LIMIT / 2; i++) {
      const [mine, theirs] = await t.db.query<{ id: string }>(
        `INSERT INTO content_items (artist_id, type, title, content, state, publish_at)
         VALUES ($1, 'post', 'Bulk', 'x', 'published', now()), ($2, 'post', 'Bulk', 'x', 'published', now()) RETURNING id`,
        [artist.id, other.id],
      );
      ids.push(mine.id, theirs.id);
    }
    const db = t.api.ctx.db;
    const query = db.query.bind(db);
    const sent: string[] = [];
    db.query = ((sql: string, params?: unknown[]) => {
      if (!sql.includes(t.config.jobs.schema)) sent.push(sql);
      return query(sql, params);
    }) as typeof db.query;
    try {
      const one = await check(fan, ids.slice(0, 1));
      const queriesForOne = sent.length;
      sent.length = 0;
      const hundred = await check(fan, ids);
      expect(one.body.data.playable).toHaveLength(1);
      expect(hundred.body.data.playable).toHaveLength(OFFLINE_CHECK_LIMIT / 2);
      expect(sent.length).toBeLessThanOrEqual(queriesForOne + 3);
    } finally {
      db.query = query;
    }
  });
});
