import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useParams, useRevalidator, useRouteLoaderData } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { Pager } from '~/components/content-card';
import { inputClassName } from '~/components/form-parts';
import { ConversationList } from '~/components/messages';
import { START_BUTTON, StartConversationForm } from '~/components/start-conversation';
import * as z from 'zod/mini';
import { apiFor, isHttpError } from '~/utils/api.server';
import { invariantResponse, isOwnArtist, requireSubscriber, requireUser } from '~/utils/auth.server';
import { parseGuardedForm, readFormData } from '~/utils/form-guard.server';
import { apiErrorReply } from '~/utils/form-reply.server';
import type { ConversationReadEvent, MessageCreatedEvent, MessageDeletedEvent } from '#contract/messages';
import { RealtimeEvent } from '#contract/realtime';
import { readOffset } from '~/utils/content-params';
import { conversationHref, findConversations, INBOX_PAGE_SIZE, mapConversation, upsertConversation } from '~/utils/messages';
import { fetchConversations, openConversation } from '~/utils/messages.server';
import { getSocket, useRealtimeEvent } from '~/utils/realtime';
import type { loader as subscribedLoader } from './_auth._subscribed';

export const meta: MetaFunction = () => [{ title: 'Messages | Stagedoor' }];

/**
 * /{artist}/account/messages: the viewer's conversations, newest activity first. A fan sees their
 * conversations with the artists they write to; the artist sees every fan who wrote. The list is fetched
 * whole and shown a page at a time (INBOX_PAGE_SIZE, `?offset=`), with `?q=` finding a fan by name: an artist with
 * hundreds of fans writing gets a page that stays quick, and the fan they look for without scrolling.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const search = new URL(args.request.url).searchParams;
  const query = (search.get('q') ?? '').trim().slice(0, 100);
  const [user, all] = await Promise.all([requireUser(api), fetchConversations(api)]);
  const found = findConversations(all, query);
  const offset = readOffset(search);
  return {
    viewer: { id: user.id, artist: user.artist, username: user.username },
    conversations: found.slice(offset, offset + INBOX_PAGE_SIZE),
    offset,
    total: found.length,
    everyone: all.length,
    query,
  };
}

/**
 * intent=start opens (or reopens) a conversation and goes there: a fan's "Message" button, with this artist; the
 * artist's "Message" beside a subscriber on their account page (`fanId`), with that fan.
 */
export { refreshWhenBackOnline as clientLoader } from '~/utils/realtime';

export async function action(args: ActionFunctionArgs) {
  const api = apiFor(args);
  const { user, artist } = await requireSubscriber(api, args.params.artistUsername);
  const submission = parseGuardedForm(await readFormData(args.request), StartSchema);
  invariantResponse(submission.status === 'success', 'Bad request', { status: 400 });
  const owner = isOwnArtist(user, artist);
  const { fanId } = submission.value;
  invariantResponse(!owner || fanId, 'Bad request', { status: 400 });
  try {
    const conversation = fanId && owner ? await openConversation(api, 'user', fanId) : await openConversation(api, 'performer', artist.id);
    return redirect(conversationHref(user, conversation));
  } catch (error) {
    // A fan who is no longer a member cannot be written to: the page says so.
    if (isHttpError(error, 403, 404)) return apiErrorReply(submission, error);
    throw error;
  }
}

/** The start form: a fan starts theirs with the artist of the page; the artist names the fan. */
const StartSchema = z.object({ intent: z.literal('start'), fanId: z.optional(z.string()) });

