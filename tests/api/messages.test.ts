import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationErrors } from '../../api/conversations/routes';
import { MESSAGES_PER_MINUTE, messageRouteErrors } from '../../api/messages/routes';
import { messageErrors } from '#contract/message-schemas';
import { call, describeEachDatabase, startTestApi, subscribe, type TestApi } from '../helpers/api';
import { createArtist, createFan, fanAndArtist, lapse, send } from './messages-fixtures';

const MAX_SAFE = String(Number.MAX_SAFE_INTEGER);

describeEachDatabase('conversations and messages', (database) => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ database: database.name });
  });
  afterAll(async () => {
    await t?.close();
  });

  const openConversation = (token: string, source: 'performer' | 'user', sourceId: string) =>
    call(t.url, 'POST', '/conversations', { token, body: { source, sourceId } });
  const listConversations = (token: string) => call(t.url, 'GET', '/conversations', { token, query: { limit: MAX_SAFE } });
  const listMessages = (token: string, conversationId: string, query: Record<string, string | number> = {}) =>
    call(t.url, 'GET', `/messages/conversations/${conversationId}`, { token, query: { limit: 20, sort: 'desc', ...query } });
  const unread = async (token: string) =>
    (await call<{ total: number }>(t.url, 'GET', '/messages/total-unread-messages', { token })).body.data.total;

  describe('conversations', () => {
    it('a subscribed fan opens a conversation with an artist, and opening it again answers the same one', async () => {
      const [fan, artist] = await Promise.all([createFan(t), createArtist(t)]);
      await subscribe(t, fan.id, artist.id);
      const first = await openConversation(fan.token, 'performer', artist.id);
      expect(first.status).toBe(200);
      expect(first.body.status).toBe(0);
      expect(first.body.data).toEqual({
        _id: expect.any(String),
        recipientInfo: { _id: artist.id, name: artist.name, avatar: '', username: artist.username },
        totalNotSeenMessages: 0,
      });
      const again = await openConversation(fan.token, 'performer', artist.id);
      expect(again.body.data._id).toBe(first.body.data._id);

      // The artist reaching the same fan finds the same conversation, with the fan as recipient.
      const fromArtist = await openConversation(artist.token, 'user', fan.id);
      expect(fromArtist.status).toBe(200);
      expect(fromArtist.body.data._id).toBe(first.body.data._id);
      expect(fromArtist.body.data.recipientInfo).toMatchObject({ _id: fan.id, username: fan.username });
    });

    it('GET /conversations/{id} answers a member with the conversation as they list it, and 404 to anyone else', async () => {
      const [fan, artist, stranger] = await Promise.all([createFan(t), createArtist(t), createFan(t)]);
      await subscribe(t, fan.id, artist.id);
      const opened = await openConversation(fan.token, 'performer', artist.id);
      const id = opened.body.data._id;

      const asFan = await call(t.url, 'GET', `/conversations/${id}`, { token: fan.token });
      expect(asFan.status).toBe(200);
      expect(asFan.body.data).toEqual(opened.body.data);
      const asArtist = await call(t.url, 'GET', `/conversations/${id}`, { token: artist.token });
      expect(asArtist.body.data.recipientInfo).toMatchObject({ _id: fan.id, username: fan.username });

      for (const [token, path] of [
        [stranger.token, `/conversations/${id}`],
        [fan.token, '/conversations/no-such-conversation'],
      ] as const) {
        const refused = await call(t.url, 'GET', path, { token });
        expect(refused.status).toBe(404);
        expect(refused.body.message).toBe(conversationErrors.conversationNotFound);
      }
      expect((await call(t.url, 'GET', `/conversations/${id}`, {})).status).toBe(401);
    });

    it('lets a browser on another origin call every method the pages use (CORS preflight)', async () => {
      for (const method of ['POST', 'DELETE']) {
        const preflight = await fetch(`${t.url}/messages/some-id`, {
          method: 'OPTIONS',
          headers: {
            Origin: 'http://localhost:3000',
            'Access-Control-Request-Method': method,
            'Access-Control-Request-Headers': 'authorization',
          },
        });
        expect(preflight.status).toBe(204);
        expect(preflight.headers.get('access-control-allow-methods')).toContain(method);
        expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
      }
    });

    it('refuses a fan who is not subscribed, an unknown artist, a fan posing as an artist, and anonymous callers', async () => {
      const [fan, artist, otherFan] = await Promise.all([createFan(t), createArtist(t), createFan(t)]);
      const open = (token: string | undefined, body: unknown) => call(t.url, 'POST', '/conversations', { token, body });

      const notSubscribed = await open(fan.token, { source: 'performer', sourceId: artist.id });
      expect(notSubscribed.status).toBe(403);
      expect(notSubscribed.body.message).toBe(conversationErrors.notSubscribed(artist.name));

      const unknown = await open(fan.token, { source: 'performer', sourceId: 'no-such-artist' });
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe(conversationErrors.artistNotFound);

      // Another fan is not an artist: nobody to write to as 'performer'.
      expect((await open(fan.token, { source: 'performer', sourceId: otherFan.id })).status).toBe(404);

      const fanAsArtist = await open(fan.token, { source: 'user', sourceId: otherFan.id });
      expect(fanAsArtist.status).toBe(403);
      expect(fanAsArtist.body.message).toBe(conversationErrors.artistsOnly);

      const self = await open(artist.token, { source: 'user', sourceId: artist.id });
      expect(self.status).toBe(403);
      expect(self.body.message).toBe(conversationErrors.yourself);

      const badSource = await open(fan.token, { source: 'fan', sourceId: artist.id });
      expect(badSource.status).toBe(400);
      expect(badSource.body.errors?.source).toBeDefined();

      expect((await open(undefined, { source: 'performer', sourceId: artist.id })).status).toBe(401);
      expect((await call(t.url, 'GET', '/conversations')).status).toBe(401);
    });

    it('an artist opens a conversation only with a fan who subscribes to them', async () => {
      const [fan, stranger, artist] = await Promise.all([createFan(t), createFan(t), createArtist(t)]);
      await subscribe(t, fan.id, artist.id);
      const ok = await openConversation(artist.token, 'user', fan.id);
      expect(ok.status).toBe(200);
      const refused = await openConversation(artist.token, 'user', stranger.id);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(conversationErrors.fanNotSubscribed);
      const unknown = await openConversation(artist.token, 'user', 'nobody');
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe(conversationErrors.fanNotFound);
    });

    it('lists only conversations with a message, newest activity first, with the last message and unread count', async () => {
      const fan = await createFan(t);
      const [first, second, silent] = await Promise.all([createArtist(t), createArtist(t), createArtist(t)]);
      const ids: Record<string, string> = {};
      for (const artist of [first, second, silent]) {
        await subscribe(t, fan.id, artist.id);
        const opened = await openConversation(fan.token, 'performer', artist.id);
        ids[artist.id] = opened.body.data._id;
      }
      expect((await listConversations(fan.token)).body.data).toEqual({ data: [], total: 0 });

      await send(t, fan, ids[first.id], 'to the first');
      await send(t, fan, ids[second.id], 'to the second');
      await send(t, first, ids[first.id], 'the first answers');

      const fanList = await listConversations(fan.token);
      expect(fanList.status).toBe(200);
      expect(fanList.body.status).toBe(0);
      expect(fanList.body.data.total).toBe(2);
      expect(fanList.body.data.data.map((c: { _id: string }) => c._id)).toEqual([ids[first.id], ids[second.id]]);
      const [latest] = fanList.body.data.data;
      expect(latest).toEqual({
        _id: ids[first.id],
        lastMessage: 'the first answers',
        lastMessageCreatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        recipientInfo: { _id: first.id, name: first.name, avatar: '', username: first.username },
        totalNotSeenMessages: 1,
      });

      // Each artist sees only their own conversation, with the fan as recipient.
      const artistList = await listConversations(second.token);
      expect(artistList.body.data.total).toBe(1);
      expect(artistList.body.data.data[0]).toMatchObject({
        _id: ids[second.id],
        lastMessage: 'to the second',
        recipientInfo: { _id: fan.id, username: fan.username },
        totalNotSeenMessages: 1,
      });
      expect((await listConversations(silent.token)).body.data.total).toBe(0);

      const paged = await call(t.url, 'GET', '/conversations', { token: fan.token, query: { limit: 1, offset: 1 } });
      expect(paged.body.data.total).toBe(2);
      expect(paged.body.data.data.map((c: { _id: string }) => c._id)).toEqual([ids[second.id]]);
    });
  });

  describe('messages', () => {
    it('sends a message and answers it in its documented shape, trimmed', async () => {
      const { fan, artist, conversationId } = await fanAndArtist(t);
      const sent = await send(t, fan, conversationId, '  Hello from the front row!  ');
      expect(sent.status).toBe(200);
      expect(sent.body).toEqual({
        status: 0,
        data: {
          _id: expect.any(String),
          conversationId,
          text: 'Hello from the front row!',
          createdAt: expect.stringMatching(/Z$/),
          senderInfo: { _id: fan.id, avatar: '', name: fan.name, username: fan.username },
        },
      });
      const listed = await listMessages(artist.token, conversationId);
      expect(listed.body).toEqual({ status: 0, data: { data: [sent.body.data], total: 1 } });
    });

    it('validates the text with clear messages', async () => {
      const { fan, conversationId } = await fanAndArtist(t);
      const empty = await send(t, fan, conversationId, '   ');
      expect(empty.status).toBe(400);
      expect(empty.body.message).toBe(messageErrors.empty);
      expect(empty.body.message).toBe('Please write a message.');
      expect(empty.body.errors).toEqual({ text: ['Please write a message.'] });

      const missing = await call(t.url, 'POST', `/messages/conversations/${conversationId}`, { token: fan.token, body: { fileIds: [] } });
      expect(missing.status).toBe(400);
      expect(missing.body.errors?.text).toEqual(['Please write a message.']);

      const tooLong = await send(t, fan, conversationId, 'a'.repeat(2001));
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.message).toBe('Your message is too long. Please keep it under 2000 characters.');

      expect((await send(t, fan, conversationId, 'a'.repeat(2000))).status).toBe(200);

      const attachment = await call(t.url, 'POST', `/messages/conversations/${conversationId}`, {
        token: fan.token,
        body: { text: 'hi', fileIds: ['f1'], type: 'text' },
      });
      expect(attachment.status).toBe(400);
      const notText = await call(t.url, 'POST', `/messages/conversations/${conversationId}`, {
        token: fan.token,
        body: { text: 'hi', fileIds: [], type: 'image' },
      });
      expect(notText.status).toBe(400);
      expect((await listMessages(fan.token, conversationId)).body.data.total).toBe(1);
    });

    it('only the two members read, write or mark read a conversation; others get 404 as for an unknown id', async () => {
      const { fan, artist, conversationId } = await fanAndArtist(t);
      const outsider = await createFan(t);
      const otherArtist = await createArtist(t);
      await subscribe(t, outsider.id, artist.id);
      await send(t, fan, conversationId, 'just between us');

      for (const stranger of [outsider, otherArtist]) {
        const read = await listMessages(stranger.token, conversationId);
        expect(read.status).toBe(404);
        expect(read.body.message).toBe(messageRouteErrors.conversationNotFound);
        expect((await send(t, stranger, conversationId, 'let me in')).status).toBe(404);
        expect((await call(t.url, 'POST', `/messages/read-all/${conversationId}`, { token: stranger.token })).status).toBe(404);
      }
      expect((await listMessages(fan.token, 'no-such-conversation')).status).toBe(404);
      expect((await listMessages(artist.token, conversationId)).body.data.total).toBe(1);
      expect((await call(t.url, 'GET', `/messages/conversations/${conversationId}`)).status).toBe(401);
    });

    it('a fan whose subscription has lapsed still reads but no longer writes; the artist can still answer', async () => {
      const { fan, artist, conversationId } = await fanAndArtist(t);
      await send(t, fan, conversationId, 'before it ran out');
      await lapse(t, fan, artist);

      expect((await listMessages(fan.token, conversationId)).body.data.total).toBe(1);
      const refused = await send(t, fan, conversationId, 'after it ran out');
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(messageRouteErrors.subscriptionEnded);
      expect((await send(t, artist, conversationId, 'come back soon')).status).toBe(200);

      // Opening the conversation again still answers it (to read), without a new subscription.
      const reopened = await openConversation(fan.token, 'performer', artist.id);
      expect(reopened.status).toBe(200);
      expect(reopened.body.data._id).toBe(conversationId);
      expect((await listMessages(fan.token, conversationId)).body.data.total).toBe(2);
    });

    it('a resend with the same clientId answers the first message instead of storing a second', async () => {
      const { fan, artist, conversationId } = await fanAndArtist(t);
      const first = await send(t, fan, conversationId, 'only once', 'client-123');
      const resend = await send(t, fan, conversationId, 'only once', 'client-123');
      expect(first.status).toBe(200);
      expect(first.body.data.clientId).toBe('client-123');
      expect(resend.status).toBe(200);
      expect(resend.body.data).toEqual(first.body.data);
      expect((await listMessages(fan.token, conversationId)).body.data.total).toBe(1);
      expect(await unread(artist.token)).toBe(1);

      // The clientId is the sender's: the artist may use the same one.
      const artistsOwn = await send(t, artist, conversationId, 'mine', 'client-123');
      expect(artistsOwn.body.data._id).not.toBe(first.body.data._id);

      // Reusing a clientId in another conversation is a client bug, refused rather than answered with a stranger.
      const otherArtist = await createArtist(t);
      await subscribe(t, fan.id, otherArtist.id);
      const other = await openConversation(fan.token, 'performer', otherArtist.id);
      const reused = await send(t, fan, other.body.data._id, 'only once', 'client-123');
      expect(reused.status).toBe(409);
    });

    it('pages newest first with offset, limit and the total', async () => {
      const { fan, artist, conversationId } = await fanAndArtist(t);
      for (let i = 1; i <= 25; i += 1) await send(t, i % 2 ? fan : artist, conversationId, `message ${i}`);

      const firstPage = await listMessages(fan.token, conversationId, { offset: 0, limit: 10 });
      expect(firstPage.body.data.total).toBe(25);
      expect(firstPage.body.data.data.map((m: { text: string }) => m.text)).toEqual(
        Array.from({ length: 10 }, (_, i) => `message ${25 - i}`),
      );
      const lastPage = await listMessages(fan.token, conversationId, { offset: 20, limit: 10 });
      expect(lastPage.body.data.data.map((m: { text: string }) => m.text)).toEqual([
        'message 5',
        'message 4',
        'message 3',
        'message 2',
        'message 1',
      ]);
      const defaults = await call(t.url, 'GET', `/messages/conversations/${conversationId}`, { token: fan.token });
      expect(defaults.body.data.data).toHaveLength(20);
      expect(defaults.body.data.data[0].text).toBe('message 25');
      const ascending = await listMessages(fan.token, conversationId, { sort: 'asc', limit: 1 });
      expect(ascending.body.data.data[0].text).toBe('message 1');
      expect((await listMessages(fan.token, conversationId, { limit: 101 })).status).toBe(400);
      expect((await listMessages(fan.token, conversationId, { offset: -1 })).status).toBe(400);
    });

    it('counts unread messages per conversation and in total, and read-all clears them for the reader only', async () => {
      const { fan, artist, conversationId } = await fanAndArtist(t);
      const secondFan = await createFan(t);
      await subscribe(t, secondFan.id, artist.id);
      const second = await openConversation(secondFan.token, 'performer', artist.id);

      await send(t, fan, conversationId, 'one');
      await send(t, fan, conversationId, 'two');
      await send(t, fan, conversationId, 'three');
      await send(t, secondFan, second.body.data._id, 'hello too');

      expect(await unread(artist.token)).toBe(4);
      expect(await unread(fan.token)).toBe(0);
      const artistList = (await listConversations(artist.token)).body.data.data;
      expect(artistList.find((c: { _id: string }) => c._id === conversationId).totalNotSeenMessages).toBe(3);

      const read = await call(t.url, 'POST', `/messages/read-all/${conversationId}`, { token: artist.token });
      expect(read.status).toBe(200);
      expect(read.body.data).toEqual({ conversationId, readAt: expect.stringMatching(/Z$/), total: 1 });
      expect(await unread(artist.token)).toBe(1);
      const after = (await listConversations(artist.token)).body.data.data;
      expect(after.find((c: { _id: string }) => c._id === conversationId).totalNotSeenMessages).toBe(0);
      // The fan can show "Seen": the artist read the conversation at readAt.
      const [fanSide] = (await listConversations(fan.token)).body.data.data;
      expect(fanSide.recipientReadAt).toBe(read.body.data.readAt);

      // The artist's answer is unread for the fan until the fan reads it.
      await send(t, artist, conversationId, 'thanks!');
      expect(await unread(fan.token)).toBe(1);
      expect(await unread(artist.token)).toBe(1);
      await call(t.url, 'POST', `/messages/read-all/${conversationId}`, { token: fan.token });
      expect(await unread(fan.token)).toBe(0);
      expect((await call(t.url, 'GET', '/messages/total-unread-messages')).status).toBe(401);
    });

    it('keeps unread counts exact while messages and read-alls race', async () => {
      const { fan, artist, conversationId } = await fanAndArtist(t);
      const writes = [];
      for (let i = 0; i < 12; i += 1) {
        writes.push(send(t, fan, conversationId, `burst ${i}`));
        if (i % 3 === 0) writes.push(call(t.url, 'POST', `/messages/read-all/${conversationId}`, { token: artist.token }));
      }
      await Promise.all(writes);
      const [{ expected }] = await t.db.query<{ expected: number }>(
        `SELECT count(*)::int AS expected FROM messages m JOIN conversation_members cm
            ON cm.conversation_id = m.conversation_id AND cm.user_id = $2
          WHERE m.conversation_id = $1 AND m.sender_id <> $2 AND (cm.last_read_at IS NULL OR m.created_at > cm.last_read_at)`,
        [conversationId, artist.id],
      );
      expect(await unread(artist.token)).toBe(expected);
    });

    it('only the author deletes a message; it leaves the list, the last message and the unread count', async () => {
      const { fan, artist, conversationId } = await fanAndArtist(t);
      const outsider = await createFan(t);
      const first = await send(t, fan, conversationId, 'first');
      const second = await send(t, fan, conversationId, 'second, regretted');
      expect(await unread(artist.token)).toBe(2);

      const byArtist = await call(t.url, 'DELETE', `/messages/${second.body.data._id}`, { token: artist.token });
      expect(byArtist.status).toBe(403);
      expect(byArtist.body.message).toBe(messageRouteErrors.notYourMessage);
      const byOutsider = await call(t.url, 'DELETE', `/messages/${second.body.data._id}`, { token: outsider.token });
      expect(byOutsider.status).toBe(404);

      const deleted = await call(t.url, 'DELETE', `/messages/${second.body.data._id}`, { token: fan.token });
      expect(deleted.status).toBe(200);
      expect(deleted.body.data).toEqual({ _id: second.body.data._id, conversationId });
      expect((await call(t.url, 'DELETE', `/messages/${second.body.data._id}`, { token: fan.token })).status).toBe(404);

      expect((await listMessages(artist.token, conversationId)).body.data).toEqual({ data: [first.body.data], total: 1 });
      expect(await unread(artist.token)).toBe(1);
      const [listed] = (await listConversations(artist.token)).body.data.data;
      expect(listed).toMatchObject({ _id: conversationId, lastMessage: 'first', lastMessageCreatedAt: first.body.data.createdAt });

      // A message already read leaves the count alone; the last one gone, the conversation leaves the list.
      await call(t.url, 'POST', `/messages/read-all/${conversationId}`, { token: artist.token });
      await call(t.url, 'DELETE', `/messages/${first.body.data._id}`, { token: fan.token });
      expect(await unread(artist.token)).toBe(0);
      expect((await listConversations(artist.token)).body.data).toEqual({ data: [], total: 0 });
      expect((await listConversations(fan.token)).body.data).toEqual({ data: [], total: 0 });
    });

    it(`limits sending to ${MESSAGES_PER_MINUTE} messages a minute per user, with Retry-After`, async () => {
      const { fan, conversationId } = await fanAndArtist(t);
      for (let i = 0; i < MESSAGES_PER_MINUTE; i += 1) expect((await send(t, fan, conversationId, `m${i}`)).status).toBe(200);
      const limited = await send(t, fan, conversationId, 'one too many');
      expect(limited.status).toBe(429);
      expect(limited.body.message).toBe(messageRouteErrors.tooFast);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await listMessages(fan.token, conversationId)).body.data.total).toBe(MESSAGES_PER_MINUTE);
    });
  });
});
