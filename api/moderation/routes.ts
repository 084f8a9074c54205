import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BlockSchema, moderationMessages, MuteWordSchema, ReportSchema, SuspendSchema } from '#contract/moderation';
import { RealtimeEvent } from '#contract/realtime';
import { consume } from '../auth/rate-limits.js';
import { requireViewer, type Viewer } from '../auth/viewer.js';
import { tag } from '../cache/tags.js';
import type { ApiContext } from '../context.js';
import { one } from '../db/client.js';
import { isOperator } from '../users/queries.js';
import { ApiError, badRequest, forbidden, notFound, ok, parse } from '../http.js';
import { cachedUnreadTotal } from '../conversations/queries.js';
import { createMessage } from '../messages/queries.js';
import type { PaymentGateway } from '../payments/gateway.js';
import { endMembershipWithRefund, membershipEnding } from '../payments/membership-ending.js';
import type { PaymentsContext } from '../payments/service.js';
import type { Realtime } from '../realtime/server.js';
import { hasAccess } from '../subscriptions/queries.js';
import { cachedArtistName, displayName, isBlocked, listAudit, listBlocks, listHeld, listReports, logAction } from './queries.js';
import { suspendAccount } from './suspend.js';

const IdParams = z.object({ id: z.string().min(1).max(100) });
const FanParams = z.object({ fanId: z.string().min(1).max(100) });
const HeldParams = z.object({
  kind: z.enum(['comment', 'message'], { error: "kind must be 'comment' or 'message'." }),
  id: z.string().min(1).max(100),
});
const WordParams = z.object({ word: z.string().min(1).max(50) });

interface ReportTarget {
  artistId: string;
  authorId: string;
  authorUsername: string;
  text: string;
  visible: boolean;
}

/** Reports a fan may send in a while: enough for someone being harassed, too few to flood an artist's list. */
export const REPORTS_PER_HOUR = 20;

/** Most words an artist may mute. */
export const MAX_MUTE_WORDS = 200;

/**
 * Moderation (docs/moderation.md): the artist's tools for their own club (hide comments, block fans, mute words,
 * review what was held, read reports and the audit log), a fan's reports, and the operator's pages.
 */
