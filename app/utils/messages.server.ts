import { isHttpError, type ApiClient } from './api.server';
import type { ConversationResponse, MessageResponse } from '#contract/messages';
import { mapConversation, mapConversations, mapMessage } from './messages';

/** The api's conversation and message calls, as the pages use them. */

/** Messages per page of a conversation; "Load older" asks for one more page. */
export const MESSAGES_PAGE_SIZE = 20;

/** GET /conversations without an effective limit (it sends Number.MAX_SAFE_INTEGER): the whole list, empty ones dropped. */
export async function fetchConversations(api: ApiClient) {
  const body = await api.get<{ data: { data: ConversationResponse[] } }>('/conversations', {
    params: { limit: String(Number.MAX_SAFE_INTEGER) },
  });
  return mapConversations(body.data.data);
}

/** One conversation of the viewer's; a conversation they are not in is the 404 page. */
export async function requireConversation(api: ApiClient, conversationId: string) {
  try {
    const body = await api.get<{ data: ConversationResponse }>(`/conversations/${encodeURIComponent(conversationId)}`, { handle: [400] });
    return mapConversation(body.data);
  } catch (error) {
    if (isHttpError(error, 400)) throw new Response('Not found', { status: 404 });
    throw error;
  }
}

/**
 * POST /conversations: made on first use, else the one there is. A fan opens theirs with an artist
 * (`performer`, the artist's id); an artist opens theirs with a fan who subscribes to them (`user`, the fan's id;
 * docs/messages.md).
 */
export async function openConversation(api: ApiClient, source: 'performer' | 'user', sourceId: string) {
  const body = await api.post<{ data: ConversationResponse }>('/conversations', { source, sourceId }, { handle: [403, 404] });
  return mapConversation(body.data);
}

/** The newest `limit` messages, newest first, and how many there are in all. */
export async function fetchMessages(api: ApiClient, conversationId: string, limit: number) {
  const body = await api.get<{ data: { data: MessageResponse[]; total: number } }>(
    `/messages/conversations/${encodeURIComponent(conversationId)}`,
    {
      params: { offset: 0, limit, sort: 'desc' },
    },
  );
  return { messages: body.data.data.map(mapMessage), total: body.data.total };
}

/** The message as stored, or `held` when it holds a word the artist mutes and waits for the artist's review. */
export async function sendMessage(api: ApiClient, conversationId: string, text: string, clientId?: string) {
  const body = await api.post<{ data: MessageResponse | { held: true } }>(
    `/messages/conversations/${encodeURIComponent(conversationId)}`,
    {
      text,
      fileIds: [],
      type: 'text',
      ...(clientId ? { clientId } : {}),
    },
    { handle: [400, 403, 404, 409, 429] },
  );
  return 'held' in body.data ? ('held' as const) : mapMessage(body.data);
}

export async function deleteMessage(api: ApiClient, messageId: string) {
  await api.delete(`/messages/${encodeURIComponent(messageId)}`, { handle: [403, 404] });
}

/** Marks every message of the conversation read for the viewer. */
export async function readAll(api: ApiClient, conversationId: string) {
  try {
    await api.post(`/messages/read-all/${encodeURIComponent(conversationId)}`, undefined, { handle: [400] });
  } catch (error) {
    // Not a conversation id at all: the page does not exist.
    if (isHttpError(error, 400)) throw new Response('Not found', { status: 404 });
    throw error;
  }
}

/**
 * Where the top bar's messages link goes: the artist's own inbox, the current artist's, or /messages to pick one. Here,
 * on the server, because only loaders ask (the root's and /messages'), and the browser's root bundle should not carry
 * the conversation helpers beside it.
 */
export function messagesHref(viewer: { artist: boolean; username: string }, artistUsername?: string) {
  if (viewer.artist) return `/${viewer.username}/account/messages`;
  return artistUsername ? `/${artistUsername}/account/messages` : '/messages';
}
