import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Comment } from '#contract/content';
import { CommentSchema } from '#contract/comment-schema';
import { consume } from '../auth/rate-limits.js';
import { requireViewer } from '../auth/viewer.js';
import { requireReadableItem } from '../content/guard.js';
import { paging } from '../content/params.js';
import type { ContentServices } from '../content/services.js';
import { one } from '../db/client.js';
import { badRequest, forbidden, notFound, ok, parse } from '../http.js';
import { findMediaByIds } from '../media/queries.js';
import { listeningMessages } from '#contract/listening';
import { tag } from '../cache/tags.js';
import { moderationMessages } from '#contract/moderation';
import { cachedArtistName, holdsMutedWord, isBlocked, logAction, mutedWords } from '../moderation/queries.js';

const ListQuery = z.object({
  ...paging,
  /** Return the page holding this comment (a link to one comment names it) instead of the page at offset. */
  commentId: z.string().max(100).optional(),
});

interface CommentRow {
  id: string;
  itemId: string;
  text: string;
  at: number | null;
  createdAt: Date;
  authorId: string;
  authorUsername: string;
  authorName: string;
  authorAvatar: string;
  hidden: boolean;
  held: boolean;
}

const COMMENT_SELECT = `
  SELECT m.id, m.item_id AS "itemId", m.text, m.at_seconds AS at, m.created_at AS "createdAt", m.author_id AS "authorId",
         u.username AS "authorUsername", u.name AS "authorName", u.avatar AS "authorAvatar",
         m.hidden_at IS NOT NULL AS hidden, m.held_at IS NOT NULL AS held
    FROM comments m JOIN users u ON u.id = m.author_id`;

/**
 * Which comments a reader sees: every fan sees the shown ones; a hidden or held comment only its author (named by
 * $viewer) and the artist ($all). Fans with nothing hidden share one cached page, with $viewer NULL.
 */
const visibleTo = (alias: string, viewer: string, all: string) =>
  `${alias}.deleted_at IS NULL AND (${all}::boolean OR (${alias}.hidden_at IS NULL AND ${alias}.held_at IS NULL) OR ${alias}.author_id = ${viewer}::text)`;

/** A comment with its author; `canDelete` tells the page whether to offer deletion to this viewer. */
function serializeComment(row: CommentRow, viewerId: string, artistId: string): Comment {
  return {
    _id: row.id,
    itemId: row.itemId,
    text: row.text,
    at: row.at,
    createdAt: new Date(row.createdAt).toISOString(),
    author: { _id: row.authorId, username: row.authorUsername, name: row.authorName, avatar: row.authorAvatar },
    isArtist: row.authorId === artistId,
    canDelete: row.authorId === viewerId || artistId === viewerId,
    ...(row.hidden ? { hidden: true } : {}),
    ...(row.held ? { held: true } : {}),
    ...(artistId === viewerId && row.authorId !== artistId ? { canModerate: true } : {}),
  };
}

export const commentErrors = {
  tooFast: "You're commenting too quickly. Please wait a moment and try again.",
} as const;

/** Enough for a lively thread, too few to flood one. */
export const COMMENTS_PER_MINUTE = 10;

