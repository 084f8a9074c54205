import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ConversationReadEvent, MessageCreatedEvent, MessageDeletedEvent, UnreadTotalEvent } from '#contract/messages';
import { SendMessageSchema } from '#contract/message-schemas';
import { RealtimeEvent } from '#contract/realtime';
import { consume } from '../auth/rate-limits.js';
import { requireViewer, type Viewer } from '../auth/viewer.js';
import type { ApiContext } from '../context.js';
import { cachedUnreadTotal, findMembership, memberViews, otherMember } from '../conversations/queries.js';
import { ApiError, forbidden, notFound, ok, okJsonBody, parse, sendJsonBody } from '../http.js';
import type { Realtime } from '../realtime/server.js';
import { hasAccess } from '../subscriptions/queries.js';
import { createMessage, deleteMessage, findMessage, listMessages, markConversationRead, memberReadState } from './queries.js';
import { tag } from '../cache/tags.js';
import { notKept } from '../cache/read-cache.js';
import { one } from '../db/client.js';
import { moderationMessages } from '#contract/moderation';
import { cachedArtistName, holdsMutedWord, isBlocked, mutedWords } from '../moderation/queries.js';

export const messageRouteErrors = {
  conversationNotFound: "We couldn't find that conversation.",
  messageNotFound: "We couldn't find that message.",
  subscriptionEnded: 'Your subscription has ended. Renew it to send messages.',
  notYourMessage: 'You can only delete your own messages.',
  clientIdTaken: 'This clientId was already used for another message.',
  tooFast: "You're sending messages too quickly. Please wait a moment and try again.",
} as const;

/** Messages one user may send per minute, across all their conversations. */
export const MESSAGES_PER_MINUTE = 30;

const PageQuery = z.object({
  offset: z.coerce.number({ error: 'offset must be a number.' }).int().min(0).default(0),
  limit: z.coerce.number({ error: 'limit must be a number.' }).int().min(1).max(100).default(20),
  sort: z.enum(['asc', 'desc'], { error: "sort must be 'asc' or 'desc'." }).default('desc'),
});

const SendBody = SendMessageSchema.extend({
  fileIds: z.array(z.string()).max(0, 'Attachments cannot be sent yet.').optional(),
  type: z.literal('text', { error: 'Only text messages can be sent.' }).optional(),
});

const ConversationParams = z.object({ conversationId: z.string().max(100) });
const MessageParams = z.object({ messageId: z.string().max(100) });

