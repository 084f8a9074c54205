import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation, useParams, useRevalidator, useRouteLoaderData } from '@remix-run/react';
import { randomUUID } from 'node:crypto';
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { ErrorList } from '~/components/forms';
import { LocalTime } from '~/components/messages';
import { useHydrated } from '~/components/use-hydrated';
import { clientApi, ClientApiError } from '~/utils/api.client';
import { apiFor, isHttpError } from '~/utils/api.server';
import { invariantResponse, requireUser, safeRedirect } from '~/utils/auth.server';
import { messageTextError, RealtimeEvent, type ConversationReadEvent, type MessageCreatedEvent, type MessageDeletedEvent, type MessageResponse } from '#contract/messages';
import { mapMessage, mergeMessages, type Message } from '~/utils/messages';
import {
  deleteMessage,
  fetchMessages,
  MESSAGES_PAGE_SIZE,
  parseSendMessage,
  readAll,
  requireConversation,
  sendMessage,
} from '~/utils/messages.server';
import { getSocket } from '~/utils/realtime.client';
import { useRealtimeEvent } from '~/utils/use-realtime';
import type { loader as authLoader } from './_auth';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.conversation.recipient.name || data.conversation.recipient.username} | Messages | Stagedoor` : 'Messages | Stagedoor' },
];

/** "Load older" asks for one more page; a conversation page shows at most this many pages at once. */
const MAX_PAGES = 50;

function pageCount(value: string | null) {
  const pages = Number(value);
  return Number.isInteger(pages) && pages >= 1 ? Math.min(pages, MAX_PAGES) : 1;
}

/**
 * /{artist}/account/messages/{conversationId}?username= (spec §2): the search username is required, and on entry
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
  // Spec §2: on entry, every message of the conversation is marked read before the page loads.
  await readAll(api, conversationId);
  const [conversation, page] = await Promise.all([
    requireConversation(api, conversationId),
    fetchMessages(api, conversationId, pages * MESSAGES_PAGE_SIZE),
  ]);
  return {
    viewer: { id: user.id, name: user.name, username: user.username, avatarUrl: user.avatarUrl },
    conversation,
    messages: page.messages,
    total: page.total,
    pages,
    // The first send's id, made here so the server's and the browser's first render agree.
    clientId: randomUUID(),
  };
}

/**
 * The no-JavaScript path: intent=send posts the message, intent=delete deletes one; both come back to the
 * conversation (post/redirect/get). With JavaScript the page talks to the api directly and does not reload.
 */
export async function action(args: ActionFunctionArgs) {
  const { request, params } = args;
  const api = apiFor(args);
  await requireUser(api);
  const conversationId = params.conversationId ?? '';
  const url = new URL(request.url);
  url.searchParams.delete('index');
  url.searchParams.delete('_data');
  const back = safeRedirect(`${url.pathname}${url.search}#latest`);
  const formData = await request.formData();

  if (formData.get('intent') === 'delete') {
    const messageId = formData.get('messageId');
    if (typeof messageId !== 'string' || !messageId) throw new Response('Bad request', { status: 400 });
    try {
      await deleteMessage(api, messageId);
    } catch (error) {
      // Already gone (deleted in another tab) is what the fan wanted; someone else's message is refused.
      if (!isHttpError(error, 404)) {
        if (isHttpError(error, 403)) return json({ intent: 'delete' as const, error: error.message }, { status: 403 });
        throw error;
      }
    }
    return redirect(back);
  }

  const submission = parseSendMessage(formData);
  if (submission.status !== 'success') {
    return json({ intent: 'send' as const, errors: { text: submission.error?.text ?? undefined } }, { status: 400 });
  }
  try {
    await sendMessage(api, conversationId, submission.value.text, submission.value.clientId);
  } catch (error) {
    if (isHttpError(error, 400, 403, 404, 409, 429, 503)) {
      const text = error.fieldErrors.text;
      return json({ intent: 'send' as const, errors: text ? { text } : { form: [error.message] } }, { status: error.status });
    }
    throw error;
  }
  return redirect(back);
}