export function commentRoutes(app: FastifyInstance, services: ContentServices) {
  const { db } = services;
  const postLimiter = services.limiters.limiter({
    keyPrefix: 'comment-post',
    points: COMMENTS_PER_MINUTE,
    duration: 60,
  });

  /** A moment needs a track or a video to be in, and lies within it when its length is known. */
  async function checkMoment(mediaId: string | null, at: number) {
    const media = mediaId ? (await findMediaByIds(db, [mediaId])).get(mediaId) : undefined;
    if (!media || (media.kind !== 'audio' && media.kind !== 'video'))
      throw badRequest(listeningMessages.atNoMedia, { at: [listeningMessages.atNoMedia] });
    if (media.duration !== null && at > media.duration)
      throw badRequest(listeningMessages.atPastEnd, { at: [listeningMessages.atPastEnd] });
  }

  /** Newest first, paged: { data: [comment], total, offset }. */
  app.get<{ Params: { id: string } }>('/content/:id/comments', async (request) => {
    // A lapsed fan reads the comments of what they keep; only members write them.
    const { item, access } = await requireReadableItem(services, request, request.params.id, { allowKept: true });
    const query = parse(ListQuery, request.query);
    const viewerId = access.viewer.id;
    const all = access.owner;
    // A fan with a hidden or held comment of their own here reads a page of their own; every other fan shares one.
    const ownUnseen =
      !all &&
      (await services.cache.read(`comments-own-unseen:${item.id}:${viewerId}`, async () => ({
        value: Boolean(
          await one(
            db,
            `SELECT 1 FROM comments WHERE item_id = $1 AND author_id = $2 AND deleted_at IS NULL AND (hidden_at IS NOT NULL OR held_at IS NOT NULL) LIMIT 1`,
            [item.id, viewerId],
          ),
        ),
        tags: [tag.content(item.artistId)],
      })));
    const reader = all ? 'artist' : ownUnseen ? viewerId : 'fans';
    const params = [all, all || ownUnseen ? viewerId : null] as const;
    let offset = query.offset;
    if (query.commentId) {
      const position = await one<{ newer: number }>(
        db,
        `SELECT (SELECT count(*)::int FROM comments n
                  WHERE n.item_id = m.item_id AND ${visibleTo('n', '$4', '$3')}
                    AND (n.created_at, n.id) > (m.created_at, m.id)) AS newer
           FROM comments m WHERE m.id = $1 AND m.item_id = $2 AND ${visibleTo('m', '$4', '$3')}`,
        [query.commentId, item.id, ...params],
      );
      if (position) offset = Math.floor(position.newer / query.limit) * query.limit;
    }
    // A page of a thread is the same for every fan of the club (what each may delete is added after): kept until a
    // comment is written, deleted, hidden or held (tag.content) or one of its authors changes their name or picture
    // (tag.user).
    const { rows, total } = await services.cache.read(`comments:${item.id}:${reader}:${offset}:${query.limit}`, async () => {
      const [rows, total] = await Promise.all([
        db.query<CommentRow>(
          `${COMMENT_SELECT} WHERE m.item_id = $1 AND ${visibleTo('m', '$5', '$4')} ORDER BY m.created_at DESC, m.id DESC LIMIT $2 OFFSET $3`,
          [item.id, query.limit, offset, ...params],
        ),
        one<{ total: number }>(db, `SELECT count(*)::int AS total FROM comments m WHERE m.item_id = $1 AND ${visibleTo('m', '$3', '$2')}`, [
          item.id,
          ...params,
        ]),
      ]);
      const authors = new Set(rows.map((row) => row.authorId));
      return { value: { rows, total: total?.total ?? 0 }, tags: [tag.content(item.artistId), ...[...authors].map(tag.user)] };
    });
    // A blocked fan reads the thread and is told, where the form was, that they cannot write in it.
    const blocked = !all && (await isBlocked(services, item.artistId, viewerId));
    return ok({
      data: rows.map((row) => serializeComment(row, viewerId, item.artistId)),
      total,
      offset,
      ...(blocked ? { blockedMessage: moderationMessages.cantComment(await cachedArtistName(services, item.artistId)) } : {}),
    });
  });

  app.post<{ Params: { id: string } }>('/content/:id/comments', async (request, reply) => {
    const { item, access } = await requireReadableItem(services, request, request.params.id);
    const body = parse(CommentSchema, request.body);
    const at = body.at ?? null;
    if (at !== null) await checkMoment(item.mediaId, at);
    if (await isBlocked(services, item.artistId, access.viewer.id)) {
      throw forbidden(moderationMessages.cantComment(await cachedArtistName(services, item.artistId)));
    }
    await consume(postLimiter, access.viewer.id, commentErrors.tooFast);
    // A fan's comment holding a word the artist mutes waits for the artist's review instead of being shown.
    const held = !access.owner && holdsMutedWord(body.text, await mutedWords(services, item.artistId));
    const created = await one<{ id: string }>(
      db,
      `INSERT INTO comments (item_id, author_id, text, at_seconds, held_at) VALUES ($1, $2, $3, $4, CASE WHEN $5 THEN now() END) RETURNING id`,
      [item.id, access.viewer.id, body.text, at === null ? null : Math.round(at * 1000) / 1000, held],
    );
    await services.cache.invalidate(tag.content(item.artistId));
    const row = await one<CommentRow>(db, `${COMMENT_SELECT} WHERE m.id = $1`, [created!.id]);
    return reply.status(201).send(ok(serializeComment(row!, access.viewer.id, item.artistId)));
  });

  /** Its author or the item's artist may delete a comment; anyone else gets 403. */
  app.delete<{ Params: { id: string } }>('/comments/:id', async (request) => {
    const viewer = await requireViewer(services, request);
    const comment = await one<{ authorId: string; authorUsername: string; text: string; itemId: string; artistId: string }>(
      db,
      `SELECT m.author_id AS "authorId", u.username AS "authorUsername", m.text, m.item_id AS "itemId", c.artist_id AS "artistId"
         FROM comments m JOIN content_items c ON c.id = m.item_id JOIN users u ON u.id = m.author_id
        WHERE m.id = $1 AND m.deleted_at IS NULL`,
      [request.params.id],
    );
    if (!comment) throw notFound('This comment could not be found.');
    if (comment.authorId !== viewer.id && comment.artistId !== viewer.id)
      throw forbidden('Only its author or the artist can delete this comment.');
    await db.transaction(async (tx) => {
      await tx.query('UPDATE comments SET deleted_at = now() WHERE id = $1', [request.params.id]);
      // The artist deleting a fan's comment is moderation, and goes in the club's log; an author's own deletion is not.
      if (comment.authorId !== viewer.id) {
        await logAction(tx, {
          artistId: comment.artistId,
          actorId: viewer.id,
          actorLabel: `@${viewer.username}`,
          action: 'deleted comment',
          subjectUserId: comment.authorId,
          subjectLabel: `@${comment.authorUsername}`,
          detail: comment.text,
        });
      }
    });
    await services.cache.invalidate(tag.content(comment.artistId));
    return ok({ success: true });
  });
}
