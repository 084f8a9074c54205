import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HIGHLIGHT } from '#contract/search';
import { listeningMessages } from '#contract/listening';
import { transcriptMessages } from '#contract/transcript';
import { call, describeEachDatabase, startTestApi, type TestApi, whenJobsIdle } from '../helpers/api';
import { createArtist, createFan, subscribe, upload, wav, whenProcessed, type ContentUser } from './content-fixtures';

// Each test waits for ffmpeg to process its tracks: on a loaded machine that is more than the default 30 s.
vi.setConfig({ testTimeout: 120_000 });

let t: TestApi;
const ADMIN_TOKEN = 'listening-admin-token';

/** An item with a track (2 seconds unless said), once media processing has made it playable (fans see it from then). */
async function audioItem(artist: ContentUser, body: Record<string, unknown> = {}, seconds = 2) {
  const media = await upload(t, artist.token, wav(8000 * seconds), { filename: 'demo.wav', type: 'audio/wav' });
  expect(media.status).toBe(201);
  const created = await call(t.url, 'POST', '/content', {
    token: artist.token,
    body: { title: 'New demo', content: 'A rough mix', tags: 'demo', mediaId: media.body.data._id, ...body },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const item = await whenProcessed(t, artist, created.body.data._id);
  return { item, mediaId: media.body.data._id as string };
}

async function textItem(artist: ContentUser, body: Record<string, unknown> = {}) {
  const created = await call(t.url, 'POST', '/content', {
    token: artist.token,
    body: { title: 'A post', content: 'Words', tags: 'post', ...body },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data;
}

const comment = (fan: ContentUser, itemId: string, body: Record<string, unknown>) =>
  call(t.url, 'POST', `/content/${itemId}/comments`, { token: fan.token, body });

/** A file asked for with the fan's own Authorization header (not a signed link). */
async function mediaStatus(user: ContentUser, mediaId: string) {
  const response = await fetch(new URL(`/media/${mediaId}`, t.url), { headers: { authorization: `Bearer ${user.token}` } });
  await response.arrayBuffer();
  return response.status;
}

/** Moves an item's publication time (the api has no call for publishing in the past). */
const publishedAt = (itemId: string, when: string) => t.db.query(`UPDATE content_items SET publish_at = ${when} WHERE id = $1`, [itemId]);

describeEachDatabase('listening: comments on a moment, search, keep what you paid for', (database) => {
  beforeAll(async () => {
    t = await startTestApi({ database: database.name, adminToken: ADMIN_TOKEN });
  });
  // The file's uploads are processed by jobs: they finish before the api closes and its schema goes.
  afterAll(async () => {
    if (t) await whenJobsIdle(t);
    await t?.close();
  }, 180_000);

  describe('comments at a moment', () => {
    it('takes `at` in seconds and answers it; comments without one answer null', async () => {
      const [artist, fan] = await Promise.all([createArtist(t), createFan(t)]);
      await subscribe(t, fan, artist);
      const { item } = await audioItem(artist, {}, 90);
      const atChorus = await comment(fan, item._id, { text: 'This chorus!', at: 83 });
      expect(atChorus.status, JSON.stringify(atChorus.body)).toBe(201);
      expect(atChorus.body.data).toMatchObject({ text: 'This chorus!', at: 83 });
      const plain = await comment(fan, item._id, { text: 'Love it' });
      expect(plain.body.data.at).toBeNull();
      const list = await call(t.url, 'GET', `/content/${item._id}/comments`, { token: fan.token });
      expect(list.body.data.data.map((c: { text: string; at: number | null }) => [c.text, c.at])).toEqual([
        ['Love it', null],
        ['This chorus!', 83],
      ]);
    });

    it('refuses a moment before the start, past the end when the length is known, or that is not a number', async () => {
      const [artist, fan] = await Promise.all([createArtist(t), createFan(t)]);
      await subscribe(t, fan, artist);
      const { item, mediaId } = await audioItem(artist);
      const negative = await comment(fan, item._id, { text: 'Hm', at: -1 });
      expect(negative.status).toBe(400);
      expect(negative.body.errors?.at).toEqual([listeningMessages.atFormat]);
      expect((await comment(fan, item._id, { text: 'Hm', at: '1:23' })).status).toBe(400);
      // Processing measured the track (2 s); the moment must lie within the length it knows.
      await t.db.query('UPDATE media SET duration = 120 WHERE id = $1', [mediaId]);
      const past = await comment(fan, item._id, { text: 'Hm', at: 121 });
      expect(past.status).toBe(400);
      expect(past.body.errors?.at).toEqual([listeningMessages.atPastEnd]);
      expect((await comment(fan, item._id, { text: 'The end', at: 120 })).status).toBe(201);
    });

    it('refuses a moment on an item without a track or a video', async () => {
      const [artist, fan] = await Promise.all([createArtist(t), createFan(t)]);
      await subscribe(t, fan, artist);
      const post = await textItem(artist);
      const refused = await comment(fan, post._id, { text: 'At 1:23?', at: 83 });
      expect(refused.status).toBe(400);
      expect(refused.body.errors?.at).toEqual([listeningMessages.atNoMedia]);
      expect((await comment(fan, post._id, { text: 'Fine without' })).status).toBe(201);
    });
  });

  describe('transcripts', () => {
    it('the artist types a timed transcript or gives WebVTT; fans read its lines and search finds its words', async () => {
      const [artist, fan] = await Promise.all([createArtist(t), createFan(t)]);
      await subscribe(t, fan, artist);
      const { item } = await audioItem(artist, { title: 'Voice note', tags: 'voicenote' });
      const put = (transcript: string, token = artist.token) =>
        call(t.url, 'PUT', `/content/${item._id}/transcript`, { token, body: { transcript } });
      const typed = await put('0:00 Hello from the van.\n\n1:05 We saw the northern lights over the fjord.');
      expect(typed.status, JSON.stringify(typed.body)).toBe(200);
      expect(typed.body.data.cues).toEqual([
        { start: 0, end: null, text: 'Hello from the van.' },
        { start: 65, end: null, text: 'We saw the northern lights over the fjord.' },
      ]);
      const read = await call(t.url, 'GET', `/content/${item._id}/transcript`, { token: fan.token });
      expect(read.body.data.cues).toHaveLength(2);
      const found = await call(t.url, 'GET', `/performers/${artist.username}/content?section=vault&q=fjord`, { token: fan.token });
      expect(found.body.data.data.map((found: { _id: string }) => found._id)).toEqual([item._id]);

      const vtt = await put(
        'WEBVTT\n\n00:00:01.000 --> 00:00:04.500\n<v Ana>Count us in</v>\n\nNOTE a note\n\n00:00:05.000 --> 00:00:07.000\nOne, two',
      );
      expect(vtt.body.data.cues).toEqual([
        { start: 1, end: 4.5, text: 'Count us in' },
        { start: 5, end: 7, text: 'One, two' },
      ]);
      // The fan's read (kept in the read cache since the first one) shows the new lines at once.
      const reread = await call(t.url, 'GET', `/content/${item._id}/transcript`, { token: fan.token });
      expect(reread.body.data.cues.map((cue: { text: string }) => cue.text)).toEqual(['Count us in', 'One, two']);
      // The earlier words are gone from search with the transcript they were in.
      const gone = await call(t.url, 'GET', `/performers/${artist.username}/content?section=vault&q=fjord`, { token: fan.token });
      expect(gone.body.data.total).toBe(0);

      const untimed = await put('Just words without a time');
      expect(untimed.status).toBe(400);
      expect(untimed.body.errors?.transcript).toEqual([transcriptMessages.untimed]);
      expect((await put('WEBVTT\n\nnot a cue')).body.errors?.transcript).toEqual([transcriptMessages.badVtt]);
      expect((await put('0:10 Later\n\n0:05 Earlier')).body.errors?.transcript).toEqual([transcriptMessages.outOfOrder]);
      expect((await put('0:01 Not yours', fan.token)).status).toBe(403);
      // An empty text removes it.
      expect((await put('')).body.data.cues).toEqual([]);
      expect((await call(t.url, 'GET', `/content/${item._id}/transcript`, { token: fan.token })).body.data.cues).toEqual([]);
      const post = await textItem(artist);
      const refused = await call(t.url, 'PUT', `/content/${post._id}/transcript`, { token: artist.token, body: { transcript: '0:01 Hi' } });
      expect(refused.body.errors?.transcript).toEqual([transcriptMessages.notPlayable]);
    });
  });

  describe('search', () => {
    it('finds by title, caption and transcript within one artist, with filters, sort and highlights', async () => {
      const [artist, other, fan] = await Promise.all([createArtist(t), createArtist(t), createFan(t)]);
      await subscribe(t, fan, artist);
      await subscribe(t, fan, other);
      const { item: note } = await audioItem(artist, { title: 'Voice note from the van', tags: 'voicenote', content: 'Late night' });
      await t.db.query('UPDATE content_items SET transcript = $2 WHERE id = $1', [note._id, 'We drove past the lighthouse at dawn.']);
      const { item: demo } = await audioItem(artist, { title: 'Lighthouse demo', tags: 'demo' });
      await textItem(artist, { title: 'Tour news', content: '<p>Tickets for the <strong>harbour</strong> show</p>' });
      const { item: theirs } = await audioItem(other, { title: 'Their lighthouse', tags: 'voicenote' });
      await t.db.query('UPDATE content_items SET transcript = $2 WHERE id = $1', [theirs._id, 'Only in another vault: albatross.']);

      const search = async (username: string, query: string) => {
        const answer = await call(t.url, 'GET', `/performers/${username}/content?section=vault&${query}`, { token: fan.token });
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        return answer.body.data;
      };
      // A word said only in the transcript, stemmed ("drive" finds "drove" no, but "lighthouses" finds "lighthouse").
      const byTranscript = await search(artist.username, 'q=dawn');
      expect(byTranscript.data.map((item: { _id: string }) => item._id)).toEqual([note._id]);
      expect(byTranscript.data[0].highlight.excerpt).toContain(`${HIGHLIGHT.start}dawn${HIGHLIGHT.stop}`);
      const both = await search(artist.username, 'q=lighthouses');
      expect(both.total).toBe(2);
      expect(both.data.map((item: { _id: string }) => item._id)).toEqual([demo._id, note._id]);
      expect(both.data[0].highlight.title).toBe(`${HIGHLIGHT.start}Lighthouse${HIGHLIGHT.stop} demo`);
      expect((await search(artist.username, 'q=lighthouse&sort=asc')).data.map((item: { _id: string }) => item._id)).toEqual([
        note._id,
        demo._id,
      ]);
      // Filters still apply; another artist's words are not found here; the posts section finds captions.
      expect((await search(artist.username, 'q=lighthouse&types=demo')).data.map((item: { _id: string }) => item._id)).toEqual([demo._id]);
      expect((await search(artist.username, 'q=albatross')).total).toBe(0);
      expect((await search(other.username, 'q=albatross')).total).toBe(1);
      const posts = await call(t.url, 'GET', `/performers/${artist.username}/content?section=posts&q=harbour`, { token: fan.token });
      expect(posts.body.data.total).toBe(1);
      // Search text is not SQL and not tsquery syntax that can fail.
      expect((await search(artist.username, `q=${encodeURIComponent("'); DROP TABLE users; -- & | !")}`)).total).toBe(0);
      const long = await call(t.url, 'GET', `/performers/${artist.username}/content?q=${'a'.repeat(101)}`, { token: fan.token });
      expect(long.status).toBe(400);
      expect(long.body.message).toBe(listeningMessages.searchTooLong);
    });
  });

  describe('keep what you paid for', () => {
    /** A fan whose paid year ran from two years ago to one year ago; one item from then, one from after. */
    async function lapsedWorld({ status = 'canceled', pricePaidCents = 4999 } = {}) {
      const [artist, fan] = await Promise.all([createArtist(t), createFan(t)]);
      const [{ item: old, mediaId: oldMedia }, { item: newer, mediaId: newMedia }] = await Promise.all([
        audioItem(artist, { title: 'Old demo' }, 1),
        audioItem(artist, { title: 'Newer demo' }, 1),
      ]);
      await publishedAt(old._id, `now() - interval '18 months'`);
      await publishedAt(newer._id, `now() - interval '6 months'`);
      await t.db.query(
        `INSERT INTO subscriptions (user_id, artist_id, status, type, price_paid_cents, started_at, expires_at)
         VALUES ($1, $2, $3, 'yearly', $4, now() - interval '2 years', now() - interval '1 year')`,
        [fan.id, artist.id, status, pricePaidCents],
      );
      return { artist, fan, old, newer, oldMedia, newMedia };
    }

    it('a lapsed fan reads, plays and lists what was published while they paid; newer items ask them to subscribe', async () => {
      const { artist, fan, old, newer, oldMedia, newMedia } = await lapsedWorld();
      const as = { token: fan.token };
      expect((await call(t.url, 'GET', `/content/${old._id}`, as)).status).toBe(200);
      const refused = await call(t.url, 'GET', `/content/${newer._id}`, as);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('Subscribe again to join in: your membership has ended.');
      // Comments: read on a kept item, never written; nothing on a newer one.
      expect((await call(t.url, 'GET', `/content/${old._id}/comments`, as)).status).toBe(200);
      expect((await comment(fan, old._id, { text: 'Still here' })).status).toBe(403);
      expect((await call(t.url, 'GET', `/content/${newer._id}/comments`, as)).status).toBe(403);
      // Media by the fan's own header.
      expect(await mediaStatus(fan, oldMedia)).toBe(200);
      expect(await mediaStatus(fan, newMedia)).toBe(403);
      // Lists and search hold only the kept item.
      const list = await call(t.url, 'GET', `/performers/${artist.username}/content?section=vault`, as);
      expect(list.body.data.data.map((item: { _id: string }) => item._id)).toEqual([old._id]);
      const found = await call(t.url, 'GET', `/performers/${artist.username}/content?section=vault&q=demo`, as);
      expect(found.body.data.data.map((item: { _id: string }) => item._id)).toEqual([old._id]);
      // The artist says what the fan keeps; collections and the rest of the club stay for members.
      const profile = await call(t.url, 'GET', `/performers/${artist.username}`, as);
      expect(profile.body.data).toMatchObject({ isSubscribed: false, keepPaidItems: true });
      expect(profile.body.data.keptPeriod.from).toEqual(expect.any(String));
      expect((await call(t.url, 'GET', `/performers/${artist.username}/collections`, as)).status).toBe(403);
    });

    it(
      'keeps nothing when the artist turns it off, after a refund or dispute, or from a free membership',
      { timeout: 120_000 },
      async () => {
        const off = await lapsedWorld();
        const profile = await call(t.url, 'GET', `/performers/${off.artist.username}`, { token: off.artist.token });
        const put = await call(t.url, 'PUT', '/performers/me', {
          token: off.artist.token,
          body: { name: profile.body.data.name, yearlyPrice: 49.99, keepPaidItems: false },
        });
        expect(put.status, JSON.stringify(put.body)).toBe(200);
        expect(put.body.data.keepPaidItems).toBe(false);
        expect((await call(t.url, 'GET', `/content/${off.old._id}`, { token: off.fan.token })).status).toBe(403);
        expect((await call(t.url, 'GET', `/performers/${off.artist.username}/content`, { token: off.fan.token })).status).toBe(403);
        expect(await mediaStatus(off.fan, off.oldMedia)).toBe(403);

        for (const world of [
          await lapsedWorld({ status: 'refunded' }),
          await lapsedWorld({ status: 'disputed' }),
          await lapsedWorld({ pricePaidCents: 0 }),
        ]) {
          expect((await call(t.url, 'GET', `/content/${world.old._id}`, { token: world.fan.token })).status).toBe(403);
          const artist = await call(t.url, 'GET', `/performers/${world.artist.username}`, { token: world.fan.token });
          expect(artist.body.data.keptPeriod).toBeUndefined();
        }
      },
    );

    it('an operator ends a paid membership today: what came before stays the fan’s, what comes after does not', async () => {
      const [artist, fan] = await Promise.all([createArtist(t), createFan(t)]);
      await t.db.query(
        `INSERT INTO subscriptions (user_id, artist_id, status, type, price_paid_cents, started_at, expires_at)
         VALUES ($1, $2, 'active', 'yearly', 4999, now() - interval '1 day', now() + interval '1 year')`,
        [fan.id, artist.id],
      );
      const before = await textItem(artist, { title: 'Before' });
      expect((await call(t.url, 'GET', `/content/${before._id}`, { token: fan.token })).status).toBe(200);
      const admin = { 'x-stagedoor-admin-token': ADMIN_TOKEN };
      const ended = await call(t.url, 'POST', '/admin/memberships/end', {
        headers: admin,
        body: { artist: artist.username, fan: `${fan.username}@example.com` },
      });
      expect(ended.status, JSON.stringify(ended.body)).toBe(200);
      const after = await textItem(artist, { title: 'After' });
      expect((await call(t.url, 'GET', `/content/${before._id}`, { token: fan.token })).status).toBe(200);
      expect((await call(t.url, 'GET', `/content/${after._id}`, { token: fan.token })).status).toBe(403);
      const again = await call(t.url, 'POST', '/admin/memberships/end', {
        headers: admin,
        body: { artist: artist.username, fan: `${fan.username}@example.com` },
      });
      expect(again.status).toBe(404);
    });

    it('a member who subscribes again opens everything, and a stranger nothing', async () => {
      const { artist, fan, newer } = await lapsedWorld();
      const stranger = await createFan(t);
      expect((await call(t.url, 'GET', `/content/${newer._id}`, { token: stranger.token })).status).toBe(403);
      await t.db.query(
        `UPDATE subscriptions SET status = 'active', started_at = now(), expires_at = now() + interval '1 year' WHERE user_id = $1`,
        [fan.id],
      );
      expect((await call(t.url, 'GET', `/content/${newer._id}`, { token: fan.token })).status).toBe(200);
      const list = await call(t.url, 'GET', `/performers/${artist.username}/content`, { token: fan.token });
      expect(list.body.data.total).toBe(2);
    });
  });
});