type ActionData = { intent: 'send'; errors: { text?: string[]; form?: string[] } } | { intent: 'delete'; error: string };

export default function ConversationPage() {
  const data = useLoaderData<typeof loader>();
  const token = useRouteLoaderData<typeof authLoader>('routes/_auth')?.token;
  const { viewer, conversation } = data;
  const { artistUsername } = useParams();
  const revalidator = useRevalidator();

  // What arrived since the page loaded (events, this tab's sends) and what was deleted; merged with the loader's
  // page by id, so an event, a refetch and a send's answer for the same message show it once.
  const [live, setLive] = useState<Message[]>([]);
  const [deleted, setDeleted] = useState<ReadonlySet<string>>(new Set());
  const [failed, setFailed] = useState<Record<string, string>>({});
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [recipientReadAt, setRecipientReadAt] = useState(conversation.recipientReadAt);
  useEffect(() => setRecipientReadAt(conversation.recipientReadAt), [conversation.recipientReadAt]);

  const messages = useMemo(
    () => mergeMessages(data.messages, live).filter((m) => !deleted.has(m.id)),
    [data.messages, live, deleted],
  );

  const markRead = useReadMarker(token, conversation.id);
  useRealtimeEvent<MessageCreatedEvent>(RealtimeEvent.messageCreated, ({ message }) => {
    if (message.conversationId !== conversation.id) return;
    setLive((current) => mergeMessages(current, [mapMessage(message)]));
    if (message.senderInfo._id !== viewer.id) markRead();
  });
  useRealtimeEvent<MessageDeletedEvent>(RealtimeEvent.messageDeleted, ({ _id, conversationId }) => {
    if (conversationId === conversation.id) setDeleted((current) => new Set(current).add(_id));
  });
  useRealtimeEvent<ConversationReadEvent>(RealtimeEvent.conversationRead, ({ conversationId, readerId, readAt }) => {
    if (conversationId === conversation.id && readerId !== viewer.id) setRecipientReadAt(readAt);
  });
  useRealtimeEvent('connect', () => {
    if (!getSocket()?.recovered) revalidator.revalidate();
  });

  const send = useCallback(
    async (message: Message) => {
      if (!token) return;
      setLive((current) => mergeMessages(current, [message]));
      setFailed(({ [message.clientId ?? '']: _, ...rest }) => rest);
      try {
        const stored = await clientApi<MessageResponse>({
          method: 'POST',
          path: `/messages/conversations/${encodeURIComponent(conversation.id)}`,
          body: { text: message.text, fileIds: [], type: 'text', clientId: message.clientId },
          token,
        });
        setLive((current) => mergeMessages(current, [mapMessage(stored)]));
      } catch (error) {
        const reason = error instanceof ClientApiError ? error.message : 'Not sent: check your connection and try again.';
        setFailed((current) => ({ ...current, [message.clientId ?? '']: reason }));
      }
    },
    [token, conversation.id],
  );

  const remove = useCallback(
    async (message: Message) => {
      if (!token) return;
      setDeleted((current) => new Set(current).add(message.id));
      setDeleteError(null);
      try {
        await clientApi({ method: 'DELETE', path: `/messages/${encodeURIComponent(message.id)}`, token });
      } catch (error) {
        if (error instanceof ClientApiError && error.status === 404) return;
        // The message comes back, with the reason it is still there.
        setDeleteError(error instanceof ClientApiError ? error.message : 'Not deleted: check your connection and try again.');
        setDeleted((current) => {
          const next = new Set(current);
          next.delete(message.id);
          return next;
        });
      }
    },
    [token],
  );

  useScrollToLatest(messages[0]?.id);

  const recipient = conversation.recipient;
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
          <span aria-hidden="true">←</span> Messages
        </Link>
        <img src={recipient.avatarUrl} alt="" width={40} height={40} className="h-10 w-10 rounded-full object-cover" />
        <div className="min-w-0">
          <h1 className="truncate text-xl font-bold text-white">{recipient.name || recipient.username}</h1>
          <p className="truncate text-sm text-white/70">@{recipient.username}</p>
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
          <p className="py-12 text-center text-base text-white/80">
            No messages yet. Say hello to {recipient.name || recipient.username}.
          </p>
        ) : (
          <ol className="space-y-3">
            {[...messages].reverse().map((message) => (
              <MessageBubble
                key={message.clientId && message.sender.id === viewer.id ? `c:${message.clientId}` : message.id}
                message={message}
                mine={message.sender.id === viewer.id}
                seen={message.id === lastSeenId}
                failure={message.pending && message.clientId ? failed[message.clientId] : undefined}
                onRetry={() => void send(message)}
                onDelete={() => void remove(message)}
              />
            ))}
          </ol>
        )}
        <div id="latest" />
      </section>

      <SendForm
        clientId={data.clientId}
        onSend={token ? send : undefined}
        viewer={viewer}
        conversationId={conversation.id}
        deleteError={deleteError}
      />
    </div>
  );
}

