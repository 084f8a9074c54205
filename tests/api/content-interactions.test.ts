import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMENTS_PER_MINUTE } from '../../api/comments/routes';
import { contentMessages, formatScheduleDate, formatScheduleTime, pollMessages } from '../../contract/content-rules';
import { interactionMessages } from '#contract/content-schemas';
import { call, describeEachDatabase, startTestApi, type TestApi } from '../helpers/api';
import { COMPRESS_MIN_BYTES } from '../../api/http';
import { createArtist, createFan, subscribe, type ContentUser as TestUser } from './content-fixtures';

let t: TestApi;

async function cast() {
  const [artist, fan, otherFan, stranger, otherArtist] = await Promise.all([
    createArtist(t),
    createFan(t),
    createFan(t),
    createFan(t),
    createArtist(t),
  ]);
  await subscribe(t, fan, artist);
  await subscribe(t, otherFan, artist);
  return { artist, fan, otherFan, stranger, otherArtist };
}

async function create(artist: TestUser, body: Record<string, unknown> = {}) {
  const answer = await call(t.url, 'POST', '/content', {
    token: artist.token,
    body: { title: 'Item', content: 'Words', tags: 'post', ...body },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data;
}

const POLL = { enabled: true, title: 'Which city next?', answers: [{ text: 'Lisbon' }, { text: 'Oslo' }, { text: 'Lagos' }] };
const DAY = 86_400_000;

/** A closing time as the post form writes it (DD/MM/YYYY and HH:MM, GMT). */
function gmt(at: Date) {
  return { closeDate: formatScheduleDate(at), closeTime: formatScheduleTime(at) };
}
const closingIn = (ms: number) => gmt(new Date(Date.now() + ms));

/** The whole file runs on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set (reported skipped otherwise). */
describeEachDatabase('polls, comments, bookmarks, collections and presale codes', (database) => {
  beforeAll(async () => {
    t = await startTestApi({ database: database.name });
  });
  afterAll(async () => {
    await t?.close();
  });

  describe(`polls`, () => {
    it('a fan sees no results before voting, votes, and gets the results', async () => {
      const { artist, fan, otherFan } = await cast();
      const item = await create(artist, { tags: 'poll', poll: POLL });
      const before = (await call(t.url, 'GET', `/content/${item._id}`, { token: fan.token })).body.data.poll;
      expect(before).toMatchObject({ title: 'Which city next?', showResults: false, totalVotes: null, votedAnswerId: null });
      expect(before.answers.map((answer: { text: string; votes: null }) => [answer.text, answer.votes])).toEqual([
        ['Lisbon', null],
        ['Oslo', null],
        ['Lagos', null],
      ]);
      const [lisbon, oslo] = before.answers;

      const voted = await call(t.url, 'POST', `/polls/${before._id}/vote`, { token: fan.token, body: { answerId: oslo._id } });
      expect(voted.status).toBe(200);
      expect(voted.body.data).toMatchObject({ showResults: true, totalVotes: 1, votedAnswerId: oslo._id });
      expect(voted.body.data.answers.map((answer: { votes: number }) => answer.votes)).toEqual([0, 1, 0]);

      await call(t.url, 'POST', `/polls/${before._id}/vote`, { token: otherFan.token, body: { answerId: lisbon._id } });
      const after = (await call(t.url, 'GET', `/content/${item._id}`, { token: fan.token })).body.data.poll;
      expect(after).toMatchObject({ totalVotes: 2, votedAnswerId: oslo._id, showResults: true });
      // The artist always sees the results.
      const artistView = (await call(t.url, 'GET', `/content/${item._id}`, { token: artist.token })).body.data.poll;
      expect(artistView.answers.map((answer: { votes: number }) => answer.votes)).toEqual([1, 1, 0]);
    });

    it('refuses the artist, outsiders, unknown answers, and polls fans cannot see yet', async () => {
      const { artist, fan, stranger } = await cast();
      const item = await create(artist, { poll: POLL });
      const pollId = item.poll._id;
      const answerId = item.poll.answers[0]._id;
      expect((await call(t.url, 'POST', `/polls/${pollId}/vote`, { token: artist.token, body: { answerId } })).status).toBe(403);
      expect((await call(t.url, 'POST', `/polls/${pollId}/vote`, { token: stranger.token, body: { answerId } })).status).toBe(403);
      expect((await call(t.url, 'POST', `/polls/${pollId}/vote`, { body: { answerId } })).status).toBe(401);
      const unknown = await call(t.url, 'POST', `/polls/${pollId}/vote`, { token: fan.token, body: { answerId: 'nope' } });
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors).toEqual({ answerId: [pollMessages.answerRequired] });
      expect((await call(t.url, 'POST', `/polls/${pollId}/vote`, { token: fan.token, body: {} })).body.errors).toEqual({
        answerId: [pollMessages.answerRequired],
      });

      const draft = await create(artist, { poll: POLL, draft: true });
      const hidden = await call(t.url, 'POST', `/polls/${draft.poll._id}/vote`, {
        token: fan.token,
        body: { answerId: draft.poll.answers[0]._id },
      });
      expect(hidden.status).toBe(404);
    });

    it('a fan changes or removes their vote while the poll is open, and the counts stay exact', async () => {
      const { artist, fan, otherFan } = await cast();
      const item = await create(artist, { tags: 'poll', poll: { ...POLL, ...closingIn(2 * DAY) } });
      const pollId = item.poll._id;
      const [lisbon, oslo, lagos] = item.poll.answers;
      expect(item.poll).toMatchObject({ closed: false, closesAt: expect.any(String) });
      const vote = (user: TestUser, answerId: string) =>
        call(t.url, 'POST', `/polls/${pollId}/vote`, { token: user.token, body: { answerId } });
      const counts = (poll: { answers: { votes: number }[] }) => poll.answers.map((answer) => answer.votes);

      expect((await vote(fan, oslo._id)).status).toBe(200);
      await vote(otherFan, oslo._id);
      const changed = await vote(fan, lisbon._id);
      expect(changed.status).toBe(200);
      expect(changed.body.data).toMatchObject({ votedAnswerId: lisbon._id, totalVotes: 2, showResults: true });
      expect(counts(changed.body.data)).toEqual([1, 1, 0]);
      // The same answer again changes nothing.
      expect(counts((await vote(fan, lisbon._id)).body.data)).toEqual([1, 1, 0]);

      // Many changes at once still leave one vote per fan.
      await Promise.all([lagos, oslo, lisbon, lagos, oslo, lagos].map((answer) => vote(fan, answer._id)));
      const artistView = (await call(t.url, 'GET', `/content/${item._id}`, { token: artist.token })).body.data.poll;
      expect(artistView.totalVotes).toBe(2);
      const [{ answerId: kept }] = await t.db.query<{ answerId: string }>(
        'SELECT answer_id AS "answerId" FROM poll_votes WHERE poll_id = $1 AND user_id = $2',
        [pollId, fan.id],
      );
      expect(artistView.answers.find((answer: { _id: string }) => answer._id === kept).votes).toBe(kept === oslo._id ? 2 : 1);

      const removed = await call(t.url, 'DELETE', `/polls/${pollId}/vote`, { token: fan.token });
      expect(removed.status).toBe(200);
      expect(removed.body.data).toMatchObject({ votedAnswerId: null, showResults: false, totalVotes: null });
      const mine = (await call(t.url, 'GET', `/content/${item._id}`, { token: fan.token })).body.data.poll;
      expect(mine).toMatchObject({ votedAnswerId: null, showResults: false });
      expect((await call(t.url, 'GET', `/content/${item._id}`, { token: artist.token })).body.data.poll.totalVotes).toBe(1);
      // Nothing left to remove is no error; the artist has no vote to remove.
      expect((await call(t.url, 'DELETE', `/polls/${pollId}/vote`, { token: fan.token })).status).toBe(200);
      expect((await call(t.url, 'DELETE', `/polls/${pollId}/vote`, { token: artist.token })).status).toBe(403);
    });

    it('refuses votes once the poll has closed, and shows everyone the final results', async () => {
      const { artist, fan, otherFan } = await cast();
      const item = await create(artist, { tags: 'poll', poll: { ...POLL, ...closingIn(DAY) } });
      const pollId = item.poll._id;
      const [lisbon, oslo] = item.poll.answers;
      await call(t.url, 'POST', `/polls/${pollId}/vote`, { token: fan.token, body: { answerId: oslo._id } });
      // Its time comes (set behind the api's back, which clears the api's read cache) while fans' lists are cached.
      await t.db.query(`UPDATE polls SET closes_at = now() + interval '2 seconds' WHERE id = $1`, [pollId]);
      const listPoll = async (user: TestUser) => {
        const list = (await call(t.url, 'GET', `/performers/${artist.username}/content`, { token: user.token })).body.data.data;
        return list.find((entry: { _id: string }) => entry._id === item._id).poll;
      };
      const open = await listPoll(otherFan);
      expect(open).toMatchObject({ closed: false, showResults: false });
      await new Promise((resolve) => setTimeout(resolve, Date.parse(open.closesAt) - Date.now() + 100));

      const late = await call(t.url, 'POST', `/polls/${pollId}/vote`, { token: otherFan.token, body: { answerId: lisbon._id } });
      expect(late.status).toBe(409);
      expect(late.body.message).toBe(pollMessages.closed);
      const change = await call(t.url, 'POST', `/polls/${pollId}/vote`, { token: fan.token, body: { answerId: lisbon._id } });
      expect(change.status).toBe(409);
      const removal = await call(t.url, 'DELETE', `/polls/${pollId}/vote`, { token: fan.token });
      expect(removal.status).toBe(409);
      expect(removal.body.message).toBe(pollMessages.closed);

      // A fan who never voted sees the final results, in the item and in the artist's list.
      const final = (await call(t.url, 'GET', `/content/${item._id}`, { token: otherFan.token })).body.data.poll;
      expect(final).toMatchObject({ closed: true, showResults: true, votedAnswerId: null, totalVotes: 1 });
      expect(final.answers.map((answer: { votes: number }) => answer.votes)).toEqual([0, 1, 0]);
      expect(await listPoll(otherFan)).toMatchObject({ closed: true, showResults: true, totalVotes: 1 });
    });

    it('validates the closing time, and an edit may change it or keep one that has passed', async () => {
      const { artist } = await cast();
      const refused = (body: Record<string, unknown>) =>
        call(t.url, 'POST', '/content', { token: artist.token, body: { title: 'Item', content: 'Words', tags: 'poll', ...body } });
      const past = await refused({ poll: { ...POLL, ...closingIn(-DAY) } });
      expect(past.status).toBe(400);
      expect(past.body.errors).toEqual({ 'poll.closeTime': [contentMessages.pollClosesInPast] });
      const halfTyped = await refused({ poll: { ...POLL, closeDate: '', closeTime: '18:00' } });
      expect(halfTyped.body.errors).toEqual({ 'poll.closeDate': [contentMessages.scheduleDateRequired] });
      const publishAt = gmt(new Date(Date.now() + 3 * DAY));
      const beforePublish = await refused({
        poll: { ...POLL, ...closingIn(DAY) },
        schedule: { enabled: true, date: publishAt.closeDate, time: publishAt.closeTime },
      });
      expect(beforePublish.body.errors).toEqual({ 'poll.closeTime': [contentMessages.pollClosesBeforePublish] });

      const item = await create(artist, { tags: 'poll', poll: { ...POLL, ...closingIn(DAY) } });
      const put = (poll: Record<string, unknown>) =>
        call(t.url, 'PUT', `/content/${item._id}`, { token: artist.token, body: { title: 'Item', content: 'Words', tags: 'poll', poll } });
      const answers = item.poll.answers.map((answer: { _id: string; text: string }) => ({ id: answer._id, text: answer.text }));
      const later = closingIn(5 * DAY);
      const moved = await put({ ...POLL, answers, ...later });
      expect(moved.status).toBe(200);
      expect(gmt(new Date(moved.body.data.poll.closesAt))).toEqual(later);
      const opened = await put({ ...POLL, answers });
      expect(opened.body.data.poll.closesAt).toBeNull();

      await put({ ...POLL, answers, ...closingIn(DAY) });
      await t.db.query(`UPDATE polls SET closes_at = date_trunc('minute', now()) - interval '1 hour' WHERE item_id = $1`, [item._id]);
      const closed = (await call(t.url, 'GET', `/content/${item._id}`, { token: artist.token })).body.data.poll;
      expect(closed.closed).toBe(true);
      const kept = await put({ ...POLL, title: 'Renamed', answers, ...gmt(new Date(closed.closesAt)), closesKept: closed.closesAt });
      expect(kept.status).toBe(200);
      expect(kept.body.data.poll).toMatchObject({ title: 'Renamed', closesAt: closed.closesAt, closed: true });
      // The form's word for the time it had is checked against the poll.
      const earlier = new Date(new Date(closed.closesAt).getTime() - DAY);
      const forged = await put({ ...POLL, answers, ...gmt(earlier), closesKept: earlier.toISOString() });
      expect(forged.status).toBe(400);
      expect(forged.body.errors).toEqual({ 'poll.closeTime': [contentMessages.pollClosesInPast] });
    });
  });

  describe(`comments`, () => {
    it('fans and the artist comment; the list is newest first and paged', async () => {
      const { artist, fan, otherFan } = await cast();
      const item = await create(artist);
      const texts = ['first', 'second', 'third', 'fourth', 'fifth'];
      const ids: string[] = [];
      for (const [index, text] of texts.entries()) {
        const author = [fan, otherFan, artist][index % 3];
        const posted = await call(t.url, 'POST', `/content/${item._id}/comments`, { token: author.token, body: { text: ` ${text} ` } });
        expect(posted.status).toBe(201);
        expect(posted.body.data).toMatchObject({
          text,
          author: { _id: author.id, username: author.username },
          isArtist: author === artist,
        });
        ids.push(posted.body.data._id);
        await t.db.query(`UPDATE comments SET created_at = now() - make_interval(mins => $2) WHERE id = $1`, [
          posted.body.data._id,
          10 - index,
        ]);
      }
      const page = await call(t.url, 'GET', `/content/${item._id}/comments`, { token: fan.token, query: { limit: 2 } });
      expect(page.body.data.total).toBe(5);
      expect(page.body.data.data.map((comment: { text: string }) => comment.text)).toEqual(['fifth', 'fourth']);
      const next = await call(t.url, 'GET', `/content/${item._id}/comments`, { token: fan.token, query: { limit: 2, offset: 2 } });
      expect(next.body.data.data.map((comment: { text: string }) => comment.text)).toEqual(['third', 'second']);

      // A link to a comment (spec commentId) opens the page that holds it.
      const linked = await call(t.url, 'GET', `/content/${item._id}/comments`, {
        token: fan.token,
        query: { limit: 2, commentId: ids[0] },
      });
      expect(linked.body.data.offset).toBe(4);
      expect(linked.body.data.data.map((comment: { _id: string }) => comment._id)).toEqual([ids[0]]);

      expect((await call(t.url, 'GET', `/content/${item._id}`, { token: fan.token })).body.data.stats.comments).toBe(5);
    });

    it('an item and its thread, shared by every fan from the read cache, change at once with each write', async () => {
      const { artist, fan, otherFan } = await cast();
      const item = await create(artist, { title: 'Before' });
      const read = async (user: TestUser) => {
        const [got, thread] = await Promise.all([
          call(t.url, 'GET', `/content/${item._id}`, { token: user.token }),
          call(t.url, 'GET', `/content/${item._id}/comments`, { token: user.token }),
        ]);
        return { item: got.body.data, comments: thread.body.data };
      };
      // Both fans read it first, so what follows reads kept answers unless a write ended them.
      await Promise.all([read(fan), read(otherFan)]);
      const posted = await call(t.url, 'POST', `/content/${item._id}/comments`, { token: fan.token, body: { text: 'Mine' } });
      let [mine, theirs] = await Promise.all([read(fan), read(otherFan)]);
      expect([mine.item.stats.comments, theirs.item.stats.comments]).toEqual([1, 1]);
      // The same page of the thread, with what each may do to it.
      expect(mine.comments.data.map((c: { text: string; canDelete: boolean }) => [c.text, c.canDelete])).toEqual([['Mine', true]]);
      expect(theirs.comments.data.map((c: { text: string; canDelete: boolean }) => [c.text, c.canDelete])).toEqual([['Mine', false]]);

      const edited = await call(t.url, 'PUT', `/content/${item._id}`, {
        token: artist.token,
        body: { title: 'After', content: 'Words', tags: 'post' },
      });
      expect(edited.status).toBe(200);
      expect((await call(t.url, 'DELETE', `/comments/${posted.body.data._id}`, { token: fan.token })).status).toBe(200);
      [mine, theirs] = await Promise.all([read(fan), read(otherFan)]);
      expect([mine.item.title, theirs.item.title]).toEqual(['After', 'After']);
      expect([theirs.item.stats.comments, theirs.comments.total, theirs.comments.data.length]).toEqual([0, 0, 0]);

      // A deleted item is gone for everyone at once.
      expect((await call(t.url, 'DELETE', `/content/${item._id}`, { token: artist.token })).status).toBe(200);
      expect((await call(t.url, 'GET', `/content/${item._id}`, { token: otherFan.token })).status).toBe(404);
      expect((await call(t.url, 'GET', `/content/${item._id}/comments`, { token: otherFan.token })).status).toBe(404);
    });

    it('checks the text with the shared messages', async () => {
      const { artist, fan } = await cast();
      const item = await create(artist);
      const empty = await call(t.url, 'POST', `/content/${item._id}/comments`, { token: fan.token, body: { text: '   ' } });
      expect(empty.status).toBe(400);
      expect(empty.body.errors).toEqual({ text: [interactionMessages.commentRequired] });
      const long = await call(t.url, 'POST', `/content/${item._id}/comments`, { token: fan.token, body: { text: 'x'.repeat(1001) } });
      expect(long.body.errors).toEqual({ text: [interactionMessages.commentTooLong] });
    });

    it('its author and the artist delete a comment; nobody else can', async () => {
      const { artist, fan, otherFan, otherArtist } = await cast();
      const item = await create(artist);
      const post = async (author: TestUser, text: string) =>
        (await call(t.url, 'POST', `/content/${item._id}/comments`, { token: author.token, body: { text } })).body.data;
      const mine = await post(fan, 'mine');
      const theirs = await post(otherFan, 'theirs');

      const listed = await call(t.url, 'GET', `/content/${item._id}/comments`, { token: fan.token });
      const canDelete = Object.fromEntries(
        listed.body.data.data.map((comment: { text: string; canDelete: boolean }) => [comment.text, comment.canDelete]),
      );
      expect(canDelete).toEqual({ mine: true, theirs: false });

      expect((await call(t.url, 'DELETE', `/comments/${theirs._id}`, { token: fan.token })).status).toBe(403);
      expect((await call(t.url, 'DELETE', `/comments/${theirs._id}`, { token: otherArtist.token })).status).toBe(403);
      expect((await call(t.url, 'DELETE', `/comments/${theirs._id}`)).status).toBe(401);
      expect((await call(t.url, 'DELETE', `/comments/${mine._id}`, { token: fan.token })).status).toBe(200);
      expect((await call(t.url, 'DELETE', `/comments/${theirs._id}`, { token: artist.token })).status).toBe(200);
      expect((await call(t.url, 'DELETE', `/comments/${theirs._id}`, { token: artist.token })).status).toBe(404);
      expect((await call(t.url, 'GET', `/content/${item._id}/comments`, { token: fan.token })).body.data).toEqual({
        data: [],
        total: 0,
        offset: 0,
      });
    });

    it('limits how fast one viewer can comment', async () => {
      const { artist, fan, otherFan } = await cast();
      const item = await create(artist);
      for (let i = 0; i < COMMENTS_PER_MINUTE; i++) {
        expect((await call(t.url, 'POST', `/content/${item._id}/comments`, { token: fan.token, body: { text: `hi ${i}` } })).status).toBe(
          201,
        );
      }
      const flooded = await call(t.url, 'POST', `/content/${item._id}/comments`, { token: fan.token, body: { text: 'one more' } });
      expect(flooded.status).toBe(429);
      expect(Number(flooded.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await call(t.url, 'POST', `/content/${item._id}/comments`, { token: otherFan.token, body: { text: 'me too' } })).status).toBe(
        201,
      );
    });

    it('outsiders can neither read nor write comments', async () => {
      const { artist, stranger } = await cast();
      const item = await create(artist);
      expect((await call(t.url, 'GET', `/content/${item._id}/comments`, { token: stranger.token })).status).toBe(403);
      expect((await call(t.url, 'POST', `/content/${item._id}/comments`, { token: stranger.token, body: { text: 'hi' } })).status).toBe(
        403,
      );
      expect((await call(t.url, 'GET', `/content/${item._id}/comments`)).status).toBe(401);
    });
  });

  describe(`bookmarks`, () => {
    it('a fan bookmarks, finds bookmarks again filtered and sorted, and removes them', async () => {
      const { artist, fan, otherFan } = await cast();
      const demo = await create(artist, { title: 'Demo', tags: 'demo' });
      const live = await create(artist, { title: 'Live', tags: 'live' });
      const news = await create(artist, { title: 'News', tags: 'announcement' });
      for (const item of [demo, live, news]) {
        const marked = await call(t.url, 'POST', `/content/${item._id}/bookmark`, { token: fan.token });
        expect(marked.body.data).toEqual({ bookmarked: true });
        await t.db.query(`UPDATE bookmarks SET created_at = now() - make_interval(mins => $2) WHERE item_id = $1`, [
          item._id,
          item === demo ? 3 : item === live ? 2 : 1,
        ]);
      }
      // Twice is still once.
      await call(t.url, 'POST', `/content/${demo._id}/bookmark`, { token: fan.token });

      const titles = async (query: Record<string, string>) => {
        const answer = await call(t.url, 'GET', '/bookmarks', { token: fan.token, query });
        expect(answer.status).toBe(200);
        return answer.body.data.data.map((item: { title: string; isBookmarked: boolean }) => {
          expect(item.isBookmarked).toBe(true);
          return item.title;
        });
      };
      expect(await titles({})).toEqual(['News', 'Live', 'Demo']);
      expect(await titles({ sort: 'asc' })).toEqual(['Demo', 'Live', 'News']);
      expect(await titles({ types: 'demo,live' })).toEqual(['Live', 'Demo']);
      expect(await titles({ performer: artist.username })).toEqual(['News', 'Live', 'Demo']);
      expect((await call(t.url, 'GET', '/bookmarks', { token: otherFan.token })).body.data).toEqual({ data: [], total: 0 });
      expect((await call(t.url, 'GET', `/content/${demo._id}`, { token: fan.token })).body.data.isBookmarked).toBe(true);
      expect((await call(t.url, 'GET', `/content/${demo._id}`, { token: otherFan.token })).body.data.isBookmarked).toBe(false);

      expect((await call(t.url, 'DELETE', `/content/${live._id}/bookmark`, { token: fan.token })).body.data).toEqual({ bookmarked: false });
      expect(await titles({})).toEqual(['News', 'Demo']);
    });

    it('hides bookmarks the fan may no longer read', async () => {
      const { artist, fan } = await cast();
      const item = await create(artist, { title: 'Kept' });
      await call(t.url, 'POST', `/content/${item._id}/bookmark`, { token: fan.token });
      expect((await call(t.url, 'GET', '/bookmarks', { token: fan.token })).body.data.total).toBe(1);
      await t.db.query(`UPDATE content_items SET state = 'draft' WHERE id = $1`, [item._id]);
      expect((await call(t.url, 'GET', '/bookmarks', { token: fan.token })).body.data.total).toBe(0);
      await t.db.query(`UPDATE content_items SET state = 'published' WHERE id = $1`, [item._id]);
      await t.db.query(`UPDATE subscriptions SET status = 'canceled' WHERE user_id = $1`, [fan.id]);
      expect((await call(t.url, 'GET', '/bookmarks', { token: fan.token })).body.data.total).toBe(0);
    });

    it('a page of bookmarks is kept, and shows every change through the api at once, and a lapsed subscription on time', async () => {
      const { artist, fan } = await cast();
      const song = await create(artist, { title: 'Song', tags: 'demo' });
      await call(t.url, 'POST', `/content/${song._id}/bookmark`, { token: fan.token });
      const read = async () =>
        (
          await call<{ data: { title: string; isBookmarked: boolean }[]; total: number }>(t.url, 'GET', '/bookmarks', {
            token: fan.token,
            query: { performer: artist.username },
          })
        ).body.data;
      expect(await read()).toMatchObject({ total: 1, data: [{ title: 'Song', isBookmarked: true }] });

      // Renamed, then put back to a draft, then published again, then deleted: each shows on the next read.
      const edit = (body: Record<string, unknown>) => call(t.url, 'PUT', `/content/${song._id}`, { token: artist.token, body });
      expect((await edit({ title: 'Song, remastered', content: 'Words', tags: 'demo' })).status).toBe(200);
      expect((await read()).data.map((item) => item.title)).toEqual(['Song, remastered']);
      expect((await edit({ title: 'Song, remastered', content: 'Words', tags: 'demo', draft: true })).status).toBe(200);
      expect((await read()).total).toBe(0);
      expect((await edit({ title: 'Song, remastered', content: 'Words', tags: 'demo' })).status).toBe(200);
      expect((await read()).total).toBe(1);
      // A second bookmark, then one taken off.
      const other = await create(artist, { title: 'Other' });
      await call(t.url, 'POST', `/content/${other._id}/bookmark`, { token: fan.token });
      expect((await read()).data.map((item) => item.title)).toEqual(['Other', 'Song, remastered']);
      await call(t.url, 'DELETE', `/content/${other._id}/bookmark`, { token: fan.token });
      expect((await read()).data.map((item) => item.title)).toEqual(['Song, remastered']);

      // The subscription lapses in a moment (renewal turned off: else the renewal sweep, whenever it runs, renews it for
      // a year): the page read now is not served after that.
      await t.db.query(`UPDATE subscriptions SET expires_at = now() + interval '1.5 seconds', auto_renew = false WHERE user_id = $1`, [
        fan.id,
      ]);
      expect((await read()).total).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 1600));
      expect((await read()).total).toBe(0);
    });

    it('viewers of one shared list each see their own bookmarks and votes, in turn and after they change', async () => {
      const { artist, fan, otherFan } = await cast();
      const third = await createFan(t);
      await subscribe(t, third, artist);
      const news = await create(artist, { title: 'News' });
      const poll = await create(artist, { title: 'Vote', tags: 'poll', poll: POLL });
      const [lisbon, oslo] = poll.poll.answers;
      await call(t.url, 'POST', `/content/${news._id}/bookmark`, { token: fan.token });
      const vote = { answerId: oslo._id };
      await call(t.url, 'POST', `/polls/${poll.poll._id}/vote`, { token: otherFan.token, body: vote });

      const seen = async (viewer: TestUser) => {
        const answer = await call(t.url, 'GET', `/performers/${artist.username}/content`, { token: viewer.token });
        expect(answer.status).toBe(200);
        const byTitle = Object.fromEntries(answer.body.data.data.map((item: { title: string }) => [item.title, item]));
        return {
          bookmarked: byTitle.News.isBookmarked,
          voted: byTitle.Vote.poll.votedAnswerId,
          results: byTitle.Vote.poll.showResults,
          schedule: 'schedule' in byTitle.News,
        };
      };
      const nothing = { bookmarked: false, voted: null, results: false, schedule: false };
      // Twice round, so the second reads come from the list the first ones shared.
      for (let round = 0; round < 2; round++) {
        expect(await seen(third)).toEqual(nothing);
        expect(await seen(fan)).toEqual({ ...nothing, bookmarked: true });
        expect(await seen(otherFan)).toEqual({ ...nothing, voted: oslo._id, results: true });
        expect(await seen(artist)).toEqual({ bookmarked: false, voted: null, results: true, schedule: true });
      }
      // A viewer whose marks change is not sent the body they shared before.
      await call(t.url, 'POST', `/content/${news._id}/bookmark`, { token: third.token });
      await call(t.url, 'POST', `/polls/${poll.poll._id}/vote`, { token: third.token, body: { answerId: lisbon._id } });
      expect(await seen(third)).toEqual({ bookmarked: true, voted: lisbon._id, results: true, schedule: false });
      await call(t.url, 'DELETE', `/content/${news._id}/bookmark`, { token: fan.token });
      expect(await seen(fan)).toEqual(nothing);
    });

    it('a list goes compressed to a client that accepts it: the same bytes once decoded, plain to one that does not', async () => {
      const { artist, fan } = await cast();
      for (let i = 0; i < 4; i++) await create(artist, { title: `Night ${i}` });
      const read = (acceptEncoding?: string) =>
        rawGet(`${t.url}/performers/${artist.username}/content`, {
          authorization: `Bearer ${fan.token}`,
          origin: 'http://localhost:3000',
          ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
        });
      const plain = await read();
      expect(plain.status).toBe(200);
      expect(plain.body.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(plain.body.toString()).data.data).toHaveLength(4);
      // Twice each, so the second read is sent the compressed body the first one made.
      for (let round = 0; round < 2; round++) {
        const br = await read('gzip, deflate, br');
        expect(br.headers['content-encoding']).toBe('br');
        expect(br.headers.vary).toMatch(/Origin/);
        expect(br.headers.vary).toMatch(/Accept-Encoding/);
        expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
        expect(br.body.length).toBeLessThan(plain.body.length / 3);
        const gzip = await read('gzip');
        expect(gzip.headers['content-encoding']).toBe('gzip');
        expect(zlib.gunzipSync(gzip.body).equals(plain.body)).toBe(true);
      }
      const refused = await read('br;q=0, identity');
      expect(refused.headers['content-encoding']).toBeUndefined();
      expect(refused.body.equals(plain.body)).toBe(true);
    });

    it('outsiders cannot bookmark', async () => {
      const { artist, stranger } = await cast();
      const item = await create(artist);
      expect((await call(t.url, 'POST', `/content/${item._id}/bookmark`, { token: stranger.token })).status).toBe(403);
      expect((await call(t.url, 'GET', '/bookmarks')).status).toBe(401);
    });
  });

  describe(`collections`, () => {
    it('the artist groups items in an order; fans read them in that order or sorted, filtered', async () => {
      const { artist, fan, stranger } = await cast();
      const a = await create(artist, { title: 'A', tags: 'demo' });
      const b = await create(artist, { title: 'B', tags: 'session' });
      const c = await create(artist, { title: 'C', tags: 'demo' });
      const hidden = await create(artist, { title: 'Hidden', tags: 'demo', draft: true });
      for (const [index, item] of [a, b, c].entries()) {
        await t.db.query(`UPDATE content_items SET publish_at = now() - make_interval(mins => $2) WHERE id = $1`, [item._id, 10 - index]);
      }
      const made = await call(t.url, 'POST', '/collections', {
        token: artist.token,
        body: { title: ' Spring sessions ', description: 'Recorded in March', itemIds: [c._id, hidden._id, a._id, b._id] },
      });
      expect(made.status).toBe(201);
      expect(made.body.data).toMatchObject({ title: 'Spring sessions', description: 'Recorded in March', itemCount: 4, cover: null });
      const id = made.body.data._id;

      const read = async (user: TestUser, query: Record<string, string> = {}) => {
        const answer = await call(t.url, 'GET', `/collections/${id}`, { token: user.token, query });
        expect(answer.status).toBe(200);
        return answer.body.data;
      };
      const fanView = await read(fan);
      expect(fanView).toMatchObject({ title: 'Spring sessions', itemCount: 3, items: { total: 3 } });
      expect(fanView.items.data.map((item: { title: string }) => item.title)).toEqual(['C', 'A', 'B']);
      expect((await read(artist)).items.data.map((item: { title: string }) => item.title)).toEqual(['C', 'Hidden', 'A', 'B']);
      expect((await read(fan, { sort: 'asc' })).items.data.map((item: { title: string }) => item.title)).toEqual(['A', 'B', 'C']);
      expect((await read(fan, { sort: 'desc', types: 'demo' })).items.data.map((item: { title: string }) => item.title)).toEqual([
        'C',
        'A',
      ]);

      const listed = await call(t.url, 'GET', `/performers/${artist.username}/collections`, { token: fan.token });
      expect(listed.body.data).toMatchObject({ total: 1, data: [{ _id: id, itemCount: 3 }] });
      expect((await call(t.url, 'GET', `/performers/${artist.username}/collections`, { token: stranger.token })).status).toBe(403);
      expect((await call(t.url, 'GET', `/collections/${id}`, { token: stranger.token })).status).toBe(403);

      // Reordering.
      const reordered = await call(t.url, 'PUT', `/collections/${id}`, {
        token: artist.token,
        body: { title: 'Spring sessions', description: '', itemIds: [b._id, a._id] },
      });
      expect(reordered.status).toBe(200);
      expect((await read(fan)).items.data.map((item: { title: string }) => item.title)).toEqual(['B', 'A']);
    });

    it('a page of a collection is read once for every fan, and each fan still sees their own marks and every change at once', async () => {
      const { artist, fan, otherFan } = await cast();
      const song = await create(artist, { title: 'Song', tags: 'demo' });
      const draft = await create(artist, { title: 'Later', tags: 'demo', draft: true });
      const made = await call(t.url, 'POST', '/collections', {
        token: artist.token,
        body: { title: 'Set', itemIds: [song._id, draft._id] },
      });
      const id = made.body.data._id;
      const read = async (user: TestUser) => (await call(t.url, 'GET', `/collections/${id}`, { token: user.token })).body.data;
      const titles = (view: { items: { data: { title: string }[] } }) => view.items.data.map((item) => item.title);
      expect(titles(await read(fan))).toEqual(['Song']);

      // Two fans, one page: the bookmark is the fan's own.
      await call(t.url, 'POST', `/content/${song._id}/bookmark`, { token: fan.token });
      const [mine, theirs] = await Promise.all([read(fan), read(otherFan)]);
      expect([mine.items.data[0].isBookmarked, theirs.items.data[0].isBookmarked]).toEqual([true, false]);
      expect(mine.types).toEqual(['demo']);

      // The item renamed, the draft published, the song deleted: each shows on the next read.
      await call(t.url, 'PUT', `/content/${song._id}`, {
        token: artist.token,
        body: { title: 'Song, remastered', content: 'Words', tags: 'demo' },
      });
      expect(titles(await read(otherFan))).toEqual(['Song, remastered']);
      await call(t.url, 'PUT', `/content/${draft._id}`, { token: artist.token, body: { title: 'Later', content: 'Words', tags: 'demo' } });
      expect(titles(await read(otherFan))).toEqual(['Song, remastered', 'Later']);
      expect((await call(t.url, 'DELETE', `/content/${song._id}`, { token: artist.token })).status).toBe(200);
      expect(await read(otherFan)).toMatchObject({ itemCount: 1, items: { total: 1, data: [{ title: 'Later' }] } });
      // The collection gone: 404 for everyone, though its artist is remembered.
      expect((await call(t.url, 'DELETE', `/collections/${id}`, { token: artist.token })).status).toBe(200);
      expect((await call(t.url, 'GET', `/collections/${id}`, { token: fan.token })).status).toBe(404);
    });

    it('fans do not see a collection with nothing published in it', async () => {
      const { artist, fan } = await cast();
      const draft = await create(artist, { draft: true });
      await call(t.url, 'POST', '/collections', { token: artist.token, body: { title: 'Soon', itemIds: [draft._id] } });
      expect((await call(t.url, 'GET', `/performers/${artist.username}/collections`, { token: fan.token })).body.data.total).toBe(0);
      expect((await call(t.url, 'GET', `/performers/${artist.username}/collections`, { token: artist.token })).body.data.total).toBe(1);
    });

    it('only the artist makes and changes collections, of their own items', async () => {
      const { artist, fan, otherArtist } = await cast();
      const theirs = await create(otherArtist);
      const refused = await call(t.url, 'POST', '/collections', { token: artist.token, body: { title: 'Mine', itemIds: [theirs._id] } });
      expect(refused.status).toBe(400);
      expect(Object.keys(refused.body.errors ?? {})).toEqual(['itemIds']);
      expect((await call(t.url, 'POST', '/collections', { token: fan.token, body: { title: 'Mine' } })).status).toBe(403);
      const noTitle = await call(t.url, 'POST', '/collections', { token: artist.token, body: { title: '' } });
      expect(noTitle.body.errors).toEqual({ title: [interactionMessages.collectionTitleRequired] });

      const made = await call(t.url, 'POST', '/collections', { token: artist.token, body: { title: 'Mine' } });
      const id = made.body.data._id;
      expect((await call(t.url, 'PUT', `/collections/${id}`, { token: otherArtist.token, body: { title: 'Theirs' } })).status).toBe(403);
      expect((await call(t.url, 'DELETE', `/collections/${id}`, { token: otherArtist.token })).status).toBe(403);
      expect((await call(t.url, 'DELETE', `/collections/${id}`, { token: artist.token })).status).toBe(200);
      expect((await call(t.url, 'GET', `/collections/${id}`, { token: artist.token })).status).toBe(404);
    });
  });

  describe(`presale codes`, () => {
    const presale = { tags: 'ticketPresale', presale: { ticketUrl: 'https://tickets.example/tour' } };

    it('each subscribed fan gets their own code, the same one on every view, shown only to them', async () => {
      const { artist, fan, otherFan, stranger } = await cast();
      const item = await create(artist, presale);
      const first = await call(t.url, 'GET', `/content/${item._id}/presale-code`, { token: fan.token });
      expect(first.status).toBe(200);
      expect(first.body.data.code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
      expect(first.body.data.revokedAt).toBeNull();
      expect((await call(t.url, 'GET', `/content/${item._id}/presale-code`, { token: fan.token })).body.data.code).toBe(
        first.body.data.code,
      );
      const other = await call(t.url, 'GET', `/content/${item._id}/presale-code`, { token: otherFan.token });
      expect(other.body.data.code).not.toBe(first.body.data.code);

      // Neither the item nor the other fan's answers carry someone else's code.
      const read = await call(t.url, 'GET', `/content/${item._id}`, { token: otherFan.token });
      expect(JSON.stringify(read.body)).not.toContain(first.body.data.code);
      expect((await call(t.url, 'GET', `/content/${item._id}/presale-codes`, { token: otherFan.token })).status).toBe(403);

      expect((await call(t.url, 'GET', `/content/${item._id}/presale-code`, { token: stranger.token })).status).toBe(403);
      expect((await call(t.url, 'GET', `/content/${item._id}/presale-code`, { token: artist.token })).status).toBe(403);
      const notPresale = await create(artist);
      expect((await call(t.url, 'GET', `/content/${notPresale._id}/presale-code`, { token: fan.token })).status).toBe(404);
    });

    it('the artist traces a leaked code to its fan and revokes it', async () => {
      const { artist, fan } = await cast();
      const item = await create(artist, presale);
      const { code } = (await call(t.url, 'GET', `/content/${item._id}/presale-code`, { token: fan.token })).body.data;
      const traced = await call(t.url, 'GET', `/content/${item._id}/presale-codes`, {
        token: artist.token,
        query: { code: code.toLowerCase() },
      });
      expect(traced.body.data).toMatchObject({ total: 1, data: [{ code, fan: { _id: fan.id, username: fan.username } }] });
      const codeId = traced.body.data.data[0]._id;
      const revoked = await call(t.url, 'DELETE', `/content/${item._id}/presale-codes/${codeId}`, { token: artist.token });
      expect(revoked.status).toBe(200);
      expect(revoked.body.data.revokedAt).not.toBeNull();
      const seen = await call(t.url, 'GET', `/content/${item._id}/presale-code`, { token: fan.token });
      expect(seen.body.data).toMatchObject({ code, revokedAt: revoked.body.data.revokedAt });
    });

    it('the artist’s list of codes, kept in the read cache, changes at once with each code given out, revoked or renamed', async () => {
      const { artist, fan, otherFan } = await cast();
      const item = await create(artist, presale);
      const list = async () => (await call(t.url, 'GET', `/content/${item._id}/presale-codes`, { token: artist.token })).body.data;
      expect(await list()).toEqual({ data: [], total: 0 });
      const { code } = (await call(t.url, 'GET', `/content/${item._id}/presale-code`, { token: fan.token })).body.data;
      expect(await list()).toMatchObject({ total: 1, data: [{ code, revokedAt: null, fan: { _id: fan.id } }] });
      await call(t.url, 'GET', `/content/${item._id}/presale-code`, { token: otherFan.token });
      const both = await list();
      expect(both.total).toBe(2);
      expect(both.data.map((c: { fan: { _id: string } }) => c.fan._id).sort()).toEqual([fan.id, otherFan.id].sort());
      const mine = both.data.find((c: { code: string }) => c.code === code);
      await call(t.url, 'DELETE', `/content/${item._id}/presale-codes/${mine._id}`, { token: artist.token });
      expect((await list()).data.find((c: { code: string }) => c.code === code).revokedAt).not.toBeNull();
      const renamed = await call(t.url, 'PUT', '/users/me/name', { token: fan.token, body: { name: 'Renamed Fan' } });
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
      expect((await list()).data.find((c: { code: string }) => c.code === code).fan.name).toBe('Renamed Fan');
    });
  });
});

/** A GET that shows the answer as sent: node:http decodes nothing, where fetch would decompress it. */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}