export function moderationRoutes(app: FastifyInstance, ctx: ApiContext, realtime: Realtime, gateway: PaymentGateway) {
  const { db } = ctx;
  const pc: PaymentsContext = { db, cache: ctx.cache, jobs: ctx.jobs, config: ctx.config, gateway, log: ctx.log };
  const reportLimiter = ctx.limiters.limiter({ keyPrefix: 'report', points: REPORTS_PER_HOUR, duration: 60 * 60 });

  /** The viewer as the artist of their own club; 403 for a fan. */
  async function requireArtist(request: Parameters<typeof requireViewer>[1]) {
    const viewer = await requireViewer(ctx, request);
    if (!viewer.isPerformer) throw forbidden(moderationMessages.artistsOnly);
    return viewer;
  }

  async function requireOperator(request: Parameters<typeof requireViewer>[1]) {
    const viewer = await requireViewer(ctx, request);
    if (!(await isOperator(db, viewer.id))) throw forbidden(moderationMessages.operatorsOnly);
    return viewer;
  }

  const actor = (viewer: Viewer) => ({ actorId: viewer.id, actorLabel: `@${viewer.username}` });

  /** A comment in the artist's club, with its author; 404 for any other. */
  async function clubComment(artist: Viewer, id: string) {
    const comment = await one<{ id: string; authorId: string; authorUsername: string; text: string }>(
      db,
      `SELECT m.id, m.author_id AS "authorId", u.username AS "authorUsername", m.text
         FROM comments m JOIN content_items c ON c.id = m.item_id JOIN users u ON u.id = m.author_id
        WHERE m.id = $1 AND c.artist_id = $2 AND m.deleted_at IS NULL`,
      [id, artist.id],
    );
    if (!comment) throw notFound(moderationMessages.commentNotFound);
    return comment;
  }

  for (const [path, hidden] of [
    ['hide', true],
    ['unhide', false],
  ] as const) {
    /** A hidden comment is seen only by its author and the artist. */
    app.post(`/moderation/comments/:id/${path}`, async (request) => {
      const artist = await requireArtist(request);
      const { id } = parse(IdParams, request.params);
      const comment = await clubComment(artist, id);
      await db.transaction(async (tx) => {
        await tx.query(`UPDATE comments SET hidden_at = ${hidden ? 'now()' : 'NULL'} WHERE id = $1`, [id]);
        await logAction(tx, {
          artistId: artist.id,
          ...actor(artist),
          action: hidden ? 'hid comment' : 'showed comment again',
          subjectUserId: comment.authorId,
          subjectLabel: `@${comment.authorUsername}`,
          detail: comment.text,
        });
      });
      await ctx.cache.invalidate(tag.content(artist.id));
      return ok({ _id: id, hidden });
    });
  }

  /** The fan as the artist's confirmation page names them, and whether they are blocked already. */
  app.get('/moderation/fans/:fanId', async (request) => {
    const artist = await requireArtist(request);
    const { fanId } = parse(FanParams, request.params);
    const fan = await one<{ id: string; username: string; name: string; avatar: string }>(
      db,
      'SELECT id, username, name, avatar FROM users WHERE id = $1',
      [fanId],
    );
    if (!fan || fan.id === artist.id) throw notFound(moderationMessages.fanNotFound);
    return ok({
      fan: { _id: fan.id, username: fan.username, name: fan.name, avatar: fan.avatar },
      blocked: await isBlocked(ctx, artist.id, fan.id),
      // What ending their membership would refund, shown before the artist confirms; null when none runs.
      membership: (await membershipEnding(db, artist.id, fan.id))?.shown ?? null,
    });
  });

  app.get('/moderation/blocks', async (request) => {
    const artist = await requireArtist(request);
    return ok({ data: await listBlocks(db, artist.id) });
  });

  /**
   * Blocks a fan: from now on no messages, comments or reports from them in this club. Blocking twice is one block.
   * With `endMembership` it also ends their membership now with a refund of its unused part (./docs/moderation.md):
   * on a blocked fan too, so the blocked list can offer it later.
   */
  app.put('/moderation/blocks/:fanId', async (request) => {
    const artist = await requireArtist(request);
    const { fanId } = parse(FanParams, request.params);
    const body = parse(BlockSchema, request.body ?? {});
    if (fanId === artist.id) throw badRequest(moderationMessages.notYourself);
    const fan = await one<{ id: string; username: string }>(db, 'SELECT id, username FROM users WHERE id = $1', [fanId]);
    if (!fan) throw notFound(moderationMessages.fanNotFound);
    const conversationId = await db.transaction(async (tx) => {
      const added = await tx.query('INSERT INTO blocks (artist_id, fan_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING fan_id', [
        artist.id,
        fan.id,
      ]);
      if (added.length) {
        await logAction(tx, {
          artistId: artist.id,
          ...actor(artist),
          action: 'blocked fan',
          subjectUserId: fan.id,
          subjectLabel: `@${fan.username}`,
        });
      }
      return (await one<{ id: string }>(tx, 'SELECT id FROM conversations WHERE fan_id = $1 AND artist_id = $2', [fan.id, artist.id]))?.id;
    });
    await afterBlockChange(artist.id, fan.id, conversationId, true);
    if (!body.endMembership) return ok({ fanId: fan.id, blocked: true, membershipEnded: false, refunded: 0 });
    const ending = await endMembershipWithRefund(
      pc,
      { id: artist.id, name: await displayName(db, artist.id) },
      fan.id,
      body.refundCents,
    ).catch((error: unknown) => {
      // The block stands; only the refund could not be made, and the artist is told so.
      if (error instanceof ApiError && error.statusCode >= 500) throw new ApiError(error.statusCode, moderationMessages.endFailed);
      throw error;
    });
    if (ending.ended) {
      await logAction(db, {
        artistId: artist.id,
        ...actor(artist),
        action: 'ended membership',
        subjectUserId: fan.id,
        subjectLabel: `@${fan.username}`,
        detail: ending.refundedCents ? `Refunded the unused part: ${ending.total}` : 'Nothing to refund',
      });
    }
    return ok({ fanId: fan.id, blocked: true, membershipEnded: ending.ended, refunded: ending.refundedCents / 100 });
  });

  app.delete('/moderation/blocks/:fanId', async (request) => {
    const artist = await requireArtist(request);
    const { fanId } = parse(FanParams, request.params);
    const conversationId = await db.transaction(async (tx) => {
      const removed = await tx.query<{ username: string }>(
        `DELETE FROM blocks b USING users u WHERE b.artist_id = $1 AND b.fan_id = $2 AND u.id = b.fan_id RETURNING u.username`,
        [artist.id, fanId],
      );
      if (removed.length) {
        await logAction(tx, {
          artistId: artist.id,
          ...actor(artist),
          action: 'unblocked fan',
          subjectUserId: fanId,
          subjectLabel: `@${removed[0].username}`,
        });
      }
      return (await one<{ id: string }>(tx, 'SELECT id FROM conversations WHERE fan_id = $1 AND artist_id = $2', [fanId, artist.id]))?.id;
    });
    await afterBlockChange(artist.id, fanId, conversationId, false);
    return ok({ fanId, blocked: false });
  });

  /**
   * A block changes what the fan's pages offer (the message box, the comment form): the cached answers go, and the
   * fan's open pages hear of it over the socket so that the message box goes at once, not on the next load.
   */
  async function afterBlockChange(artistId: string, fanId: string, conversationId: string | undefined, blocked: boolean) {
    await ctx.cache.invalidate(
      tag.moderation(artistId),
      tag.inbox(fanId),
      tag.inbox(artistId),
      ...(conversationId ? [tag.conversation(conversationId)] : []),
    );
    realtime.emitToUser(fanId, RealtimeEvent.blockChanged, { artistId, conversationId: conversationId ?? null, blocked });
  }

  /** A fan reports a comment or a message they can see, with a reason; the artist and the operators read it. */
  app.post('/reports', async (request, reply) => {
    const viewer = await requireViewer(ctx, request);
    const body = parse(ReportSchema, request.body);
    const target =
      body.kind === 'comment'
        ? await one<ReportTarget>(
            db,
            `SELECT c.artist_id AS "artistId", m.author_id AS "authorId", u.username AS "authorUsername", m.text,
                    (m.hidden_at IS NULL AND m.held_at IS NULL) AS visible
               FROM comments m JOIN content_items c ON c.id = m.item_id JOIN users u ON u.id = m.author_id
              WHERE m.id = $1 AND m.deleted_at IS NULL`,
            [body.id],
          )
        : await one<ReportTarget>(
            db,
            `SELECT v.artist_id AS "artistId", m.sender_id AS "authorId", u.username AS "authorUsername", m.text, true AS visible
               FROM messages m JOIN conversations v ON v.id = m.conversation_id JOIN users u ON u.id = m.sender_id
               JOIN conversation_members cm ON cm.conversation_id = v.id AND cm.user_id = $2
              WHERE m.id = $1`,
            [body.id, viewer.id],
          );
    // What the viewer cannot see is not there for them: a comment of a club they are not in, another's message.
    const canSee =
      target &&
      (target.visible || target.authorId === viewer.id) &&
      (body.kind === 'message' || target.artistId === viewer.id || (await hasAccess(ctx, viewer.id, target.artistId)));
    if (!target || !canSee) throw notFound(moderationMessages.reportTargetNotFound);
    if (target.authorId === viewer.id) throw badRequest(moderationMessages.reportOwn);
    if (await isBlocked(ctx, target.artistId, viewer.id))
      throw forbidden(moderationMessages.cantReport(await cachedArtistName(ctx, target.artistId)));
    await consume(reportLimiter, viewer.id, moderationMessages.tooManyReports);
    const created = await db.transaction(async (tx) => {
      const row = await one<{ id: string }>(
        tx,
        `INSERT INTO reports (reporter_id, artist_id, reported_user_id, kind, target_id, excerpt, reason)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (reporter_id, kind, target_id) DO NOTHING RETURNING id`,
        [viewer.id, target.artistId, target.authorId, body.kind, body.id, target.text.slice(0, 1000), body.reason],
      );
      if (row) {
        await logAction(tx, {
          artistId: target.artistId,
          ...actor(viewer),
          action: `reported ${body.kind}`,
          subjectUserId: target.authorId,
          subjectLabel: `@${target.authorUsername}`,
          detail: body.reason,
        });
      }
      return row;
    });
    if (!created) throw new ApiError(409, moderationMessages.alreadyReported);
    return reply.status(201).send(ok({ _id: created.id }));
  });

  app.get('/moderation/reports', async (request) => {
    const artist = await requireArtist(request);
    return ok({ data: await listReports(db, artist.id) });
  });

  app.get('/moderation/mute-words', async (request) => {
    const artist = await requireArtist(request);
    const rows = await db.query<{ word: string }>('SELECT word FROM mute_words WHERE artist_id = $1 ORDER BY word', [artist.id]);
    return ok({ data: rows.map((row) => row.word) });
  });

  app.post('/moderation/mute-words', async (request) => {
    const artist = await requireArtist(request);
    const { word } = parse(MuteWordSchema, request.body);
    await db.transaction(async (tx) => {
      const count = await one<{ n: number }>(tx, 'SELECT count(*)::int AS n FROM mute_words WHERE artist_id = $1', [artist.id]);
      if ((count?.n ?? 0) >= MAX_MUTE_WORDS) throw badRequest(moderationMessages.tooManyWords, { word: [moderationMessages.tooManyWords] });
      const added = await tx.query('INSERT INTO mute_words (artist_id, word) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING word', [
        artist.id,
        word,
      ]);
      if (added.length) await logAction(tx, { artistId: artist.id, ...actor(artist), action: 'muted word', detail: word });
    });
    await ctx.cache.invalidate(tag.moderation(artist.id));
    return ok({ word });
  });

  app.delete('/moderation/mute-words/:word', async (request) => {
    const artist = await requireArtist(request);
    const { word } = parse(WordParams, request.params);
    await db.transaction(async (tx) => {
      const removed = await tx.query('DELETE FROM mute_words WHERE artist_id = $1 AND word = $2 RETURNING word', [
        artist.id,
        word.toLowerCase(),
      ]);
      if (removed.length)
        await logAction(tx, { artistId: artist.id, ...actor(artist), action: 'unmuted word', detail: word.toLowerCase() });
    });
    await ctx.cache.invalidate(tag.moderation(artist.id));
    return ok({ word });
  });

  app.get('/moderation/held', async (request) => {
    const artist = await requireArtist(request);
    return ok({ data: await listHeld(db, artist.id) });
  });

  /** Approving shows a held comment, or sends a held message as if it were sent now; deleting drops it. */
  for (const approve of [true, false]) {
    const handler = async (request: Parameters<typeof requireViewer>[1]) => {
      const artist = await requireArtist(request);
      const { kind, id } = parse(HeldParams, request.params);
      if (kind === 'comment') {
        const comment = await one<{ authorId: string; authorUsername: string; text: string }>(
          db,
          `SELECT m.author_id AS "authorId", u.username AS "authorUsername", m.text
             FROM comments m JOIN content_items c ON c.id = m.item_id JOIN users u ON u.id = m.author_id
            WHERE m.id = $1 AND c.artist_id = $2 AND m.held_at IS NOT NULL AND m.deleted_at IS NULL`,
          [id, artist.id],
        );
        if (!comment) throw notFound(moderationMessages.heldNotFound);
        await db.transaction(async (tx) => {
          await tx.query(
            approve ? 'UPDATE comments SET held_at = NULL WHERE id = $1' : 'UPDATE comments SET deleted_at = now() WHERE id = $1',
            [id],
          );
          await logAction(tx, {
            artistId: artist.id,
            ...actor(artist),
            action: approve ? 'approved held comment' : 'deleted held comment',
            subjectUserId: comment.authorId,
            subjectLabel: `@${comment.authorUsername}`,
            detail: comment.text,
          });
        });
        await ctx.cache.invalidate(tag.content(artist.id));
        return ok({ _id: id, approved: approve });
      }
      const held = await one<{ conversationId: string; senderId: string; senderUsername: string; text: string; fanId: string }>(
        db,
        `SELECT h.conversation_id AS "conversationId", h.sender_id AS "senderId", u.username AS "senderUsername", h.text, v.fan_id AS "fanId"
           FROM held_messages h JOIN conversations v ON v.id = h.conversation_id JOIN users u ON u.id = h.sender_id
          WHERE h.id = $1 AND v.artist_id = $2`,
        [id, artist.id],
      );
      if (!held) throw notFound(moderationMessages.heldNotFound);
      const sent = await db.transaction(async (tx) => {
        const gone = await tx.query('DELETE FROM held_messages WHERE id = $1 RETURNING id', [id]);
        if (!gone.length) throw notFound(moderationMessages.heldNotFound);
        await logAction(tx, {
          artistId: artist.id,
          ...actor(artist),
          action: approve ? 'approved held message' : 'deleted held message',
          subjectUserId: held.senderId,
          subjectLabel: `@${held.senderUsername}`,
          detail: held.text,
        });
        return approve ? createMessage(tx, { conversationId: held.conversationId, senderId: held.senderId, text: held.text }) : undefined;
      });
      if (sent && 'message' in sent) {
        await ctx.cache.invalidate(tag.conversation(held.conversationId), tag.inbox(held.fanId), tag.inbox(artist.id));
        realtime.emitToUser(artist.id, RealtimeEvent.unreadTotal, { total: await cachedUnreadTotal(ctx, artist.id) });
      }
      return ok({ _id: id, approved: approve });
    };
    if (approve) app.post('/moderation/held/:kind/:id/approve', handler);
    else app.delete('/moderation/held/:kind/:id', handler);
  }

  app.get('/moderation/audit', async (request) => {
    const artist = await requireArtist(request);
    return ok({ data: await listAudit(db, artist.id) });
  });

  /** The operator's views and their one action, for accounts marked is_operator (the CLI grants it). */
  app.get('/operator/reports', async (request) => {
    await requireOperator(request);
    return ok({ data: await listReports(db, null) });
  });

  app.get('/operator/audit', async (request) => {
    await requireOperator(request);
    return ok({ data: await listAudit(db, null) });
  });

  app.post('/operator/suspensions', async (request) => {
    const operator = await requireOperator(request);
    const input = parse(SuspendSchema, request.body);
    return ok(await suspendAccount(ctx, input, { id: operator.id, label: `@${operator.username}` }, (id) => realtime.disconnectUser(id)));
  });
}