/** Marks the open conversation read when a message arrives in it, at most once per burst of messages. */
function useReadMarker(token: string | undefined, conversationId: string) {
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(() => {
    if (!token) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      void clientApi({ method: 'POST', path: `/messages/read-all/${encodeURIComponent(conversationId)}`, token }).catch(() => undefined);
    }, 300);
  }, [token, conversationId]);
}

/** Keeps the newest message in view: on arrival, and whenever a new one comes in while the reader is near the end. */
function useScrollToLatest(newestId: string | undefined) {
  const first = useRef(true);
  useEffect(() => {
    const end = document.getElementById('latest');
    if (!end) return;
    const nearEnd = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 400;
    if (first.current || nearEnd) end.scrollIntoView({ block: 'end' });
    first.current = false;
  }, [newestId]);
}

function MessageBubble({
  message,
  mine,
  seen,
  failure,
  onRetry,
  onDelete,
}: {
  message: Message;
  mine: boolean;
  seen: boolean;
  failure?: string;
  onRetry: () => void;
  onDelete: () => void;
}) {
  const hydrated = useHydrated();
  const [confirming, setConfirming] = useState(false);
  return (
    <li className={`flex flex-col ${mine ? 'items-end' : 'items-start'}`} data-testid="message" aria-busy={message.pending || undefined}>
      <div
        className={`max-w-[85%] whitespace-pre-wrap break-words rounded-2xl px-4 py-2.5 text-base sm:max-w-[70%] ${
          mine ? 'rounded-br-md bg-accent text-navy' : 'rounded-bl-md bg-navy-light text-white ring-1 ring-white/10'
        } ${message.pending && !failure ? 'opacity-70' : ''}`}
      >
        <span className="sr-only">{mine ? 'You' : message.sender.name || message.sender.username}: </span>
        {message.text}
      </div>
      <div className="mt-1 flex items-center gap-3 px-1 text-xs text-white/70">
        {failure ? (
          <>
            <span role="alert" className="text-red-300">
              {failure}
            </span>
            <button type="button" onClick={onRetry} className="font-semibold text-accent underline">
              Retry
            </button>
          </>
        ) : message.pending ? (
          <span>Sending…</span>
        ) : (
          <LocalTime iso={message.createdAt} style="long" />
        )}
        {seen ? <span>Seen</span> : null}
        {mine && !message.pending ? (
          hydrated ? (
            confirming ? (
              // It goes for both members and cannot come back: one more press, as a messenger asks.
              <span className="flex items-center gap-3">
                <span className="text-white">Delete for both of you?</span>
                <button type="button" onClick={onDelete} className="font-semibold text-red-300 underline hover:text-red-200">
                  Yes, delete
                </button>
                <button type="button" onClick={() => setConfirming(false)} className="font-semibold text-white/80 underline hover:text-white">
                  Keep
                </button>
              </span>
            ) : (
              <button type="button" onClick={() => setConfirming(true)} className="font-semibold text-white/80 underline hover:text-white">
                Delete<span className="sr-only"> message</span>
              </button>
            )
          ) : (
            <Form method="post" className="inline">
              <input type="hidden" name="intent" value="delete" />
              <input type="hidden" name="messageId" value={message.id} />
              <button type="submit" className="font-semibold text-white/80 underline hover:text-white">
                Delete<span className="sr-only"> message</span>
              </button>
            </Form>
          )
        ) : null}
      </div>
    </li>
  );
}

