import type { MessageResponse } from '#contract/messages';
import { one, type Queryable } from '../db/client.js';

interface MessageRow {
  id: string;
  conversationId: string;
  text: string;
  clientId: string | null;
  createdAt: Date;
  senderId: string;
  senderName: string;
  senderAvatar: string;
  senderUsername: string;
}

const MESSAGE_SELECT = `
  SELECT m.id, m.conversation_id AS "conversationId", m.text, m.client_id AS "clientId", m.created_at AS "createdAt",
         u.id AS "senderId", u.name AS "senderName", u.avatar AS "senderAvatar", u.username AS "senderUsername"
    FROM messages m JOIN users u ON u.id = m.sender_id`;

/** A message as every client receives it (MessageResponse, contract/messages.ts). */
export function serializeMessage(row: MessageRow): MessageResponse {
  return {
    _id: row.id,
    conversationId: row.conversationId,
    text: row.text,
    createdAt: new Date(row.createdAt).toISOString(),
    ...(row.clientId ? { clientId: row.clientId } : {}),
    senderInfo: { _id: row.senderId, avatar: row.senderAvatar, name: row.senderName, username: row.senderUsername },
  };
}

/** A page of a conversation's messages (newest first for 'desc') and how many it has in all. */
export async function listMessages(
  db: Queryable,
  conversationId: string,
  { limit, offset, sort }: { limit: number; offset: number; sort: 'asc' | 'desc' },
) {
  const direction = sort === 'asc' ? 'ASC' : 'DESC';
  const [rows, count] = await Promise.all([
    db.query<MessageRow>(
      `${MESSAGE_SELECT} WHERE m.conversation_id = $1 ORDER BY m.created_at ${direction}, m.id ${direction} LIMIT $2 OFFSET $3`,
      [conversationId, limit, offset],
    ),
    one<{ total: number }>(db, `SELECT count(*)::int AS total FROM messages WHERE conversation_id = $1`, [conversationId]),
  ]);
  return { data: rows.map(serializeMessage), total: count?.total ?? 0 };
}

export async function findMessage(db: Queryable, messageId: string) {
  const row = await one<MessageRow>(db, `${MESSAGE_SELECT} WHERE m.id = $1`, [messageId]);
  return row && serializeMessage(row);
}

/**
 * Locks both member rows of a conversation. Every write that changes an unread count or a read time takes this
 * lock first, so a message's created_at (clock_timestamp(), taken afterwards) and a member's last_read_at are
 * ordered exactly as the writes were, and the unread counts match the messages after last_read_at.
 */
async function lockMembers(tx: Queryable, conversationId: string) {
  return tx.query<{ userId: string; lastReadAt: Date | null; unreadCount: number }>(
    `SELECT user_id AS "userId", last_read_at AS "lastReadAt", unread_count AS "unreadCount"
       FROM conversation_members WHERE conversation_id = $1 ORDER BY user_id FOR UPDATE`,
    [conversationId],
  );
}

export type SendResult = { message: MessageResponse; created: boolean } | { clientIdTaken: true };

/**
 * Stores a message, makes it the conversation's last message and counts it unread for the other member.
 * With a clientId already used by this sender in this conversation, answers that first message and stores nothing.
 */
