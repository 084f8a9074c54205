import type { ConversationResponse, MessageResponse } from '#contract/messages';
import { mapPublicUser, type PublicUser } from './mappers';

/**
 * Conversations and messages on the pages: the mappers from what the api sends (#contract/messages) to what the
 * pages use, and the list operations that keep a page free of duplicates whether a message arrives by event, by
 * refetch or both.
 */

export interface Conversation {
  id: string;
  recipient: PublicUser;
  numUnreadMessages: number;
  lastMessage: { content: string; utcCreationTimestamp: number } | null;
  /** The viewer's messages created up to this time have been seen by the recipient. */
  recipientReadAt: string | null;
  /** The artist blocks the fan of this conversation. */
  blocked: boolean;
}

export interface Message {
  id: string;
  conversationId: string;
  text: string;
  /** ISO 8601, UTC. */
  createdAt: string;
  clientId?: string;
  sender: PublicUser;
  /** Shown before the api has stored it (optimistic display); replaced when the stored copy arrives. */
  pending?: boolean;
}

export function mapConversation(c: ConversationResponse): Conversation {
  return {
    id: c._id,
    recipient: mapPublicUser(c.recipientInfo),
    numUnreadMessages: c.totalNotSeenMessages ?? 0,
    lastMessage:
      c.lastMessage !== undefined && c.lastMessageCreatedAt
        ? { content: c.lastMessage, utcCreationTimestamp: Date.parse(c.lastMessageCreatedAt) }
        : null,
    recipientReadAt: c.recipientReadAt ?? null,
    blocked: c.blocked ?? false,
  };
}

/** The conversation list: conversations without a last message are dropped. */
export function mapConversations(list: ConversationResponse[]): Conversation[] {
  return list.map(mapConversation).filter((c) => c.lastMessage !== null);
}

export function mapMessage(m: MessageResponse): Message {
  return {
    id: m._id,
    conversationId: m.conversationId,
    text: m.text,
    createdAt: m.createdAt,
    ...(m.clientId ? { clientId: m.clientId } : {}),
    sender: mapPublicUser(m.senderInfo),
  };
}

const newestFirst = (a: Message, b: Message) =>
  a.createdAt === b.createdAt ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.createdAt < b.createdAt ? 1 : -1;

/**
 * Adds messages to a list, newest first, each once: a message already there (same id, or the optimistic copy
 * with the same clientId from the same sender) is replaced. Events, refetches after a reconnect and older pages
 * can therefore all be merged in any order.
 */
export function mergeMessages(current: Message[], incoming: Message[]): Message[] {
  const byKey = new Map<string, Message>();
  const clientKey = (m: Message) => (m.clientId ? `${m.sender.id}:${m.clientId}` : undefined);
  const clientKeys = new Map<string, string>();
  for (const m of [...current, ...incoming]) {
    const ck = clientKey(m);
    const previousId = ck ? clientKeys.get(ck) : undefined;
    if (previousId !== undefined && previousId !== m.id) {
      // The stored copy wins over an optimistic one, whichever arrives last.
      if (m.pending && !byKey.get(previousId)?.pending) continue;
      byKey.delete(previousId);
    }
    byKey.set(m.id, m);
    if (ck) clientKeys.set(ck, m.id);
  }
  return [...byKey.values()].sort(newestFirst);
}

export function removeMessage(current: Message[], messageId: string): Message[] {
  return current.filter((m) => m.id !== messageId);
}

/** Puts a conversation's new state into the list (from an event), newest activity first, empty ones dropped. */
/** How many conversations the inbox shows at a time: an artist's can hold every fan who wrote. */
export const INBOX_PAGE_SIZE = 50;

/** The conversations whose other member's name or username holds every word of the query, in the inbox's order. */
export function findConversations(conversations: Conversation[], query: string): Conversation[] {
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return conversations;
  return conversations.filter(({ recipient }) => {
    const haystack = `${recipient.name} ${recipient.username}`.toLocaleLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

export function upsertConversation(current: Conversation[], conversation: Conversation): Conversation[] {
  const rest = current.filter((c) => c.id !== conversation.id);
  const list = conversation.lastMessage ? [conversation, ...rest] : rest;
  return list.sort((a, b) => (b.lastMessage?.utcCreationTimestamp ?? 0) - (a.lastMessage?.utcCreationTimestamp ?? 0));
}

/**
 * Where a conversation is shown: under the artist of the pair, with the other member's username as the search
 * parameter the conversation route requires; #latest opens it at the newest message without JavaScript too.
 */
export function conversationHref(
  viewer: { artist: boolean; username: string },
  conversation: { id: string; recipient: { username: string } },
) {
  const artist = viewer.artist ? viewer.username : conversation.recipient.username;
  const search = new URLSearchParams({ username: conversation.recipient.username });
  return `/${artist}/account/messages/${conversation.id}?${search}#latest`;
}
