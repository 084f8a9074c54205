import type { FastifyInstance } from 'fastify';
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

export function pollRoutes(app: FastifyInstance, services: ContentServices) {
  const { db } = services;

  /** One vote per fan per poll; the answer is the poll with its results (spec: results shown after voting). */
  app.post<{ Params: { pollId: string } }>('/polls/:pollId/vote', async (request) => {
    const poll = await one<{ itemId: string }>(db, 'SELECT item_id AS "itemId" FROM polls WHERE id = $1', [request.params.pollId]);
    if (!poll) throw notFound(pollMessages.notFound);
    const { item, access } = await requireReadableItem(services, request, poll.itemId);
    if (access.owner) throw forbidden(pollMessages.ownPoll);
    const body = parse(VoteBody, request.body);
    const answer = await one(db, 'SELECT 1 FROM poll_answers WHERE id = $1 AND poll_id = $2', [body.answerId, request.params.pollId]);
    if (!answer) throw new ApiError(400, pollMessages.answerRequired, { answerId: [pollMessages.answerRequired] });
    const inserted = await db.query(
      `INSERT INTO poll_votes (poll_id, user_id, answer_id) VALUES ($1, $2, $3) ON CONFLICT (poll_id, user_id) DO NOTHING RETURNING 1`,
      [request.params.pollId, access.viewer.id, body.answerId],
    );
    if (inserted.length === 0) throw new ApiError(409, pollMessages.alreadyVoted);
    // The artist's lists show each answer's votes; the fan's own marks hold their vote.
    await services.cache.invalidate(tag.content(item.artistId), tag.marks(access.viewer.id));
    const entry = (await loadPolls(db, [poll.itemId])).get(poll.itemId)!;
    return ok(serializePoll({ ...entry, votedAnswerId: body.answerId }, false));
  });
}
