import type { SubmissionResult } from '@conform-to/react';
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import {
  Link,
  useLoaderData,
  useParams,
  useRevalidator,
  type ClientActionFunctionArgs,
  type ShouldRevalidateFunction,
} from '@remix-run/react';
import { randomUUID } from 'node:crypto';
import { Fragment, useEffect, useMemo, useState } from 'react';
import type { ConversationReadEvent, MessageCreatedEvent, MessageDeletedEvent } from '#contract/messages';
import { RealtimeEvent } from '#contract/realtime';
import { dayOf } from '~/components/local-time';
import { DaySeparator } from '~/components/messages';
import { moderationMessages } from '#contract/moderation-messages';
import type { PageHandle } from '~/root';
import { useHydrated } from '~/components/use-hydrated';
import { apiFor } from '~/utils/api.server';
import { invariantResponse, requireUser } from '~/utils/auth.server';
import { mapMessage, mergeMessages, type Message } from '~/utils/messages';
import { fetchMessages, MESSAGES_PAGE_SIZE, readAll, requireConversation } from '~/utils/messages.server';
import { getSocket, useRealtimeEvent } from '~/utils/realtime';
import { conversationAction } from './conversation.server';
import { useDeletion, useReadMarker, useScrollToLatest } from './conversation-hooks';
import { MessageBubble, PendingMessage } from './message-bubble';
import { SendForm } from './send-form';
import { NOT_DELETED, NOT_SENT, useSends } from './sends';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: data
      ? `${data.conversation.recipient.name || data.conversation.recipient.username} | Messages | Stagedoor`
      : 'Messages | Stagedoor',
  },
];

/** A conversation is a column as tall as the window, its composer pinned at the foot: no site footer under it. */
export const handle: PageHandle = { footer: false };

/** "Load older" asks for one more page; a conversation page shows at most this many pages at once. */
const MAX_PAGES = 50;

function pageCount(value: string | null) {
  const pages = Number(value);
  return Number.isInteger(pages) && pages >= 1 ? Math.min(pages, MAX_PAGES) : 1;
}

/**
 * /{artist}/account/messages/{conversationId}?username=: the search username is required, and on entry
 * every message of the conversation is marked read before the messages load.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { request, params } = args;
  const api = apiFor(args);
  const user = await requireUser(api);
  const url = new URL(request.url);
  invariantResponse(url.searchParams.get('username'), 'Search parameter username is required.', { status: 400 });
  const conversationId = params.conversationId ?? '';
  const pages = pageCount(url.searchParams.get('pages'));
  // On entry, every message of the conversation is marked read before the page loads.
  await readAll(api, conversationId);
  const [conversation, page] = await Promise.all([
    requireConversation(api, conversationId),
    fetchMessages(api, conversationId, pages * MESSAGES_PAGE_SIZE),
  ]);
  return {
    viewer: { id: user.id, name: user.name, username: user.username, avatarUrl: user.avatarUrl, artist: user.artist },
    conversation,
    messages: page.messages,
    total: page.total,
    pages,
    // The first send's id, made here so the server's and the browser's first render agree.
    clientId: randomUUID(),
  };
}

export { refreshWhenBackOnline as clientLoader } from '~/utils/realtime';

export const action = conversationAction;

/**
 * With JavaScript the page sends, deletes and marks read through fetchers. A post that cannot reach the server (the
 * connection dropped on the way) answers a reply that says so, shown with Retry, rather than the error page. A
 * browser that knows it is offline does not post at all (useSends, useDeletion).
 */
export async function clientAction({ request, serverAction }: ClientActionFunctionArgs) {
  const sent = await request.clone().formData();
  try {
    return await serverAction<typeof action>();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    const reason = sent.get('intent') === 'delete' ? NOT_DELETED : NOT_SENT;
    const initialValue = Object.fromEntries([...sent].map(([name, value]) => [name, String(value)]));
    return { status: 'error', initialValue, error: { '': [reason] } } satisfies SubmissionResult<string[]>;
  }
}