export function messageRoutes(app: FastifyInstance, ctx: ApiContext, realtime: Realtime) {
  const { db } = ctx;
  const sendLimiter = ctx.limiters.limiter({ keyPrefix: 'message-send', points: MESSAGES_PER_MINUTE, duration: 60 });

  /**
   * The conversation when the viewer is a member, 404 for anyone else. Members never change, so a "yes" is kept
   * without tags (a message does not drop it; the cache's time bound still applies) and a "no" is not kept.
   */
  async function membership(conversationId: string, viewerId: string) {
    return ctx.cache.read(`member:${conversationId}:${viewerId}`, async () => {
      const found = await findMembership(db, conversationId, viewerId);
      return found ? { value: found, tags: [] } : notKept(undefined);
    });
  }

  async function requireMembership(viewer: Viewer, params: unknown) {
    const { conversationId } = parse(ConversationParams, params);
    const conversation = await membership(conversationId, viewer.id);
    if (!conversation) throw notFound(messageRouteErrors.conversationNotFound);
    return conversation;
  }

  /**
   * After a write to a conversation: its pages, and both members' lists and unread totals. Done before the
   * realtime events go out, so a client that refetches on an event reads the new state.
   */
  function changed(conversation: { id: string; fanId: string; artistId: string }) {
    return ctx.cache.invalidate(tag.conversation(conversation.id), tag.inbox(conversation.fanId), tag.inbox(conversation.artistId));
  }

  /** Tells both members how the conversation now looks to each of them, and whoever's unread total changed. */
  async function notifyMembers(
    conversationId: string,
    event: (view: Awaited<ReturnType<typeof memberViews>>[number]) => [name: string, payload: unknown],
    unreadChangedFor?: string,
  ) {
    try {
      for (const view of await memberViews(db, conversationId)) {
        realtime.emitToUser(view.userId, ...event(view));
        if (view.userId === unreadChangedFor) {
          realtime.emitToUser(view.userId, RealtimeEvent.unreadTotal, { total: view.unreadTotal } satisfies UnreadTotalEvent);
        }
      }
    } catch (error) {
      // The write has succeeded; a client that misses the event catches up when it refetches.
      ctx.log.warn({ err: error }, 'realtime: could not notify conversation members');
    }
  }

  app.get('/messages/conversations/:conversationId', async (request, reply) => {
    const viewer = await requireViewer(ctx, request);
    const conversation = await requireMembership(viewer, request.params);
    const query = parse(PageQuery, request.query);
    // Both members read the same page: it is kept as the answer's bytes, not serialised or encoded per read.
    const key = `messages:${conversation.id}:${query.offset}:${query.limit}:${query.sort}`;
    const body = await ctx.cache.read(key, async () => ({
      value: okJsonBody(JSON.stringify(await listMessages(db, conversation.id, query))),
      tags: [tag.conversation(conversation.id), tag.user(conversation.fanId), tag.user(conversation.artistId)],
    }));
    return sendJsonBody(request, reply, body);
  });

  app.post('/messages/conversations/:conversationId', async (request, reply) => {
    const viewer = await requireViewer(ctx, request);
    const conversation = await requireMembership(viewer, request.params);
    const body = parse(SendBody, request.body);
    // A fan whose subscription has lapsed still reads the conversation, but only a subscriber writes to the artist.
    if (viewer.id === conversation.fanId && !(await hasAccess(ctx, viewer.id, conversation.artistId))) {
      throw forbidden(messageRouteErrors.subscriptionEnded);
    }
    if (viewer.id === conversation.fanId) {
      if (await isBlocked(ctx, conversation.artistId, viewer.id)) {
        throw forbidden(moderationMessages.cantMessage(await cachedArtistName(ctx, conversation.artistId)));
      }
    }
    await consume(sendLimiter, viewer.id, messageRouteErrors.tooFast);
    // A fan's message holding a word the artist mutes is kept apart for the artist's review: nothing is delivered.
    if (viewer.id === conversation.fanId && holdsMutedWord(body.text, await mutedWords(ctx, conversation.artistId))) {
      const held = await one<{ id: string; createdAt: Date }>(
        db,
        'INSERT INTO held_messages (conversation_id, sender_id, text) VALUES ($1, $2, $3) RETURNING id, created_at AS "createdAt"',
        [conversation.id, viewer.id, body.text],
      );
      return reply.status(202).send(
        ok({
          held: true,
          _id: held!.id,
          conversationId: conversation.id,
          text: body.text,
          createdAt: new Date(held!.createdAt).toISOString(),
        }),
      );
    }

    const result = await db.transaction((tx) =>
      createMessage(tx, { conversationId: conversation.id, senderId: viewer.id, text: body.text, clientId: body.clientId }),
    );
    if ('clientIdTaken' in result) throw new ApiError(409, messageRouteErrors.clientIdTaken);
    const { message, created } = result;
    if (created) {
      await changed(conversation);
      await notifyMembers(
        conversation.id,
        (view) => [RealtimeEvent.messageCreated, { message, conversation: view.conversation } satisfies MessageCreatedEvent],
        otherMember(conversation, viewer.id),
      );
    }
    return ok(message);
  });

  /** Only the author deletes a message; for both members it disappears. */
  app.delete('/messages/:messageId', async (request) => {
    const viewer = await requireViewer(ctx, request);
    const { messageId } = parse(MessageParams, request.params);
    const message = await findMessage(db, messageId);
    const conversation = message && (await membership(message.conversationId, viewer.id));
    if (!message || !conversation) throw notFound(messageRouteErrors.messageNotFound);
    if (message.senderInfo._id !== viewer.id) throw forbidden(messageRouteErrors.notYourMessage);

    const result = await db.transaction((tx) => deleteMessage(tx, message));
    if (!result) throw notFound(messageRouteErrors.messageNotFound);
    await changed(conversation);
    await notifyMembers(
      message.conversationId,
      (view) => [
        RealtimeEvent.messageDeleted,
        { _id: message._id, conversationId: message.conversationId, conversation: view.conversation } satisfies MessageDeletedEvent,
      ],
      result.unreadChanged ? otherMember(conversation, viewer.id) : undefined,
    );
    return ok({ _id: message._id, conversationId: message.conversationId });
  });

  /** Marks the conversation read for the viewer (opening a conversation reads all its messages). */
  app.post('/messages/read-all/:conversationId', async (request) => {
    const viewer = await requireViewer(ctx, request);
    const conversation = await requireMembership(viewer, request.params);
    // Nothing unread (the page opened again, or after the viewer's own message): there is nothing to mark, since only
    // the other member's messages since last_read_at count, and none came. Answered from the read cache until the
    // viewer's inbox changes, so a view no longer writes the members' row under a lock each time.
    const state = await ctx.cache.read(`read-state:${conversation.id}:${viewer.id}`, async () => ({
      value: await memberReadState(db, conversation.id, viewer.id),
      tags: [tag.inbox(viewer.id)],
    }));
    const readAt =
      state?.unreadCount === 0 && state.lastReadAt ? new Date(state.lastReadAt).toISOString() : await markRead(viewer, conversation);
    // The total comes from the read cache, which markRead has cleared whenever it wrote: kept for the top bar.
    return ok({ conversationId: conversation.id, readAt, total: await cachedUnreadTotal(ctx, viewer.id) });
  });

  /** Marks the conversation read in a transaction; tells both members when something was unread. */
  async function markRead(viewer: Viewer, conversation: { id: string; fanId: string; artistId: string }) {
    const { readAt, hadUnread } = await db.transaction((tx) => markConversationRead(tx, conversation.id, viewer.id));
    if (hadUnread) {
      await changed(conversation);
      await notifyMembers(
        conversation.id,
        () => [
          RealtimeEvent.conversationRead,
          { conversationId: conversation.id, readerId: viewer.id, readAt } satisfies ConversationReadEvent,
        ],
        viewer.id,
      );
    } else {
      // A first read with nothing unread: the kept read state learns that the viewer has now read.
      await ctx.cache.invalidate(tag.inbox(viewer.id));
    }
    return readAt;
  }

  app.get('/messages/total-unread-messages', async (request) => {
    const viewer = await requireViewer(ctx, request);
    return ok({ total: await cachedUnreadTotal(ctx, viewer.id) });
  });
}
