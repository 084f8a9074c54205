import type { PublicUserResponse } from './users';

/**
 * Conversations and messages as web and api agree on them: the rule for a message's text shared by the
 * send form and the api, the realtime event names and payloads, and the answers of the message calls.
 */

export const MESSAGE_MAX_LENGTH = 2000;

export const messageErrors = {
  empty: 'Please write a message.',
  tooLong: `Your message is too long. Please keep it under ${MESSAGE_MAX_LENGTH} characters.`,
} as const;

/** The browser's check of a message's text: the same rule and messages as MessageTextSchema. */
export function messageTextError(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return messageErrors.empty;
  // zod counts a string's characters by code point (an emoji is one), so this does too.
  return [...trimmed].length > MESSAGE_MAX_LENGTH ? messageErrors.tooLong : undefined;
}

export interface ConversationResponse {
  _id: string;
  lastMessage?: string;
  lastMessageCreatedAt?: string;
  recipientInfo: PublicUserResponse;
  totalNotSeenMessages: number;
  /** Ours: when the recipient last read the conversation, so the sender can show "Seen" on what came before. */
  recipientReadAt?: string;
  /** Ours: the artist blocks the fan; the fan can no longer write in it. */
  blocked?: boolean;
}

export interface MessageResponse {
  _id: string;
  conversationId: string;
  text: string;
  createdAt: string;
  /** Present when the sending client gave one: lets the sender swap its optimistic copy for the stored message. */
  clientId?: string;
  senderInfo: PublicUserResponse;
}

export interface MessageCreatedEvent {
  message: MessageResponse;
  /** The conversation as the receiving member lists it (their recipient, their unread count). */
  conversation: ConversationResponse;
}

export interface MessageDeletedEvent {
  _id: string;
  conversationId: string;
  conversation: ConversationResponse;
}

export interface ConversationReadEvent {
  conversationId: string;
  readerId: string;
  readAt: string;
}

export interface UnreadTotalEvent {
  total: number;
}
