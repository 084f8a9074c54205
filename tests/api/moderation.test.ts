import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moderationMessages } from '#contract/moderation';
import { RealtimeEvent } from '#contract/realtime';
import { ADMIN_TOKEN_HEADER } from '../../api/admin/routes';
import { COMMENTS_PER_MINUTE } from '../../api/comments/routes';
import { MESSAGES_PER_MINUTE } from '../../api/messages/routes';
import { REPORTS_PER_HOUR } from '../../api/moderation/routes';
import { call, describeEachDatabase, login, startTestApi, subscribe, type TestApi, type TestUser } from '../helpers/api';
import { connectClient, connected, createArtist, createFan, fanAndArtist, recordEvents, send, type Member } from './messages-fixtures';

const ADMIN_TOKEN = 'moderation-admin-token';

/** The whole file runs on PGlite, and on PostgreSQL (with Redis) when TEST_DATABASE_URL is set. */
describeEachDatabase('moderation', (database) => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ database: database.name, adminToken: ADMIN_TOKEN });
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = async (artist: TestUser) => {
    const answer = await call(t.url, 'POST', '/content', {
      token: artist.token,
      body: { title: 'Soundcheck', content: 'Words', tags: 'post' },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.data._id as string;
  };
  const comment = (user: TestUser, itemId: string, text: string) =>
    call(t.url, 'POST', `/content/${itemId}/comments`, { token: user.token, body: { text } });
  const comments = async (user: TestUser, itemId: string) => {
    const answer = await call(t.url, 'GET', `/content/${itemId}/comments`, { token: user.token, query: { limit: 50 } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data as { data: { _id: string; text: string; hidden?: boolean; held?: boolean }[]; total: number };
  };
  const texts = async (user: TestUser, itemId: string) => (await comments(user, itemId)).data.map((c) => c.text);
  const block = (artist: TestUser, fan: TestUser) => call(t.url, 'PUT', `/moderation/blocks/${fan.id}`, { token: artist.token, body: {} });
  const unblock = (artist: TestUser, fan: TestUser) => call(t.url, 'DELETE', `/moderation/blocks/${fan.id}`, { token: artist.token });
  const report = (user: TestUser, kind: 'comment' | 'message', id: string, reason = 'Keeps insulting other fans') =>
    call(t.url, 'POST', '/reports', { token: user.token, body: { kind, id, reason } });
  const audit = async (artist: TestUser) =>
    (await call(t.url, 'GET', '/moderation/audit', { token: artist.token })).body.data.data as {
      action: string;
      actor: string;
      subject: string;
    }[];
  const messages = async (user: TestUser, conversationId: string) =>
    (
      await call(t.url, 'GET', `/messages/conversations/${conversationId}`, { token: user.token, query: { limit: 50, sort: 'desc' } })
    ).body.data.data.map((m: { text: string }) => m.text) as string[];

  /** A club with a post, its artist, a fan who talks to the artist, and a second fan who reads along. */
  async function club() {
    const { fan, artist, conversationId } = await fanAndArtist(t);
    const reader = await createFan(t);
    await subscribe(t, reader.id, artist.id);
    const itemId = await post(artist);
    return { fan, artist, reader, conversationId, itemId };
  }

  async function operator(): Promise<Member> {
    const user = await createFan(t);
    const granted = await call(t.url, 'POST', '/admin/operators', {
      headers: { [ADMIN_TOKEN_HEADER]: ADMIN_TOKEN },
      body: { user: user.email },
    });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    return user;
  }

  describe('hiding and deleting comments', () => {
    it('a hidden comment is seen only by its author and the artist, until the artist shows it again', async () => {
      const { fan, artist, reader, itemId } = await club();
      const written = await comment(fan, itemId, 'Nobody asked for this song');
      expect(written.status).toBe(201);
      const id = written.body.data._id;
      expect(await texts(reader, itemId)).toEqual(['Nobody asked for this song']);

      const hidden = await call(t.url, 'POST', `/moderation/comments/${id}/hide`, { token: artist.token });
      expect(hidden.status).toBe(200);
      expect((await comments(reader, itemId)).data).toEqual([]);
      expect((await comments(reader, itemId)).total).toBe(0);
      expect((await comments(fan, itemId)).data).toMatchObject([{ _id: id, hidden: true }]);
      expect((await comments(artist, itemId)).data).toMatchObject([{ _id: id, hidden: true, canModerate: true }]);
      // The item's comment count is what a fan can read.
      const item = await call(t.url, 'GET', `/content/${itemId}`, { token: reader.token });
      expect(item.body.data.commentCount ?? item.body.data.comments ?? 0).toBe(0);

      await call(t.url, 'POST', `/moderation/comments/${id}/unhide`, { token: artist.token });
      expect(await texts(reader, itemId)).toEqual(['Nobody asked for this song']);
    });

    it('only the club’s artist hides a comment: a fan is refused, another artist finds nothing', async () => {
      const { fan, reader, itemId } = await club();
      const id = (await comment(fan, itemId, 'Hello')).body.data._id;
      const otherArtist = await createArtist(t);
      expect((await call(t.url, 'POST', `/moderation/comments/${id}/hide`, { token: reader.token })).status).toBe(403);
      const stranger = await call(t.url, 'POST', `/moderation/comments/${id}/hide`, { token: otherArtist.token });
      expect(stranger.status).toBe(404);
      expect(stranger.body.message).toBe(moderationMessages.commentNotFound);
    });
  });

  describe('blocking a fan', () => {
    it('a blocked fan is refused on messages, on a new conversation, on comments and on reports, in words that name the artist', async () => {
      const { fan, artist, reader, conversationId, itemId } = await club();
      const readerComment = (await comment(reader, itemId, 'Great gig')).body.data._id;
      expect((await block(artist, fan)).status).toBe(200);

      const message = await send(t, fan, conversationId, 'Answer me');
      expect(message.status).toBe(403);
      expect(message.body.message).toBe(`You can't message ${artist.name}.`);
      const reopened = await call(t.url, 'POST', '/conversations', {
        token: fan.token,
        body: { source: 'performer', sourceId: artist.id },
      });
      expect(reopened.status).toBe(403);
      expect(reopened.body.message).toBe(`You can't message ${artist.name}.`);

      const refusedComment = await comment(fan, itemId, 'You cannot hide from me');
      expect(refusedComment.status).toBe(403);
      expect(refusedComment.body.message).toBe(`You can't comment on posts by ${artist.name}.`);
      expect(await texts(reader, itemId)).toEqual(['Great gig']);

      const refusedReport = await report(fan, 'comment', readerComment);
      expect(refusedReport.status).toBe(403);
      expect(refusedReport.body.message).toBe(moderationMessages.cantReport(artist.name));

      // The conversation says so, for the page to show a line instead of the message box; the fan keeps what they paid for.
      const conversation = await call(t.url, 'GET', `/conversations/${conversationId}`, { token: fan.token });
      expect(conversation.body.data.blocked).toBe(true);
      expect((await call(t.url, 'GET', `/content/${itemId}`, { token: fan.token })).status).toBe(200);
      expect(await messages(fan, conversationId)).toEqual([]);

      // The artist's list, and undoing it.
      const list = await call(t.url, 'GET', '/moderation/blocks', { token: artist.token });
      expect(list.body.data.data).toMatchObject([{ fan: { _id: fan.id, username: fan.username } }]);
      expect((await unblock(artist, fan)).status).toBe(200);
      expect((await send(t, fan, conversationId, 'Sorry')).status).toBe(200);
      expect((await comment(fan, itemId, 'Sorry')).status).toBe(201);
      expect((await call(t.url, 'GET', `/conversations/${conversationId}`, { token: fan.token })).body.data.blocked).toBeUndefined();
    });

    it('the fan’s open page hears of the block over the socket', async () => {
      const { fan, artist, conversationId } = await club();
      const socket = connectClient(t.url, fan.token);
      try {
        const events = recordEvents(socket);
        await connected(socket);
        await block(artist, fan);
        const event = await events.waitFor(RealtimeEvent.blockChanged);
        expect(event).toEqual({ artistId: artist.id, conversationId, blocked: true });
      } finally {
        socket.disconnect();
      }
    });

    it('only an artist blocks, never themselves, and only someone who exists', async () => {
      const { fan, artist, reader } = await club();
      expect((await block(reader, fan)).status).toBe(403);
      expect((await block(artist, artist)).status).toBe(400);
      const ghost = await call(t.url, 'PUT', '/moderation/blocks/no-such-fan', { token: artist.token, body: {} });
      expect(ghost.status).toBe(404);
      expect(ghost.body.message).toBe(moderationMessages.fanNotFound);
    });
  });

  describe('reports', () => {
    it('a fan reports a comment and a message with a reason; the artist sees their club’s, the operator sees all', async () => {
      const { fan, artist, reader, conversationId, itemId } = await club();
      const nasty = (await comment(fan, itemId, 'You all have terrible taste')).body.data._id;
      const reported = await report(reader, 'comment', nasty, 'Insults every fan');
      expect(reported.status).toBe(201);

      const fromArtist = (await send(t, artist, conversationId, 'Please stop')).body.data._id;
      expect((await report(fan, 'message', fromArtist, 'The artist threatened me')).status).toBe(201);

      const other = await club();
      const elsewhere = (await comment(other.fan, other.itemId, 'Elsewhere')).body.data._id;
      expect((await report(other.reader, 'comment', elsewhere)).status).toBe(201);

      const artistView = await call(t.url, 'GET', '/moderation/reports', { token: artist.token });
      expect(artistView.status).toBe(200);
      expect(artistView.body.data.data).toMatchObject([
        { kind: 'message', targetId: fromArtist, reason: 'The artist threatened me', reporter: { _id: fan.id } },
        {
          kind: 'comment',
          targetId: nasty,
          excerpt: 'You all have terrible taste',
          reason: 'Insults every fan',
          reporter: { _id: reader.id },
          reported: { _id: fan.id },
        },
      ]);

      const staff = await operator();
      const operatorView = await call(t.url, 'GET', '/operator/reports', { token: staff.token });
      expect(operatorView.status).toBe(200);
      const ids = operatorView.body.data.data.map((r: { targetId: string }) => r.targetId);
      expect(ids).toEqual(expect.arrayContaining([nasty, fromArtist, elsewhere]));

      const notOperator = await call(t.url, 'GET', '/operator/reports', { token: reader.token });
      expect(notOperator.status).toBe(403);
      expect(notOperator.body.message).toBe(moderationMessages.operatorsOnly);
    });

    it('report abuse is refused: one’s own words, twice the same, what one cannot see, no reason, and a flood', async () => {
      const { fan, artist, reader, conversationId, itemId } = await club();
      const mine = (await comment(fan, itemId, 'Mine')).body.data._id;
      expect((await report(fan, 'comment', mine)).body.message).toBe(moderationMessages.reportOwn);
      expect((await report(reader, 'comment', mine)).status).toBe(201);
      const again = await report(reader, 'comment', mine);
      expect(again.status).toBe(409);
      expect(again.body.message).toBe(moderationMessages.alreadyReported);

      // A club the reporter is not in, and a conversation they are not a member of, are not there for them.
      const outsider = await createFan(t);
      expect((await report(outsider, 'comment', mine)).status).toBe(404);
      const message = (await send(t, artist, conversationId, 'Hi')).body.data._id;
      expect((await report(reader, 'message', message)).status).toBe(404);
      // A hidden comment is not there for another fan either.
      const hiddenOne = (await comment(fan, itemId, 'Hidden one')).body.data._id;
      await call(t.url, 'POST', `/moderation/comments/${hiddenOne}/hide`, { token: artist.token });
      expect((await report(reader, 'comment', hiddenOne)).status).toBe(404);

      const noReason = await report(reader, 'comment', mine, '   ');
      expect(noReason.status).toBe(400);
      expect(noReason.body.message).toBe(moderationMessages.reasonRequired);

      // Keyed on the fan, not the session: a second log-in draws on the same allowance.
      const second = (await login(t, reader.username, reader.password)).body.data.token;
      const rows = await t.db.query<{ id: string }>(
        `INSERT INTO comments (item_id, author_id, text) SELECT $1, $2, 'filler ' || n FROM generate_series(1, ${REPORTS_PER_HOUR}) n RETURNING id`,
        [itemId, fan.id],
      );
      const answers = [];
      for (const [index, row] of rows.entries()) {
        answers.push(
          (
            await call(t.url, 'POST', '/reports', {
              token: index % 2 ? second : reader.token,
              body: { kind: 'comment', id: row.id, reason: 'Spam' },
            })
          ).status,
        );
      }
      // Two points went on the first report above and on sending it again.
      expect(answers.slice(0, REPORTS_PER_HOUR - 2)).toEqual(Array(REPORTS_PER_HOUR - 2).fill(201));
      expect(answers[REPORTS_PER_HOUR - 2]).toBe(429);
    });
  });

  describe('suspending an account', () => {
    it('an operator suspends an account: every session ends at once, its socket drops, and signing in says why', async () => {
      const { fan } = await club();
      const second = (await login(t, fan.username, fan.password)).body.data.token as string;
      expect((await call(t.url, 'GET', '/users/me', { token: second })).status).toBe(200);
      const socket = connectClient(t.url, fan.token);
      await connected(socket);
      const dropped = new Promise<string>((resolve) => socket.on('disconnect', (reason) => resolve(reason)));
      try {
        const staff = await operator();
        const suspended = await call(t.url, 'POST', '/operator/suspensions', {
          token: staff.token,
          body: { user: fan.username, reason: 'Harassment' },
        });
        expect(suspended.status, JSON.stringify(suspended.body)).toBe(200);
        expect(suspended.body.data).toEqual({ user: fan.username, suspended: true, sessionsEnded: 2 });

        expect((await call(t.url, 'GET', '/users/me', { token: fan.token })).status).toBe(401);
        expect((await call(t.url, 'GET', '/users/me', { token: second })).status).toBe(401);
        expect(await dropped).toBe('io server disconnect');
        socket.disconnect();

        const signIn = await login(t, fan.username, fan.password);
        expect(signIn.status).toBe(403);
        expect(signIn.body.message).toBe(moderationMessages.suspended);
        // A wrong password learns nothing of the suspension.
        expect((await login(t, fan.username, 'Wrong-Pass-1!')).status).toBe(422);

        const lifted = await call(t.url, 'POST', '/operator/suspensions', { token: staff.token, body: { user: fan.email, lift: true } });
        expect(lifted.body.data.suspended).toBe(false);
        expect((await login(t, fan.username, fan.password)).status).toBe(200);
      } finally {
        socket.disconnect();
      }
    });

    it('the CLI’s endpoint suspends with the admin token; a fan cannot suspend anyone', async () => {
      const { fan, reader } = await club();
      expect((await call(t.url, 'POST', '/operator/suspensions', { token: reader.token, body: { user: fan.username } })).status).toBe(403);
      expect((await call(t.url, 'POST', '/admin/suspensions', { body: { user: fan.username } })).status).toBe(403);
      const done = await call(t.url, 'POST', '/admin/suspensions', {
        headers: { [ADMIN_TOKEN_HEADER]: ADMIN_TOKEN },
        body: { user: fan.email },
      });
      expect(done.body.data).toMatchObject({ user: fan.username, suspended: true, sessionsEnded: 1 });
      expect((await call(t.url, 'GET', '/users/me', { token: fan.token })).status).toBe(401);
      const unknown = await call(t.url, 'POST', '/admin/suspensions', {
        headers: { [ADMIN_TOKEN_HEADER]: ADMIN_TOKEN },
        body: { user: 'nobody-here' },
      });
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe(moderationMessages.userNotFound);
    });
  });

  describe('muted words', () => {
    it('a comment with a muted word is held for the artist, who approves it or deletes it', async () => {
      const { fan, artist, reader, itemId } = await club();
      expect((await call(t.url, 'POST', '/moderation/mute-words', { token: artist.token, body: { word: 'Creep' } })).status).toBe(200);
      const held = await comment(fan, itemId, 'You CREEP, play the old songs');
      expect(held.status).toBe(201);
      expect(held.body.data.held).toBe(true);
      // A word inside another word is not the word.
      expect((await comment(fan, itemId, 'Creeping up the charts')).body.data.held).toBeUndefined();
      expect(await texts(reader, itemId)).toEqual(['Creeping up the charts']);
      expect((await comments(fan, itemId)).data).toMatchObject([{ text: 'Creeping up the charts' }, { held: true }]);

      const queue = await call(t.url, 'GET', '/moderation/held', { token: artist.token });
      expect(queue.body.data.data).toMatchObject([{ kind: 'comment', _id: held.body.data._id, author: { _id: fan.id } }]);
      await call(t.url, 'POST', `/moderation/held/comment/${held.body.data._id}/approve`, { token: artist.token });
      expect(await texts(reader, itemId)).toEqual(['Creeping up the charts', 'You CREEP, play the old songs']);

      const second = await comment(fan, itemId, 'creep creep');
      await call(t.url, 'DELETE', `/moderation/held/comment/${second.body.data._id}`, { token: artist.token });
      expect((await comments(fan, itemId)).data.map((c) => c.text)).not.toContain('creep creep');
    });

    it('a message with a muted word is held, not delivered, until the artist approves it', async () => {
      const { fan, artist, conversationId } = await club();
      await call(t.url, 'POST', '/moderation/mute-words', { token: artist.token, body: { word: 'go away' } });
      const held = await send(t, fan, conversationId, 'Why don’t you GO   AWAY');
      expect(held.status).toBe(202);
      expect(held.body.data.held).toBe(true);
      expect(await messages(artist, conversationId)).toEqual([]);
      expect((await call(t.url, 'GET', '/messages/total-unread-messages', { token: artist.token })).body.data.total).toBe(0);

      const queue = await call(t.url, 'GET', '/moderation/held', { token: artist.token });
      expect(queue.body.data.data).toMatchObject([{ kind: 'message', placeId: conversationId }]);
      const approved = await call(t.url, 'POST', `/moderation/held/message/${held.body.data._id}/approve`, { token: artist.token });
      expect(approved.status).toBe(200);
      expect(await messages(artist, conversationId)).toEqual(['Why don’t you GO   AWAY']);
      // The artist's own words are never held.
      expect((await send(t, artist, conversationId, 'I will go away now')).status).toBe(200);
    });

    it('a word is checked: none, too long, and a fan cannot mute', async () => {
      const { artist, reader } = await club();
      const empty = await call(t.url, 'POST', '/moderation/mute-words', { token: artist.token, body: { word: ' ' } });
      expect(empty.status).toBe(400);
      expect(empty.body.message).toBe(moderationMessages.wordRequired);
      expect((await call(t.url, 'POST', '/moderation/mute-words', { token: artist.token, body: { word: 'x'.repeat(51) } })).status).toBe(
        400,
      );
      expect((await call(t.url, 'POST', '/moderation/mute-words', { token: reader.token, body: { word: 'rude' } })).status).toBe(403);
    });
  });

  describe('the audit log', () => {
    it('records who did what and when, for the artist’s own club; the operator reads it all', async () => {
      const { fan, artist, reader, itemId } = await club();
      const id = (await comment(fan, itemId, 'Rude')).body.data._id;
      await call(t.url, 'POST', `/moderation/comments/${id}/hide`, { token: artist.token });
      await block(artist, fan);
      await block(artist, fan);
      await unblock(artist, fan);
      await call(t.url, 'POST', '/moderation/mute-words', { token: artist.token, body: { word: 'rude' } });
      const gone = (await comment(reader, itemId, 'Delete me')).body.data._id;
      await call(t.url, 'DELETE', `/comments/${gone}`, { token: artist.token });

      const log = await audit(artist);
      expect(log.map((entry) => [entry.action, entry.actor, entry.subject])).toEqual([
        ['deleted comment', `@${artist.username}`, `@${reader.username}`],
        ['muted word', `@${artist.username}`, ''],
        ['unblocked fan', `@${artist.username}`, `@${fan.username}`],
        ['blocked fan', `@${artist.username}`, `@${fan.username}`],
        ['hid comment', `@${artist.username}`, `@${fan.username}`],
      ]);
      const other = await club();
      expect(await audit(other.artist)).toEqual([]);

      const staff = await operator();
      await call(t.url, 'POST', '/operator/suspensions', { token: staff.token, body: { user: fan.username, reason: 'Harassment' } });
      const all = await call(t.url, 'GET', '/operator/audit', { token: staff.token });
      expect(all.body.data.data[0]).toMatchObject({
        action: 'suspended account',
        actor: `@${staff.username}`,
        subject: `@${fan.username}`,
        detail: 'Harassment',
      });
      expect((await call(t.url, 'GET', '/moderation/audit', { token: reader.token })).status).toBe(403);
    });
  });

  describe('the account export', () => {
    it('holds the blocks either way, the reports the user made and the artist’s muted words', async () => {
      const { fan, artist, reader, itemId } = await club();
      const id = (await comment(fan, itemId, 'Boo')).body.data._id;
      await report(reader, 'comment', id, 'Rude to the band');
      await block(artist, fan);
      await call(t.url, 'POST', '/moderation/mute-words', { token: artist.token, body: { word: 'boo' } });
      const exported = async (user: TestUser) => (await call(t.url, 'GET', '/users/me/export', { token: user.token })).body.data.moderation;
      expect(await exported(fan)).toEqual({
        blockedBy: [{ artist: artist.username, since: expect.any(String) }],
        blocked: [],
        reportsMade: [],
        mutedWords: [],
      });
      expect(await exported(artist)).toEqual({
        blockedBy: [],
        blocked: [{ fan: fan.username, since: expect.any(String) }],
        reportsMade: [],
        mutedWords: ['boo'],
      });
      expect((await exported(reader)).reportsMade).toEqual([
        { kind: 'comment', artist: artist.username, excerpt: 'Boo', reason: 'Rude to the band', createdAt: expect.any(String) },
      ]);
    });
  });

  describe('rate limits keyed on the fan', () => {
    it('a second session does not give a fan a fresh allowance of messages or comments', async () => {
      const { fan, conversationId, itemId } = await club();
      const second = (await login(t, fan.username, fan.password)).body.data.token as string;
      const sessions = [fan.token, second];
      for (let i = 0; i < MESSAGES_PER_MINUTE; i++) {
        const sent = await call(t.url, 'POST', `/messages/conversations/${conversationId}`, {
          token: sessions[i % 2],
          body: { text: `m${i}`, fileIds: [], type: 'text' },
        });
        expect(sent.status).toBe(200);
      }
      const third = (await login(t, fan.username, fan.password)).body.data.token as string;
      expect(
        (
          await call(t.url, 'POST', `/messages/conversations/${conversationId}`, {
            token: third,
            body: { text: 'more', fileIds: [], type: 'text' },
          })
        ).status,
      ).toBe(429);

      for (let i = 0; i < COMMENTS_PER_MINUTE; i++) {
        expect((await call(t.url, 'POST', `/content/${itemId}/comments`, { token: sessions[i % 2], body: { text: `c${i}` } })).status).toBe(
          201,
        );
      }
      expect((await call(t.url, 'POST', `/content/${itemId}/comments`, { token: third, body: { text: 'more' } })).status).toBe(429);
    });
  });
});