export default function Messages() {
  const data = useLoaderData<typeof loader>();
  const layout = useRouteLoaderData<typeof subscribedLoader>('routes/_auth._subscribed');
  const actionData = useActionData<typeof action>();
  const { artistUsername = '' } = useParams();
  const { viewer, offset, total, everyone, query } = data;
  const [conversations, setConversations] = useState(data.conversations);
  useEffect(() => setConversations(data.conversations), [data.conversations]);
  const revalidator = useRevalidator();

  // The first page of the whole inbox takes in the conversation a message moves to the top; a later page or a search
  // only updates the conversations it shows.
  const live = offset === 0 && !query;
  const update = (conversation: Parameters<typeof mapConversation>[0]) =>
    setConversations((current) =>
      live || current.some((c) => c.id === conversation._id)
        ? upsertConversation(current, mapConversation(conversation)).slice(0, live ? INBOX_PAGE_SIZE : undefined)
        : current,
    );
  useRealtimeEvent<MessageCreatedEvent | MessageDeletedEvent>(RealtimeEvent.messageCreated, ({ conversation }) => update(conversation));
  useRealtimeEvent<MessageDeletedEvent>(RealtimeEvent.messageDeleted, ({ conversation }) => update(conversation));
  useRealtimeEvent<ConversationReadEvent>(RealtimeEvent.conversationRead, ({ conversationId, readerId }) => {
    if (readerId !== viewer.id) return;
    setConversations((current) => current.map((c) => (c.id === conversationId ? { ...c, numUnreadMessages: 0 } : c)));
  });
  // A connection that could not recover what it missed (away too long, a restarted api) refetches the list.
  useRealtimeEvent('connect', () => {
    if (!getSocket()?.recovered) revalidator.revalidate();
  });

  return (
    <div className="mx-auto w-full max-w-3xl px-4 pb-20 pt-8 sm:px-6">
      <h1 className="text-3xl font-extrabold tracking-tight text-white">Messages</h1>
      {actionData?.error?.[''] ? (
        <p role="alert" className="mt-4 rounded-lg bg-red-500/15 px-4 py-3 text-base text-red-200">
          {actionData.error['']}
        </p>
      ) : null}
      {everyone > INBOX_PAGE_SIZE || query ? <InboxSearch query={query} total={total} /> : null}
      <div className="mt-6">
        {query && !total ? (
          <p className="rounded-2xl border border-dashed border-white/25 px-6 py-10 text-center text-lg text-white/85">
            No conversation with a name like “{query}”.{' '}
            <Link to="?" className="underline">
              Show every conversation
            </Link>
          </p>
        ) : conversations.length ? (
          <>
            {/* A fan who writes to other artists but not yet to this one starts that conversation here too. */}
            {layout && !layout.isOwner && !conversations.some((c) => c.recipient.username === layout.artist.username) ? (
              <div className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-2xl bg-navy-light px-4 py-4 ring-1 ring-white/10 sm:px-6">
                <p className="text-base text-white/85">No conversation with {layout.artist.name} yet.</p>
                <StartConversationForm artistUsername={artistUsername} className={START_BUTTON}>
                  {`Message ${layout.artist.name}`}
                </StartConversationForm>
              </div>
            ) : null}
            <ConversationList conversations={conversations} viewer={viewer} />
            <Pager
              offset={offset}
              limit={INBOX_PAGE_SIZE}
              total={total}
              label="Conversation pages"
              hrefFor={(next) => `?${new URLSearchParams({ ...(query ? { q: query } : {}), ...(next ? { offset: String(next) } : {}) })}`}
            />
          </>
        ) : (
          <EmptyInbox artistView={viewer.artist} artistUsername={artistUsername} />
        )}
      </div>
    </div>
  );
}

/** A plain GET form: finds a conversation by the other member's name or username, with JavaScript off too. */
function InboxSearch({ query, total }: { query: string; total: number }) {
  return (
    <>
      <Form method="get" role="search" aria-label="Conversations" className="mt-6 flex max-w-xl gap-3">
        <label htmlFor="inbox-q" className="sr-only">
          A name or username
        </label>
        <input
          id="inbox-q"
          name="q"
          type="search"
          defaultValue={query}
          maxLength={100}
          placeholder="Find by name"
          className={inputClassName(false)}
        />
        <button
          type="submit"
          className="shrink-0 rounded-full bg-accent px-6 py-2.5 text-base font-semibold text-navy hover:bg-accent-dark focus:outline-none focus-visible:ring-2 focus-visible:ring-white"
        >
          Find
        </button>
      </Form>
      {query ? (
        <p className="mt-3 text-sm text-white/75">
          {total === 1 ? '1 conversation' : `${total} conversations`} with a name like “{query}”.{' '}
          <Link to="?" className="underline">
            Show all
          </Link>
        </p>
      ) : null}
    </>
  );
}

function EmptyInbox({ artistView, artistUsername }: { artistView: boolean; artistUsername: string }) {
  return (
    <div className="rounded-2xl border border-dashed border-white/25 px-6 py-12 text-center">
      <p className="text-xl font-semibold text-white">No messages yet</p>
      {artistView ? (
        <p className="mt-2 text-base text-white/80">
          When your members write to you, their conversations appear here. To write first, use Message beside a subscriber on{' '}
          <Link to={`/${artistUsername}/account`} className="underline">
            your account page
          </Link>
          .
        </p>
      ) : (
        <StartConversation artistUsername={artistUsername} />
      )}
    </div>
  );
}

/** For a fan with no conversation yet: start one with the artist of this page. */
function StartConversation({ artistUsername }: { artistUsername: string }) {
  return (
    <>
      <p className="mt-2 text-base text-white/80">Say hello: your messages go straight to the artist.</p>
      <div className="mt-6">
        <StartConversationForm artistUsername={artistUsername} className={START_BUTTON}>
          Write a message
        </StartConversationForm>
      </div>
      <p className="mt-4 text-sm text-white/70">
        Or{' '}
        <Link to="/discover" className="underline">
          go back to your artists
        </Link>
        .
      </p>
    </>
  );
}
