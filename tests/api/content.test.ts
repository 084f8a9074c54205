import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessMessages } from '../../api/content/access';
import { contentMessages, formatScheduleDate, formatScheduleTime } from '#contract/content-schemas';
import { call, describeEachDatabase, startTestApi, type TestApi } from '../helpers/api';
import { createArtist, createFan, subscribe, type ContentUser as TestUser } from './content-fixtures';

let t: TestApi;

const post = (overrides: Record<string, unknown> = {}) => ({
  title: 'Tour news',
  content: '<p>See you <strong>soon</strong></p>',
  tags: 'post',
  ...overrides,
});

/** A schedule {enabled, date, time} the given number of minutes from now, in the form's UTC format. */
function scheduleIn(minutes: number) {
  const at = new Date(Date.now() + minutes * 60_000);
  return { enabled: true, date: formatScheduleDate(at), time: formatScheduleTime(at) };
}

async function create(artist: TestUser, body: Record<string, unknown>) {
  const answer = await call(t.url, 'POST', '/content', { token: artist.token, body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data;
}

/** The cast of every role: the owning artist, a subscribed fan, an unsubscribed fan and another artist. */
async function cast() {
  const [artist, fan, stranger, otherArtist] = await Promise.all([createArtist(t), createFan(t), createFan(t), createArtist(t)]);
  await subscribe(t, fan, artist);
  return { artist, fan, stranger, otherArtist };
}

const list = (user: TestUser | undefined, artist: TestUser, query: Record<string, string | number> = {}) =>
  call(t.url, 'GET', `/performers/${artist.username}/content`, { token: user?.token, query });

/** The whole file runs on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set (reported skipped otherwise). */
describeEachDatabase('content items', (database) => {
  beforeAll(async () => {
    t = await startTestApi({ database: database.name });
  });
  afterAll(async () => {
    await t?.close();
  });

  describe(`content items per role`, () => {
    it('the owning artist creates an item and gets it back with its label, state and sanitised caption', async () => {
      const { artist } = await cast();
      const item = await create(
        artist,
        post({ content: '<p onclick="x()">Hi<script>alert(1)</script> <a href="javascript:x()">there</a></p>' }),
      );
      expect(item).toMatchObject({
        performerId: artist.id,
        performer: { _id: artist.id, username: artist.username },
        type: 'post',
        typeLabel: 'Post',
        title: 'Tour news',
        content: '<p>Hi there</p>',
        state: 'published',
        mediaType: 'post',
        poll: null,
        thumbnail: null,
        media: null,
        stats: { comments: 0 },
        isBookmarked: false,
      });
      expect(typeof item._id).toBe('string');
      expect(Date.parse(item.publishAt)).toBeLessThanOrEqual(Date.now());
    });

    it('anonymous viewers get 401, unsubscribed fans and other artists 403, subscribed fans and the artist read', async () => {
      const { artist, fan, stranger, otherArtist } = await cast();
      const item = await create(artist, post());

      expect((await list(undefined, artist)).status).toBe(401);
      expect((await call(t.url, 'GET', `/content/${item._id}`)).status).toBe(401);

      for (const outsider of [stranger, otherArtist]) {
        const listed = await list(outsider, artist);
        expect(listed.status).toBe(403);
        expect(listed.body.message).toBe(accessMessages.subscribe);
        expect((await call(t.url, 'GET', `/content/${item._id}`, { token: outsider.token })).status).toBe(403);
      }

      for (const reader of [fan, artist]) {
        const listed = await list(reader, artist);
        expect(listed.status).toBe(200);
        expect(listed.body.data).toMatchObject({ total: 1, data: [{ _id: item._id, title: 'Tour news' }] });
        const got = await call(t.url, 'GET', `/content/${item._id}`, { token: reader.token });
        expect(got.status).toBe(200);
        expect(got.body.data._id).toBe(item._id);
      }

      // Once the other artist subscribes, they read like any fan.
      await subscribe(t, otherArtist, artist);
      expect((await list(otherArtist, artist)).status).toBe(200);
    });

    it('only artists create, and only the owning artist edits or deletes', async () => {
      const { artist, fan, stranger, otherArtist } = await cast();
      for (const user of [fan, stranger]) {
        const refused = await call(t.url, 'POST', '/content', { token: user.token, body: post() });
        expect(refused.status).toBe(403);
        expect(refused.body.message).toBe(accessMessages.artistsOnly);
      }
      expect((await call(t.url, 'POST', '/content', { body: post() })).status).toBe(401);

      const item = await create(artist, post());
      for (const user of [fan, stranger, otherArtist]) {
        expect((await call(t.url, 'PUT', `/content/${item._id}`, { token: user.token, body: post({ title: 'Hijacked' }) })).status).toBe(
          403,
        );
        expect((await call(t.url, 'DELETE', `/content/${item._id}`, { token: user.token })).status).toBe(403);
      }
      expect((await call(t.url, 'PUT', `/content/${item._id}`, { body: post() })).status).toBe(401);
      expect((await call(t.url, 'DELETE', `/content/${item._id}`)).status).toBe(401);

      const edited = await call(t.url, 'PUT', `/content/${item._id}`, {
        token: artist.token,
        body: post({ title: 'Tour news, updated', tags: 'announcement' }),
      });
      expect(edited.status).toBe(200);
      expect(edited.body.data).toMatchObject({
        _id: item._id,
        title: 'Tour news, updated',
        type: 'announcement',
        typeLabel: 'Announcement',
      });
      // Editing a published item keeps its publish date.
      expect(edited.body.data.publishAt).toBe(item.publishAt);
      expect((await call(t.url, 'GET', `/content/${item._id}`, { token: fan.token })).body.data.title).toBe('Tour news, updated');

      expect((await call(t.url, 'DELETE', `/content/${item._id}`, { token: artist.token })).status).toBe(200);
      expect((await call(t.url, 'GET', `/content/${item._id}`, { token: fan.token })).status).toBe(404);
      expect((await call(t.url, 'GET', `/content/${item._id}`, { token: artist.token })).status).toBe(404);
      expect((await call(t.url, 'DELETE', `/content/${item._id}`, { token: artist.token })).status).toBe(404);
    });

    it('answers 404 for an unknown artist or item', async () => {
      const { fan } = await cast();
      expect((await call(t.url, 'GET', '/performers/nobodyhere/content', { token: fan.token })).status).toBe(404);
      expect((await call(t.url, 'GET', '/content/00000000-0000-0000-0000-000000000000', { token: fan.token })).status).toBe(404);
    });
  });

  describe(`filters and sort`, () => {
    it('filters by types, by section, and sorts newest or oldest first', async () => {
      const { artist, fan } = await cast();
      const made: Record<string, string> = {};
      for (const type of ['demo', 'live', 'post', 'tourDiary', 'announcement'])
        made[type] = (await create(artist, post({ title: type, tags: type })))._id;
      // Publish times one minute apart, demo the oldest.
      for (const [index, type] of ['demo', 'live', 'post', 'tourDiary', 'announcement'].entries()) {
        await t.db.query(`UPDATE content_items SET publish_at = now() - make_interval(mins => $2) WHERE id = $1`, [made[type], 10 - index]);
      }
      const titles = async (query: Record<string, string | number>) => {
        const answer = await list(fan, artist, query);
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        return { titles: answer.body.data.data.map((item: { title: string }) => item.title), total: answer.body.data.total };
      };

      expect(await titles({})).toEqual({ titles: ['announcement', 'tourDiary', 'post', 'live', 'demo'], total: 5 });
      expect(await titles({ sort: 'asc' })).toEqual({ titles: ['demo', 'live', 'post', 'tourDiary', 'announcement'], total: 5 });
      expect(await titles({ types: 'demo,live' })).toEqual({ titles: ['live', 'demo'], total: 2 });
      // Repeated parameters work as well as a comma-separated list.
      const repeated = await call(t.url, 'GET', `/performers/${artist.username}/content?types=demo&types=tourDiary&sort=asc`, {
        token: fan.token,
      });
      expect(repeated.body.data.data.map((item: { title: string }) => item.title)).toEqual(['demo', 'tourDiary']);
      expect(await titles({ section: 'vault' })).toEqual({ titles: ['tourDiary', 'live', 'demo'], total: 3 });
      expect(await titles({ section: 'posts' })).toEqual({ titles: ['announcement', 'tourDiary', 'post'], total: 3 });
      expect(await titles({ limit: 2, offset: 1 })).toEqual({ titles: ['tourDiary', 'post'], total: 5 });

      const bad = await list(fan, artist, { types: 'demo,podcast' });
      expect(bad.status).toBe(400);
      expect((await list(fan, artist, { sort: 'sideways' })).status).toBe(400);
      // Queries are parsed once per query string: asked again, a bad one is refused again, a good one answers the same.
      expect((await list(fan, artist, { types: 'demo,podcast' })).status).toBe(400);
      expect(await titles({ types: 'demo,live' })).toEqual({ titles: ['live', 'demo'], total: 2 });
    });

    it('the Poll filter finds poll items and posts that carry a poll', async () => {
      const { artist, fan } = await cast();
      const poll = { enabled: true, title: 'Which song?', answers: [{ text: 'A' }, { text: 'B' }] };
      await create(artist, post({ title: 'a poll', tags: 'poll', poll }));
      await create(artist, post({ title: 'a post with a poll', tags: 'post', poll }));
      await create(artist, post({ title: 'a plain post', tags: 'post' }));
      const answer = await list(fan, artist, { types: 'poll', sort: 'asc' });
      expect(answer.body.data.data.map((item: { title: string }) => item.title)).toEqual(['a poll', 'a post with a poll']);
    });
  });

  describe(`drafts and scheduled items`, () => {
    it('fans never see drafts; the artist sees them with their state', async () => {
      const { artist, fan } = await cast();
      const draft = await create(artist, post({ title: 'Draft', draft: true }));
      expect(draft.state).toBe('draft');
      const published = await create(artist, post({ title: 'Out now' }));

      const fans = await list(fan, artist);
      expect(fans.body.data).toMatchObject({ total: 1, data: [{ _id: published._id }] });
      expect((await call(t.url, 'GET', `/content/${draft._id}`, { token: fan.token })).status).toBe(404);

      const own = await list(artist, artist);
      expect(own.body.data.total).toBe(2);
      expect(own.body.data.data.map((item: { state: string }) => item.state).sort()).toEqual(['draft', 'published']);
      expect((await list(artist, artist, { state: 'draft' })).body.data.data.map((item: { _id: string }) => item._id)).toEqual([draft._id]);
      // A fan's state filter is ignored: they only ever get published items.
      expect((await list(fan, artist, { state: 'draft' })).body.data.total).toBe(1);

      // Publishing the draft makes it visible.
      const out = await call(t.url, 'PUT', `/content/${draft._id}`, { token: artist.token, body: post({ title: 'Draft, now out' }) });
      expect(out.body.data.state).toBe('published');
      expect((await call(t.url, 'GET', `/content/${draft._id}`, { token: fan.token })).status).toBe(200);
    });

    it('a scheduled item stays hidden from fans until its time, then shows with no job run', async () => {
      const { artist, fan } = await cast();
      const scheduled = await create(artist, post({ title: 'Later', schedule: scheduleIn(60) }));
      expect(scheduled.state).toBe('scheduled');
      expect(scheduled.schedule).toMatchObject({ enabled: true });
      expect(Date.parse(scheduled.publishAt)).toBeGreaterThan(Date.now() + 50 * 60_000);

      expect((await list(fan, artist)).body.data.total).toBe(0);
      expect((await call(t.url, 'GET', `/content/${scheduled._id}`, { token: fan.token })).status).toBe(404);
      expect((await list(artist, artist)).body.data.data[0]).toMatchObject({ _id: scheduled._id, state: 'scheduled' });

      // Its time comes.
      await t.db.query(`UPDATE content_items SET publish_at = now() - interval '1 second' WHERE id = $1`, [scheduled._id]);
      const visible = await call(t.url, 'GET', `/content/${scheduled._id}`, { token: fan.token });
      expect(visible.status).toBe(200);
      expect(visible.body.data.state).toBe('published');
      expect((await list(fan, artist)).body.data.total).toBe(1);
    });

    it('a draft keeps the schedule it was saved with and stays hidden after that time', async () => {
      const { artist, fan } = await cast();
      const draft = await create(artist, post({ draft: true, schedule: scheduleIn(30) }));
      expect(draft).toMatchObject({ state: 'draft', schedule: { enabled: true } });
      await t.db.query(`UPDATE content_items SET publish_at = now() - interval '1 minute' WHERE id = $1`, [draft._id]);
      expect((await call(t.url, 'GET', `/content/${draft._id}`, { token: fan.token })).status).toBe(404);
    });
  });

  describe(`validation with the spec's messages`, () => {
    it('answers 400 with every failing field', async () => {
      const { artist } = await cast();
      const refused = await call(t.url, 'POST', '/content', {
        token: artist.token,
        body: {
          title: '',
          content: '<p> </p>',
          tags: '',
          poll: { enabled: true, title: 'q'.repeat(51), answers: [{ text: ' ' }] },
          schedule: { enabled: true, date: '31/02/2030', time: '25:00' },
        },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual({
        title: [contentMessages.titleRequired],
        content: [contentMessages.captionRequired],
        tags: [contentMessages.tagsRequired],
        'poll.title': [contentMessages.pollTitleTooLong],
        'poll.answers': [contentMessages.pollAnswersTooFew],
        'poll.answers.0.text': [contentMessages.pollAnswerRequired],
        'schedule.date': [contentMessages.scheduleDateRequired],
        'schedule.time': [contentMessages.scheduleTimeInvalid],
      });
    });

    it('refuses a schedule less than 10 minutes ahead, on the time field', async () => {
      const { artist } = await cast();
      const refused = await call(t.url, 'POST', '/content', { token: artist.token, body: post({ schedule: scheduleIn(5) }) });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual({ 'schedule.time': ['Scheduled time and date must be at least 10 minutes in the future.'] });
      expect((await call(t.url, 'POST', '/content', { token: artist.token, body: post({ schedule: scheduleIn(12) }) })).status).toBe(201);
    });

    it('counts the caption limit on visible text after sanitising', async () => {
      const { artist } = await cast();
      const long = 'a'.repeat(4000);
      expect(
        (await call(t.url, 'POST', '/content', { token: artist.token, body: post({ content: `<p><em>${long}</em></p>` }) })).status,
      ).toBe(201);
      const refused = await call(t.url, 'POST', '/content', { token: artist.token, body: post({ content: `<p>${long}!</p>` }) });
      expect(refused.body.errors).toEqual({ content: [contentMessages.captionTooLong] });
      // A caption that is only a script has nothing left to read.
      const empty = await call(t.url, 'POST', '/content', { token: artist.token, body: post({ content: '<script>alert(1)</script>' }) });
      expect(empty.body.errors).toEqual({ content: [contentMessages.captionRequired] });
    });

    it('accepts a plain-text caption and keeps its paragraphs', async () => {
      const { artist } = await cast();
      const item = await create(artist, post({ content: 'Line one\nline two\n\nSecond <paragraph>' }));
      expect(item.content).toBe('<p>Line one<br />line two</p><p>Second &lt;paragraph&gt;</p>');
    });

    it('takes type as another name for tags', async () => {
      const { artist } = await cast();
      const item = await create(artist, { title: 'Voice', content: 'hello', type: 'voicenote' });
      expect(item).toMatchObject({ type: 'voicenote', typeLabel: 'Voice Note' });
    });

    it('needs the ticket link for a ticket presale', async () => {
      const { artist, fan } = await cast();
      const refused = await call(t.url, 'POST', '/content', { token: artist.token, body: post({ tags: 'ticketPresale' }) });
      expect(refused.status).toBe(400);
      expect(Object.keys(refused.body.errors ?? {})).toEqual(['presale.ticketUrl']);
      const item = await create(
        artist,
        post({
          tags: 'ticketPresale',
          presale: { ticketUrl: 'https://tickets.example/show', saleStartsAt: '2030-07-01T10:00:00Z', saleEndsAt: '2030-07-03T10:00:00Z' },
        }),
      );
      const read = await call(t.url, 'GET', `/content/${item._id}`, { token: fan.token });
      expect(read.body.data.presale).toEqual({
        ticketUrl: 'https://tickets.example/show',
        saleStartsAt: '2030-07-01T10:00:00.000Z',
        saleEndsAt: '2030-07-03T10:00:00.000Z',
      });
    });
  });

  describe(`polls in the post form`, () => {
    it('editing keeps the answers that keep their id, with their votes', async () => {
      const { artist, fan } = await cast();
      const item = await create(artist, post({ poll: { enabled: true, title: 'Q', answers: [{ text: 'A' }, { text: 'B' }] } }));
      const [a, b] = item.poll.answers;
      await call(t.url, 'POST', `/polls/${item.poll._id}/vote`, { token: fan.token, body: { answerId: a._id } });
      const edited = await call(t.url, 'PUT', `/content/${item._id}`, {
        token: artist.token,
        body: post({ poll: { enabled: true, title: 'Q?', answers: [{ id: a._id, text: 'A!' }, { text: 'C' }] } }),
      });
      expect(edited.body.data.poll).toMatchObject({
        _id: item.poll._id,
        title: 'Q?',
        answers: [
          { _id: a._id, text: 'A!', votes: 1 },
          { text: 'C', votes: 0 },
        ],
        totalVotes: 1,
      });
      expect(edited.body.data.poll.answers.map((answer: { _id: string }) => answer._id)).not.toContain(b._id);
      const off = await call(t.url, 'PUT', `/content/${item._id}`, { token: artist.token, body: post({ poll: { enabled: false } }) });
      expect(off.body.data.poll).toBeNull();
    });
  });

  describe(`indexes`, () => {
    /** The plan of a query when sequential scans are ruled out: it names the index a list query can rely on. */
    async function plan(sql: string, params: unknown[]) {
      return t.db.transaction(async (tx) => {
        await tx.query('SET LOCAL enable_seqscan = off');
        const rows = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      });
    }

    it('every list query has an index to read', async () => {
      const id = '00000000-0000-0000-0000-000000000000';
      expect(
        await plan(
          `SELECT id FROM content_items c WHERE c.artist_id = $1 AND (c.state <> 'draft' AND c.publish_at <= now())
            ORDER BY c.publish_at DESC, c.id DESC LIMIT 20`,
          [id],
        ),
      ).toMatch(/content_items_visible(_type)?_idx/);
      expect(
        await plan(`SELECT id FROM content_items c WHERE c.artist_id = $1 ORDER BY c.publish_at DESC, c.id DESC LIMIT 20`, [id]),
      ).toMatch(/content_items_artist_idx/);
      expect(
        await plan(`SELECT id FROM comments WHERE item_id = $1 AND deleted_at IS NULL ORDER BY created_at DESC, id DESC LIMIT 20`, [id]),
      ).toMatch(/comments_item_idx/);
      expect(await plan(`SELECT item_id FROM bookmarks WHERE user_id = $1 ORDER BY created_at DESC LIMIT 20`, [id])).toMatch(
        /bookmarks_user_idx/,
      );
      expect(await plan(`SELECT item_id FROM collection_items WHERE collection_id = $1 ORDER BY position LIMIT 50`, [id])).toMatch(
        /collection_items_order_idx/,
      );
      expect(await plan(`SELECT id FROM collections WHERE artist_id = $1 ORDER BY created_at DESC, id DESC LIMIT 20`, [id])).toMatch(
        /collections_artist_idx/,
      );
    });
  });
});