/** Marking read changes nothing this page shows: its loader need not run again for it. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  formData?.get('intent') === 'read' ? false : defaultShouldRevalidate;

export default function ConversationPage() {
  const data = useLoaderData<typeof loader>();
  const { viewer, conversation } = data;
  const { artistUsername } = useParams();
  const revalidator = useRevalidator();

  // What arrived by the socket since the page loaded, this tab's messages on their way, and what was deleted; merged
  // with the loader's page by id, so an event, a refetch and a send's stored copy for the same message show it once.
  const [live, setLive] = useState<Message[]>([]);
  const { sends, unsent, send, retry, resendFailed } = useSends(data.messages, live, viewer.id);
  const { deleted, hide, remove, deleteError } = useDeletion();
  const [recipientReadAt, setRecipientReadAt] = useState(conversation.recipientReadAt);
  useEffect(() => setRecipientReadAt(conversation.recipientReadAt), [conversation.recipientReadAt]);

  const messages = useMemo(
    () => mergeMessages(data.messages, [...live, ...sends]).filter((m) => !deleted.has(m.id)),
    [data.messages, live, sends, deleted],
  );

  const markRead = useReadMarker();
  useRealtimeEvent<MessageCreatedEvent>(RealtimeEvent.messageCreated, ({ message }) => {
    if (message.conversationId !== conversation.id) return;
    setLive((current) => mergeMessages(current, [mapMessage(message)]));
    if (message.senderInfo._id !== viewer.id) markRead();
  });
  useRealtimeEvent<MessageDeletedEvent>(RealtimeEvent.messageDeleted, ({ _id, conversationId }) => {
    if (conversationId === conversation.id) hide(_id);
  });
  useRealtimeEvent<ConversationReadEvent>(RealtimeEvent.conversationRead, ({ conversationId, readerId, readAt }) => {
    if (conversationId === conversation.id && readerId !== viewer.id) setRecipientReadAt(readAt);
  });
  useRealtimeEvent<{ conversationId: string | null }>(RealtimeEvent.blockChanged, ({ conversationId }) => {
    if (conversationId === conversation.id) revalidator.revalidate();
  });
  useRealtimeEvent('connect', () => {
    resendFailed();
    if (!getSocket()?.recovered) revalidator.revalidate();
  });

  useScrollToLatest(messages[0]?.id);
  // Days as the server drew them (UTC) until hydrated, then the viewer's own.
  const zone = useHydrated() ? undefined : 'UTC';

  const recipient = conversation.recipient;
  const here = `/${artistUsername}/account/messages/${conversation.id}?${new URLSearchParams({ username: recipient.username })}`;
  const blockHref = (fanId: string) => `/${artistUsername}/account/moderation/block/${fanId}?${new URLSearchParams({ back: here })}`;
  const reportHref = (messageId: string) =>
    `/${artistUsername}/account/report?${new URLSearchParams({ kind: 'message', id: messageId, back: here })}`;
  const olderSearch = new URLSearchParams({ username: recipient.username, pages: String(data.pages + 1) });
  const lastSeenId = recipientReadAt
    ? messages.find((m) => m.sender.id === viewer.id && !m.pending && m.createdAt <= recipientReadAt)?.id
    : undefined;

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-1 flex-col px-4 pt-6 sm:px-6">
      <header className="flex items-center gap-3 border-b border-white/10 pb-4">
        <Link
          to={`/${artistUsername}/account/messages`}
          className="shrink-0 whitespace-nowrap rounded-full px-2 py-1 text-base font-semibold text-accent hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
        >
          <span aria-hidden="true">←</span>
          {/* On a phone the arrow alone, so the name beside it has the room to show whole. */}
          <span className="sr-only sm:not-sr-only"> Messages</span>
        </Link>
        <img src={recipient.avatarUrl} alt="" width={40} height={40} className="h-10 w-10 rounded-full object-cover" />
        <div className="min-w-0">
          {/* The name wraps rather than being cut ("The Late Ni…" on a phone). */}
          <h1 className="break-words text-xl font-bold leading-tight text-white">{recipient.name || recipient.username}</h1>
          <p className="break-all text-sm text-white/70">@{recipient.username}</p>
        </div>
      </header>

      <section aria-label="Messages" className="flex-1 py-4">
        {messages.length < data.total ? (
          <p className="mb-4 text-center">
            <Link to={`?${olderSearch}`} preventScrollReset className="text-base font-semibold text-accent underline">
              Load older messages
            </Link>
          </p>
        ) : null}
        {messages.length === 0 ? (
          <p className="py-12 text-center text-base text-white/80">No messages yet. Say hello to {recipient.name || recipient.username}.</p>
        ) : (
          <ol className="space-y-3">
            {[...messages].reverse().map((message, index, oldestFirst) => {
              const mine = message.sender.id === viewer.id;
              // This tab's message keeps its place (and its element) when the stored copy replaces the pending one.
              const key = message.clientId && mine ? `c:${message.clientId}` : message.id;
              const previous = oldestFirst[index - 1];
              const newDay = !previous || dayOf(previous.createdAt, zone) !== dayOf(message.createdAt, zone);
              return (
                <Fragment key={key}>
                  {newDay ? <DaySeparator iso={message.createdAt} /> : null}
                  {message.pending ? (
                    <PendingMessage message={message} unsent={unsent[message.clientId ?? '']} onRetry={() => retry(message)} />
                  ) : (
                    <MessageBubble
                      message={message}
                      mine={mine}
                      seen={message.id === lastSeenId}
                      onDelete={() => remove(message)}
                      blockHref={!mine && viewer.artist && !conversation.blocked ? blockHref(message.sender.id) : undefined}
                      reportHref={!mine && !viewer.artist ? reportHref(message.id) : undefined}
                    />
                  )}
                </Fragment>
              );
            })}
          </ol>
        )}
        <div id="latest" />
      </section>

      {conversation.blocked && !viewer.artist ? (
        // A blocked fan reads what there was, and is told plainly why there is no message box.
        <p className="border-t border-white/10 py-5 text-center text-base font-semibold text-white" data-testid="blocked-line">
          {moderationMessages.cantMessage(recipient.name || recipient.username)}
        </p>
      ) : (
        <>
          {conversation.blocked ? (
            <p className="border-t border-white/10 pt-4 text-base text-white/90">
              You have blocked {recipient.name || recipient.username}: they can't message you.{' '}
              <Link to={`/${artistUsername}/account/moderation#blocked-title`} className="font-semibold text-accent underline">
                Unblock in Moderation
              </Link>
            </p>
          ) : null}
          <SendForm clientId={data.clientId} onSend={send} viewer={viewer} conversationId={conversation.id} deleteError={deleteError} />
        </>
      )}
    </div>
  );
}
