import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { pollMessages } from '#contract/content-rules';
import { tag } from '../cache/tags.js';
import { requireReadableItem } from '../content/guard.js';
import { loadPolls, serializePoll } from '../content/queries.js';
import type { ContentServices } from '../content/services.js';
import { one } from '../db/client.js';
import { ApiError, forbidden, notFound, ok, parse } from '../http.js';

const VoteBody = z.object({
  answerId: z.string({ error: pollMessages.answerRequired }).trim().min(1, pollMessages.answerRequired).max(100),
});

/** Still open: no closing time, or one still ahead by the database's clock (the same clock the writes below read). */
const OPEN = '(p.closes_at IS NULL OR p.closes_at > now())';

export function pollRoutes(app: FastifyInstance, services: ContentServices) {
  const { db } = services;

  /** The poll a fan may vote in: one they can read, not their own, and still open (409 once it has closed). */
  async function votablePoll(request: FastifyRequest<{ Params: { pollId: string } }>) {
    const poll = await one<{ itemId: string; open: boolean }>(
      db,
      `SELECT p.item_id AS "itemId", ${OPEN} AS open FROM polls p WHERE p.id = $1`,
      [request.params.pollId],
    );
    if (!poll) throw notFound(pollMessages.notFound);
    const { item, access } = await requireReadableItem(services, request, poll.itemId);
    if (access.owner) throw forbidden(pollMessages.ownPoll);
    if (!poll.open) throw new ApiError(409, pollMessages.closed);
    return { pollId: request.params.pollId, itemId: poll.itemId, artistId: item.artistId, fanId: access.viewer.id };
  }

  /** The poll with its results as the fan sees it now, after the caches that hold votes are told. */
  async function answer(poll: Awaited<ReturnType<typeof votablePoll>>, votedAnswerId: string | null) {
    // The artist's lists show each answer's votes; the fan's own marks hold their vote.
    await services.cache.invalidate(tag.content(poll.artistId), tag.marks(poll.fanId));
    const entry = (await loadPolls(db, [poll.itemId])).get(poll.itemId)!;
    return ok(serializePoll({ ...entry, votedAnswerId }, false));
  }

  /**
   * Vote, or change one's vote, until the poll closes: one vote per fan per poll, kept as one row whose answer a new
   * vote replaces, so the counts stay exact. The write itself checks the poll is still open, so a vote that arrives
   * as it closes is refused rather than counted.
   */
  app.post<{ Params: { pollId: string } }>('/polls/:pollId/vote', async (request) => {
    const poll = await votablePoll(request);
    const body = parse(VoteBody, request.body);
    const known = await one(db, 'SELECT 1 FROM poll_answers WHERE id = $1 AND poll_id = $2', [body.answerId, poll.pollId]);
    if (!known) throw new ApiError(400, pollMessages.answerRequired, { answerId: [pollMessages.answerRequired] });
    const saved = await db.query(
      `INSERT INTO poll_votes (poll_id, user_id, answer_id)
       SELECT p.id, $2::text, $3::text FROM polls p WHERE p.id = $1 AND ${OPEN}
       ON CONFLICT (poll_id, user_id) DO UPDATE SET answer_id = EXCLUDED.answer_id RETURNING 1`,
      [poll.pollId, poll.fanId, body.answerId],
    );
    if (saved.length === 0) throw new ApiError(409, pollMessages.closed);
    return answer(poll, body.answerId);
  });

  /** Take one's vote back while the poll is open (nothing to take back is no error). */
  app.delete<{ Params: { pollId: string } }>('/polls/:pollId/vote', async (request) => {
    const poll = await votablePoll(request);
    // One statement, so the poll is open at the moment of the delete as it is for a vote (a data-modifying WITH runs
    // whether or not the query reads it).
    const done = await one<{ open: boolean }>(
      db,
      `WITH open AS (SELECT 1 FROM polls p WHERE p.id = $1 AND ${OPEN}),
            gone AS (DELETE FROM poll_votes WHERE poll_id = $1 AND user_id = $2 AND EXISTS (SELECT 1 FROM open) RETURNING 1)
       SELECT EXISTS (SELECT 1 FROM open) AS open`,
      [poll.pollId, poll.fanId],
    );
    if (!done?.open) throw new ApiError(409, pollMessages.closed);
    return answer(poll, null);
  });
}
