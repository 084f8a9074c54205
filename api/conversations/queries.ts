import type { ConversationResponse } from '#contract/messages';
import { tag } from '../cache/tags.js';
import type { Reads } from '../context.js';
import { one, type Queryable } from '../db/client.js';

export interface ConversationRow {
  id: string;
  fanId: string;
  artistId: string;
}

interface SummaryRow {
  id: string;
  viewerId: string;
  lastMessageText: string | null;
  lastMessageAt: Date | null;
  unreadCount: number;
  recipientId: string;
  recipientName: string;
  recipientAvatar: string;
  recipientUsername: string;
  recipientReadAt: Date | null;
  blocked: boolean;
}

/** A conversation as one member sees it: the other member is the recipient (ConversationResponse, contract/messages.ts). */
const SUMMARY_COLUMNS = `
  c.id, me.user_id AS "viewerId", c.last_message_text AS "lastMessageText", c.last_message_at AS "lastMessageAt",
  me.unread_count AS "unreadCount", u.id AS "recipientId", u.name AS "recipientName",
  u.avatar AS "recipientAvatar", u.username AS "recipientUsername", other.last_read_at AS "recipientReadAt",
  EXISTS (SELECT 1 FROM blocks b WHERE b.artist_id = c.artist_id AND b.fan_id = c.fan_id) AS blocked`;
const SUMMARY_FROM = `
  FROM conversation_members me
  JOIN conversations c ON c.id = me.conversation_id
  JOIN users u ON u.id = CASE WHEN c.fan_id = me.user_id THEN c.artist_id ELSE c.fan_id END
  JOIN conversation_members other ON other.conversation_id = c.id AND other.user_id = u.id`;
const SUMMARY_SELECT = `SELECT ${SUMMARY_COLUMNS} ${SUMMARY_FROM}`;

export function serializeConversation(row: SummaryRow): ConversationResponse {
  return {
    _id: row.id,
    ...(row.lastMessageAt
      ? { lastMessage: row.lastMessageText ?? '', lastMessageCreatedAt: new Date(row.lastMessageAt).toISOString() }
      : {}),
    recipientInfo: {
      _id: row.recipientId,
      name: row.recipientName,
      avatar: row.recipientAvatar,
      username: row.recipientUsername,
    },
    totalNotSeenMessages: row.unreadCount,
    ...(row.recipientReadAt ? { recipientReadAt: new Date(row.recipientReadAt).toISOString() } : {}),
    ...(row.blocked ? { blocked: true } : {}),
  };
}

/** The viewer's conversations that have a message, newest activity first, and how many there are in all. */
export async function listConversations(db: Queryable, viewerId: string, limit: number, offset: number) {
  const [rows, count] = await Promise.all([
    db.query<SummaryRow>(
      `${SUMMARY_SELECT}
        WHERE me.user_id = $1 AND c.last_message_at IS NOT NULL
        ORDER BY c.last_message_at DESC, c.id DESC
        LIMIT $2 OFFSET $3`,
      [viewerId, limit, offset],
    ),
    one<{ total: number }>(
      db,
      `SELECT count(*)::int AS total FROM conversation_members me JOIN conversations c ON c.id = me.conversation_id
        WHERE me.user_id = $1 AND c.last_message_at IS NOT NULL`,
      [viewerId],
    ),
  ]);
  return { data: rows.map(serializeConversation), total: count?.total ?? 0 };
}

/** One conversation as the viewer sees it; undefined when it does not exist or the viewer is not a member. */
export async function findConversationSummary(db: Queryable, conversationId: string, viewerId: string) {
  const row = await one<SummaryRow>(db, `${SUMMARY_SELECT} WHERE c.id = $1 AND me.user_id = $2`, [conversationId, viewerId]);
  return row && serializeConversation(row);
}

/** The conversation as each member sees it, with each member's unread total: what the realtime events carry. */
export async function memberViews(db: Queryable, conversationId: string) {
  const rows = await db.query<SummaryRow & { unreadTotal: number }>(
    `SELECT ${SUMMARY_COLUMNS},
            (SELECT coalesce(sum(x.unread_count), 0)::int FROM conversation_members x WHERE x.user_id = me.user_id) AS "unreadTotal"
       ${SUMMARY_FROM}
      WHERE c.id = $1`,
    [conversationId],
  );
  return rows.map((row) => ({ userId: row.viewerId, conversation: serializeConversation(row), unreadTotal: row.unreadTotal }));
}

/** The conversation when the viewer is one of its two members; anyone else learns nothing, not even that it exists. */
export function findMembership(db: Queryable, conversationId: string, viewerId: string) {
  return one<ConversationRow>(
    db,
    `SELECT c.id, c.fan_id AS "fanId", c.artist_id AS "artistId" FROM conversations c
      WHERE c.id = $1 AND $2 IN (c.fan_id, c.artist_id)`,
    [conversationId, viewerId],
  );
}

export const otherMember = (conversation: ConversationRow, userId: string) =>
  conversation.fanId === userId ? conversation.artistId : conversation.fanId;

/** Opens the conversation between a fan and an artist, or finds the one they already have (run it in a transaction). */
export async function openConversation(db: Queryable, fanId: string, artistId: string) {
  const created = await one<{ id: string }>(
    db,
    `INSERT INTO conversations (fan_id, artist_id) VALUES ($1, $2) ON CONFLICT (fan_id, artist_id) DO NOTHING RETURNING id`,
    [fanId, artistId],
  );
  if (created) {
    await db.query(`INSERT INTO conversation_members (conversation_id, user_id) VALUES ($1, $2), ($1, $3)`, [created.id, fanId, artistId]);
    return created.id;
  }
  const existing = await one<{ id: string }>(db, `SELECT id FROM conversations WHERE fan_id = $1 AND artist_id = $2`, [fanId, artistId]);
  return existing!.id;
}

/** The sum of the user's unread counts over all their conversations. */
export async function unreadTotal(db: Queryable, userId: string) {
  const row = await one<{ total: number }>(
    db,
    `SELECT coalesce(sum(unread_count), 0)::int AS total FROM conversation_members WHERE user_id = $1`,
    [userId],
  );
  return row?.total ?? 0;
}

/** The unread total as the top bar reads it, kept in the read cache until the viewer's inbox changes. */
export function cachedUnreadTotal(ctx: Reads, userId: string) {
  return ctx.cache.read(`unread:${userId}`, async () => ({ value: await unreadTotal(ctx.db, userId), tags: [tag.inbox(userId)] }));
}