/**
 * The send form: a plain <Form method="post"> (spec §2 without JavaScript: the page reloads, and the action's
 * errors come back on the field). With JavaScript the same rule is checked in the browser (messageTextError, the
 * schema's twin, so the page ships no zod), the message shows at once and goes to the api; Enter sends,
 * Shift+Enter starts a new line.
 */
function SendForm({
  clientId: firstClientId,
  onSend,
  viewer,
  conversationId,
  deleteError,
}: {
  clientId: string;
  onSend?: (message: Message) => Promise<void>;
  viewer: { id: string; name: string; username: string; avatarUrl: string };
  conversationId: string;
  /** Why a delete sent from this page (with JavaScript) failed. */
  deleteError: string | null;
}) {
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const navigation = useNavigation();
  const [clientId, setClientId] = useState(firstClientId);
  const [checked, setChecked] = useState<{ text?: string[]; form?: string[] } | null>(null);
  const errors = checked ?? (actionData?.intent === 'send' ? actionData.errors : {});
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'send';

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    const text = String(new FormData(event.currentTarget).get('text') ?? '');
    const error = messageTextError(text);
    if (error) {
      event.preventDefault();
      setChecked({ text: [error] });
      return;
    }
    setChecked(null);
    if (!onSend) return;
    event.preventDefault();
    void onSend({
      id: `pending:${clientId}`,
      conversationId,
      text: text.trim(),
      createdAt: new Date().toISOString(),
      clientId,
      sender: viewer,
      pending: true,
    });
    setClientId(crypto.randomUUID());
    event.currentTarget.reset();
  }

  const textErrorId = 'send-message-text-error';
  const formErrorId = 'send-message-form-error';
  return (
    <div className="sticky bottom-0 -mx-4 border-t border-white/10 bg-navy-dark/95 px-4 pb-4 pt-3 backdrop-blur sm:-mx-6 sm:px-6">
      {deleteError || actionData?.intent === 'delete' ? (
        <p role="alert" className="mb-2 text-sm text-red-300">
          {deleteError ?? (actionData?.intent === 'delete' ? actionData.error : null)}
        </p>
      ) : null}
      <Form method="post" noValidate onSubmit={handleSubmit} className="flex items-end gap-3">
        <input type="hidden" name="intent" value="send" />
        <input type="hidden" name="clientId" value={clientId} />
        <div className="min-w-0 flex-1">
          <label htmlFor="send-message-text" className="sr-only">
            Message
          </label>
          <textarea
            id="send-message-text"
            name="text"
            required
            rows={2}
            placeholder="Write a message…"
            aria-invalid={errors.text ? true : undefined}
            aria-describedby={[errors.text ? textErrorId : '', errors.form ? formErrorId : ''].join(' ').trim() || undefined}
            onInput={() => checked && setChecked(null)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                event.preventDefault();
                event.currentTarget.form?.requestSubmit();
              }
            }}
            className={`block w-full resize-none rounded-2xl border bg-navy-light px-4 py-3 text-base text-white placeholder:text-white/60 focus:outline-none focus:ring-2 focus:ring-accent ${
              errors.text ? 'border-red-400' : 'border-white/20'
            }`}
          />
          <ErrorList id={textErrorId} errors={errors.text} />
          <ErrorList id={formErrorId} errors={errors.form} />
        </div>
        <button
          type="submit"
          disabled={pending}
          className="shrink-0 rounded-full bg-accent px-5 py-3 text-base font-bold text-navy hover:bg-accent/90 focus:outline-none focus-visible:ring-2 focus-visible:ring-white disabled:opacity-70"
        >
          Send
        </button>
      </Form>
    </div>
  );
}