export async function createMessage(
  tx: Queryable,
  input: { conversationId: string; senderId: string; text: string; clientId?: string },
): Promise<SendResult> {
  await lockMembers(tx, input.conversationId);
  // One statement, so the conversation's last_message_at is the message's created_at to the microsecond.
  const inserted = await one<{ id: string }>(
    tx,
    `WITH m AS (
       INSERT INTO messages (conversation_id, sender_id, text, client_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT (sender_id, client_id) WHERE client_id IS NOT NULL DO NOTHING
       RETURNING id, conversation_id, text, created_at
     )
     UPDATE conversations c SET last_message_id = m.id, last_message_text = m.text, last_message_at = m.created_at
       FROM m WHERE c.id = m.conversation_id
     RETURNING m.id`,
    [input.conversationId, input.senderId, input.text, input.clientId ?? null],
  );
  if (!inserted) {
    const first = await one<MessageRow>(tx, `${MESSAGE_SELECT} WHERE m.sender_id = $1 AND m.client_id = $2`, [
      input.senderId,
      input.clientId,
    ]);
    if (!first || first.conversationId !== input.conversationId) return { clientIdTaken: true };
    return { message: serializeMessage(first), created: false };
  }
  await tx.query(`UPDATE conversation_members SET unread_count = unread_count + 1 WHERE conversation_id = $1 AND user_id <> $2`, [
    input.conversationId,
    input.senderId,
  ]);
  const message = await one<MessageRow>(tx, `${MESSAGE_SELECT} WHERE m.id = $1`, [inserted.id]);
  return { message: serializeMessage(message!), created: true };
}

/**
 * Deletes a message. If the other member had not read it, it no longer counts as unread; if it was the last
 * message, the one before it takes its place (or none, and the conversation leaves the list).
 * Returns whether the other member's unread count changed, or undefined when the message was already gone.
 */
export async function deleteMessage(tx: Queryable, message: { _id: string; conversationId: string }) {
  await lockMembers(tx, message.conversationId);
  // Compared in SQL: created_at and last_read_at carry microseconds that a JavaScript Date would drop.
  const result = await one<{ deleted: number; unreadChanged: boolean }>(
    tx,
    `WITH gone AS (
       DELETE FROM messages WHERE id = $1 RETURNING conversation_id, sender_id, created_at
     ), unread AS (
       UPDATE conversation_members cm SET unread_count = cm.unread_count - 1
         FROM gone
        WHERE cm.conversation_id = gone.conversation_id AND cm.user_id <> gone.sender_id AND cm.unread_count > 0
          AND (cm.last_read_at IS NULL OR cm.last_read_at < gone.created_at)
       RETURNING cm.user_id
     )
     SELECT (SELECT count(*) FROM gone)::int AS deleted, EXISTS (SELECT 1 FROM unread) AS "unreadChanged"`,
    [message._id],
  );
  if (!result || result.deleted === 0) return undefined;
  // A statement of its own, so that it sees the deletion; with no message left the columns become NULL.
  await tx.query(
    `UPDATE conversations
        SET (last_message_id, last_message_text, last_message_at) = (
          SELECT id, text, created_at FROM messages WHERE conversation_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1
        )
      WHERE id = $1 AND last_message_id = $2`,
    [message.conversationId, message._id],
  );
  return { unreadChanged: result.unreadChanged };
}

/** One member's unread count in a conversation and when they last read it (undefined for a non-member). */
export async function memberReadState(db: Queryable, conversationId: string, userId: string) {
  return one<{ unreadCount: number; lastReadAt: Date | null }>(
    db,
    `SELECT unread_count AS "unreadCount", last_read_at AS "lastReadAt" FROM conversation_members WHERE conversation_id = $1 AND user_id = $2`,
    [conversationId, userId],
  );
}

/**
 * Marks everything in the conversation read for one member. Returns the read time and whether anything was
 * unread (only then do the other member and the reader's unread total need telling).
 */
export async function markConversationRead(tx: Queryable, conversationId: string, userId: string) {
  const before = (await lockMembers(tx, conversationId)).find((m) => m.userId === userId);
  const row = await one<{ readAt: Date }>(
    tx,
    `UPDATE conversation_members SET unread_count = 0, last_read_at = clock_timestamp()
      WHERE conversation_id = $1 AND user_id = $2 RETURNING last_read_at AS "readAt"`,
    [conversationId, userId],
  );
  return { readAt: new Date(row!.readAt).toISOString(), hadUnread: (before?.unreadCount ?? 0) > 0 };
}
