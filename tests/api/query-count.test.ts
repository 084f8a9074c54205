import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { call, describeEachDatabase, startTestApi, type TestApi } from '../helpers/api';
import { createArtist, createFan, subscribe, type ContentUser } from './content-fixtures';

/**
 * No N+1: the busiest reads make the same number of database queries for a page of 5 as for a page
 * of 30, whatever each item carries (polls, presales, bookmarks). The counts are pinned, so a change that adds
 * a query per call shows up here, with the number.
 */
describeEachDatabase('database queries per call', (database) => {
  let t: TestApi;
  let artist: ContentUser;
  let fan: ContentUser;
  let conversationId: string;
  let quietConversationId: string;
  let busyItemId: string;
  let quietItemId: string;
  let queries = 0;

  beforeAll(async () => {
    t = await startTestApi({ database: database.name });
    artist = await createArtist(t);
    fan = await createFan(t);
    await subscribe(t, fan, artist);
    for (let i = 0; i < 30; i++) {
      const body =
        i % 3 === 0
          ? {
              title: `Poll ${i}`,
              content: 'Pick one',
              tags: 'poll',
              poll: { enabled: true, title: 'Which?', answers: [{ text: 'A' }, { text: 'B' }] },
            }
          : i % 3 === 1
            ? {
                title: `Presale ${i}`,
                content: 'Members first',
                tags: 'ticketPresale',
                presale: { ticketUrl: 'https://tickets.example.com/x' },
              }
            : { title: `Post ${i}`, content: 'Hello', tags: 'post' };
      const created = await call<{ _id: string }>(t.url, 'POST', '/content', { token: artist.token, body });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      if (i % 2 === 0) await call(t.url, 'POST', `/content/${created.body.data._id}/bookmark`, { token: fan.token });
    }
    const opened = await call<{ _id: string }>(t.url, 'POST', '/conversations', {
      token: fan.token,
      body: { source: 'performer', sourceId: artist.id },
    });
    conversationId = opened.body.data._id;
    for (let i = 0; i < 30; i++) {
      await t.db.query(`INSERT INTO messages (conversation_id, sender_id, text) VALUES ($1, $2, $3)`, [
        conversationId,
        i % 2 ? fan.id : artist.id,
        `message ${i}`,
      ]);
    }
    await t.db.query(`UPDATE conversations SET last_message_text = 'message 29', last_message_at = now() WHERE id = $1`, [conversationId]);
    // Issue 23: an item with 200 comments and one with 3, and a conversation of 300 messages beside one of 5 (a second
    // fan's), for the pages' calls: what a page costs must not grow with what it pages through.
    const items = await call<{ data: { _id: string }[] }>(t.url, 'GET', `/performers/${artist.username}/content`, {
      token: fan.token,
      // Two items of one kind (a poll or a presale asks for its own parts).
      query: { limit: 2, types: 'post' },
    });
    [busyItemId, quietItemId] = items.body.data.data.map((item) => item._id);
    await t.db.query(
      `INSERT INTO comments (item_id, author_id, text, created_at)
       SELECT $1, $2, 'comment ' || n, now() - n * interval '1 minute' FROM generate_series(1, 200) AS n`,
      [busyItemId, fan.id],
    );
    await t.db.query(
      `INSERT INTO comments (item_id, author_id, text, created_at)
       SELECT $1, $2, 'comment ' || n, now() - n * interval '1 minute' FROM generate_series(1, 3) AS n`,
      [quietItemId, fan.id],
    );
    await t.db.query(
      `INSERT INTO messages (conversation_id, sender_id, text, created_at)
       SELECT $1, $2, 'old message ' || n, now() - n * interval '1 minute' FROM generate_series(1, 270) AS n`,
      [conversationId, fan.id],
    );
    const otherFan = await createFan(t);
    await subscribe(t, otherFan, artist);
    const quiet = await call<{ _id: string }>(t.url, 'POST', '/conversations', {
      token: otherFan.token,
      body: { source: 'performer', sourceId: artist.id },
    });
    quietConversationId = quiet.body.data._id;
    for (let i = 0; i < 5; i++) {
      await t.db.query(`INSERT INTO messages (conversation_id, sender_id, text) VALUES ($1, $2, $3)`, [
        quietConversationId,
        i % 2 ? otherFan.id : artist.id,
        `message ${i}`,
      ]);
    }
    // The 30 new items each start a fan-out (new-post notifications) in the background: let the queue run dry first,
    // so the counts below are the calls' own.
    await vi.waitFor(
      async () => {
        const [pending] = await t.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${t.config.jobs.schema}.job WHERE state IN ('created', 'retry', 'active') AND start_after <= now()`,
        );
        expect(pending?.n).toBe(0);
      },
      { timeout: 30_000, interval: 100 },
    );
    // Count every query the api sends from here on (its own db: t.db is the test's door behind the api), but for the
    // job queue's: its workers poll and its supervisor sweeps on their own clock, in the middle of any call.
    const apiDb = t.api.ctx.db;
    const query = apiDb.query.bind(apiDb);
    const jobTables = `${t.config.jobs.schema}.`;
    apiDb.query = ((sql: string, params?: unknown[]) => {
      if (!sql.includes(jobTables)) queries += 1;
      return query(sql, params);
    }) as typeof apiDb.query;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The queries of one call with nothing cached (the read cache would hide a per-item query on a repeat). */
  async function count(path: string, query: Record<string, string | number>, token = fan.token) {
    t.api.ctx.cache.clear();
    queries = 0;
    const answer = await call(t.url, 'GET', path, { token, query });
    expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
    return queries;
  }

  it.each([
    ['the content list', () => `/performers/${artist.username}/content`, {}],
    ['the posts list (types)', () => `/performers/${artist.username}/content`, { types: 'post,poll,ticketPresale' }],
    ['the bookmarks', () => '/bookmarks', { performer: '{artist}' }],
    ['a conversation’s messages', () => `/messages/conversations/${conversationId}`, { sort: 'desc' }],
  ])('%s: the same queries for 5 items as for 30', async (_name, path, extra) => {
    const query = Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, v === '{artist}' ? artist.username : v]));
    const few = await count(path(), { ...query, limit: 5 });
    const many = await count(path(), { ...query, limit: 30 });
    expect(many).toBe(few);
    expect(few).toBeGreaterThan(0);
    expect(few).toBeLessThanOrEqual(10);
  });

  it('an item page (the item and its first page of comments): the same queries for 3 comments as for 200', async () => {
    const itemPage = async (id: string) =>
      (await count(`/content/${id}`, {})) + (await count(`/content/${id}/comments`, { offset: 0, limit: 20 }));
    const quiet = await itemPage(quietItemId);
    const busy = await itemPage(busyItemId);
    expect(busy).toBe(quiet);
    // 13 with nothing cached: the comments' read asks once whether the viewer is blocked in the club (kept in the read
    // cache until the club's moderation changes, so a warm page asks nothing more).
    expect(quiet).toBeLessThanOrEqual(13);
  });

  it('an item page read again (the item, its comments, its transcript lines) comes from the read cache', async () => {
    const calls = [`/content/${busyItemId}`, `/content/${busyItemId}/comments`, `/content/${busyItemId}/transcript`];
    const readAll = async () => {
      for (const path of calls) expect((await call(t.url, 'GET', path, { token: fan.token })).status).toBe(200);
    };
    t.api.ctx.cache.clear();
    queries = 0;
    await readAll();
    expect(queries).toBeGreaterThan(0);
    queries = 0;
    await readAll();
    expect(queries).toBe(0);
  });

  it('a conversation page: the same queries for 5 messages as for 300', async () => {
    const quiet = await count(`/messages/conversations/${quietConversationId}`, { offset: 0, limit: 20, sort: 'desc' }, artist.token);
    const busy = await count(`/messages/conversations/${conversationId}`, { offset: 0, limit: 20, sort: 'desc' }, artist.token);
    expect(busy).toBe(quiet);
    expect(quiet).toBeLessThanOrEqual(10);
  });

  it('a conversation opened again with nothing new: marking it read writes nothing, and then asks no query', async () => {
    const readAll = () => call(t.url, 'POST', `/messages/read-all/${conversationId}`, { token: artist.token });
    t.api.ctx.cache.clear();
    const first = await readAll();
    expect(first.status).toBe(200);
    // Nothing is marked again: the read time stays the first read's (a write would have moved it).
    const second = await readAll();
    expect(second.body.data).toEqual(first.body.data);
    queries = 0;
    const third = await readAll();
    expect(queries).toBe(0);
    expect(third.body.data).toEqual(first.body.data);
  });

  it('a collection: the same queries for 5 items as for 30, and a second fan reads the page from the read cache', async () => {
    const items = await call<{ data: { _id: string }[] }>(t.url, 'GET', `/performers/${artist.username}/content`, {
      token: artist.token,
      query: { limit: 30 },
    });
    const itemIds = items.body.data.data.map((item) => item._id);
    expect(itemIds).toHaveLength(30);
    const made = await call<{ _id: string }>(t.url, 'POST', '/collections', { token: artist.token, body: { title: 'All of it', itemIds } });
    const path = `/collections/${made.body.data._id}`;
    // The first read also learns whose collection it is (remembered for good: a collection never changes hands).
    await count(path, { limit: 5 });
    const few = await count(path, { limit: 5 });
    const many = await count(path, { limit: 30 });
    expect(many).toBe(few);
    expect(few).toBeLessThanOrEqual(12);
    // The same page again for another viewer, the cache kept: only what is the viewer's own is read.
    queries = 0;
    const again = await call(t.url, 'GET', path, { token: artist.token, query: { limit: 30 } });
    expect(again.status).toBe(200);
    expect(queries).toBeLessThan(many);
  });

  it('the artist’s own list (drafts and schedules included) is no different', async () => {
    const few = await count(`/performers/${artist.username}/content`, { limit: 5 }, artist.token);
    const many = await count(`/performers/${artist.username}/content`, { limit: 30 }, artist.token);
    expect(many).toBe(few);
  });

  it('discover: the same queries for 1 artist as for 20, and a second read of the page asks only what is the fan’s own', async () => {
    const one = await count('/performers/user/search', { limit: 1 });
    const many = await count('/performers/user/search', { limit: 20 });
    expect(many).toBe(one);
    // The page again, the cache kept: which artists it holds and each artist's profile are remembered; the one query
    // left is which of them this fan subscribes to.
    queries = 0;
    const again = await call<{ data: { username: string; isSubscribed: boolean }[] }>(t.url, 'GET', '/performers/user/search', {
      token: fan.token,
      query: { limit: 20 },
    });
    expect(again.status).toBe(200);
    expect(queries).toBe(1);
    expect(again.body.data.data.find((a) => a.username === artist.username)?.isSubscribed).toBe(true);
  });

  it('the bookmarks: a second read of the same page comes from the read cache', async () => {
    const first = await count('/bookmarks', { performer: artist.username, limit: 30 });
    queries = 0;
    const again = await call(t.url, 'GET', '/bookmarks', { token: fan.token, query: { performer: artist.username, limit: 30 } });
    expect(again.status).toBe(200);
    expect(first).toBeGreaterThan(0);
    expect(queries).toBe(0);
  });
});
