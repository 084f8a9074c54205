import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireViewer } from '../auth/viewer.js';
import type { ApiContext } from '../context.js';
import { one } from '../db/client.js';
import { forbidden, notFound, ok, parse } from '../http.js';
import { isSubscribed } from '../subscriptions/queries.js';
import { findConversationSummary, listConversations, openConversation } from './queries.js';
import { tag } from '../cache/tags.js';
import { notKept } from '../cache/read-cache.js';
import { moderationMessages } from '#contract/moderation';
import { isBlocked } from '../moderation/queries.js';

export const conversationErrors = {
  artistNotFound: "We couldn't find that artist.",
  fanNotFound: "We couldn't find that fan.",
  notSubscribed: (artistName: string) => `Subscribe to ${artistName} to send them messages.`,
  fanNotSubscribed: 'You can only start a conversation with a fan who subscribes to you.',
  artistsOnly: 'Only artists can start a conversation with a fan.',
  yourself: "You can't start a conversation with yourself.",
  conversationNotFound: "We couldn't find that conversation.",
} as const;

const ConversationParams = z.object({ conversationId: z.string().min(1).max(100) });

/** The web asks for the whole conversation list at once (it sends Number.MAX_SAFE_INTEGER as the limit). */
const MAX_CONVERSATIONS = 1000;

const ListQuery = z.object({
  limit: z.coerce.number({ error: 'limit must be a number.' }).int().min(1).default(MAX_CONVERSATIONS),
  offset: z.coerce.number({ error: 'offset must be a number.' }).int().min(0).default(0),
});

const OpenBody = z.object({
  // 'performer': the viewer writes to an artist. 'user': an artist writes to one of their fans.
  source: z.enum(['performer', 'user'], { error: "source must be 'performer' or 'user'." }),
  sourceId: z.string({ error: 'sourceId is required.' }).trim().min(1, 'sourceId is required.').max(100),
});

interface TargetRow {
  id: string;
  name: string;
  username: string;
  isPerformer: boolean;
}

export function conversationRoutes(app: FastifyInstance, ctx: ApiContext) {
  const { db } = ctx;

  /** The viewer's conversations that have at least one message, newest activity first. */
  app.get('/conversations', async (request) => {
    const viewer = await requireViewer(ctx, request);
    const query = parse(ListQuery, request.query);
    const limit = Math.min(query.limit, MAX_CONVERSATIONS);
    const list = await ctx.cache.read(`conversations:${viewer.id}:${limit}:${query.offset}`, async () => {
      const value = await listConversations(db, viewer.id, limit, query.offset);
      return { value, tags: [tag.inbox(viewer.id), ...value.data.map((conversation) => tag.user(conversation.recipientInfo._id))] };
    });
    return ok(list);
  });

  /** One conversation as the viewer lists it (ours: the conversation page's header); 404 for a non-member. */
  app.get('/conversations/:conversationId', async (request) => {
    const viewer = await requireViewer(ctx, request);
    const { conversationId } = parse(ConversationParams, request.params);
    const conversation = await ctx.cache.read(`conversation:${conversationId}:${viewer.id}`, async () => {
      const found = await findConversationSummary(db, conversationId, viewer.id);
      if (!found) return notKept(undefined);
      return { value: found, tags: [tag.conversation(found._id), tag.inbox(viewer.id), tag.user(found.recipientInfo._id)] };
    });
    if (!conversation) throw notFound(conversationErrors.conversationNotFound);
    return ok(conversation);
  });

  /**
   * Opens the conversation between a fan and an artist, or answers the one they already have.
   * A new one needs the fan's active subscription to the artist, whichever of the two opens it.
   */
  app.post('/conversations', async (request) => {
    const viewer = await requireViewer(ctx, request);
    const body = parse(OpenBody, request.body);
    if (body.source === 'user' && !viewer.isPerformer) throw forbidden(conversationErrors.artistsOnly);
    if (body.sourceId === viewer.id) throw forbidden(conversationErrors.yourself);

    const target = await one<TargetRow>(
      db,
      `SELECT u.id, u.name, u.username, u.is_performer AS "isPerformer" FROM users u
        WHERE u.id = $1 AND u.status = 'active'
          AND ($2 = 'user' OR (u.is_performer AND EXISTS (SELECT 1 FROM artist_profiles p WHERE p.user_id = u.id)))`,
      [body.sourceId, body.source],
    );
    if (!target) throw notFound(body.source === 'performer' ? conversationErrors.artistNotFound : conversationErrors.fanNotFound);

    const [fanId, artistId] = body.source === 'performer' ? [viewer.id, target.id] : [target.id, viewer.id];
    if (body.source === 'performer' && (await isBlocked(ctx, artistId, fanId))) {
      throw forbidden(moderationMessages.cantMessage(target.name || target.username));
    }
    const existing = await one<{ id: string }>(db, `SELECT id FROM conversations WHERE fan_id = $1 AND artist_id = $2`, [fanId, artistId]);
    let conversationId = existing?.id;
    if (!conversationId) {
      if (!(await isSubscribed(db, fanId, artistId))) {
        throw forbidden(
          body.source === 'performer'
            ? conversationErrors.notSubscribed(target.name || target.username)
            : conversationErrors.fanNotSubscribed,
        );
      }
      conversationId = await db.transaction((tx) => openConversation(tx, fanId, artistId));
    }
    return ok(await findConversationSummary(db, conversationId, viewer.id));
  });
}
