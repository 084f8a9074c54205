import { parseWithZod } from '@conform-to/zod/v4';
import { apiRequest, isHttpError } from './api.server';
import { guardForm } from './form-guard.server';
import { SendMessageSchema } from '#contract/message-schemas';
import type { ConversationResponse, MessageResponse } from '#contract/messages';
import { mapConversation, mapConversations, mapMessage } from './messages';

/** The conversation and message calls of spec §7, as the pages use them. */

/** Messages per page of a conversation; "Load older" asks for one more page. */
export const MESSAGES_PAGE_SIZE = 20;

/** GET /conversations without an effective limit (spec §9): the list, empty ones dropped (spec §3). */
export async function fetchConversations(token: string, signal?: AbortSignal) {
  const body = await apiRequest<{ data: { data: ConversationResponse[] } }>({
    path: '/conversations',
    params: { limit: String(Number.MAX_SAFE_INTEGER) },
    token,
    signal,
  });
  return mapConversations(body.data.data);
}

/** One conversation of the viewer's; a conversation they are not in is the 404 page. */
export async function requireConversation(token: string, conversationId: string, signal?: AbortSignal) {
  try {
    const body = await apiRequest<{ data: ConversationResponse }>({
      path: `/conversations/${encodeURIComponent(conversationId)}`,
      token,
      signal,
    });
    return mapConversation(body.data);
  } catch (error) {
    if (isHttpError(error, 404, 400)) throw new Response('Not found', { status: 404 });
    throw error;
  }
}

/**
 * POST /conversations (spec §7): made on first use, else the one there is. A fan opens theirs with an artist
 * (`performer`, the artist's id); an artist opens theirs with a fan who subscribes to them (`user`, the fan's id;
 * docs/messages.md).
 */
export async function openConversation(token: string, source: 'performer' | 'user', sourceId: string) {
  const body = await apiRequest<{ data: ConversationResponse }>({
    method: 'POST',
    path: '/conversations',
    body: { source, sourceId },
    token,
  });
  return mapConversation(body.data);
}

/** The newest `limit` messages, newest first (spec §7, §9), and how many there are in all. */
export async function fetchMessages(token: string, conversationId: string, limit: number, signal?: AbortSignal) {
  const body = await apiRequest<{ data: { data: MessageResponse[]; total: number } }>({
    path: `/messages/conversations/${encodeURIComponent(conversationId)}`,
    params: { offset: 0, limit, sort: 'desc' },
    token,
    signal,
  });
  return { messages: body.data.data.map(mapMessage), total: body.data.total };
}

export async function sendMessage(token: string, conversationId: string, text: string, clientId?: string) {
  const body = await apiRequest<{ data: MessageResponse }>({
    method: 'POST',
    path: `/messages/conversations/${encodeURIComponent(conversationId)}`,
    body: { text, fileIds: [], type: 'text', ...(clientId ? { clientId } : {}) },
    token,
  });
  return mapMessage(body.data);
}

export async function deleteMessage(token: string, messageId: string) {
  await apiRequest({ method: 'DELETE', path: `/messages/${encodeURIComponent(messageId)}`, token });
}

/** Marks every message of the conversation read for the viewer (spec §2, §4). */
export async function readAll(token: string, conversationId: string) {
  await apiRequest({ method: 'POST', path: `/messages/read-all/${encodeURIComponent(conversationId)}`, token });
}

/** The viewer's unread total for the top bar; 0 when the session is not valid (the page treats it as signed out). */
export async function fetchUnreadTotal(token: string, signal?: AbortSignal) {
  try {
    const body = await apiRequest<{ data: { total: number } }>({ path: '/messages/total-unread-messages', token, signal });
    return body.data.total;
  } catch (error) {
    if (isHttpError(error, 401, 403)) return 0;
    throw error;
  }
}

/**
 * The send form's fields checked by the schema the api uses. Here, in a .server module, so that the conversation
 * page's browser bundle holds no zod (its browser-side check is messageTextError).
 */
export function parseSendMessage(formData: FormData) {
  return parseWithZod(guardForm(formData), { schema: SendMessageSchema });
}
