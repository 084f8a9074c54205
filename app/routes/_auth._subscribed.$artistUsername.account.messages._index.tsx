import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData, useParams, useRevalidator, useRouteLoaderData } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { ConversationList } from '~/components/messages';
import { START_BUTTON, StartConversationForm } from '~/components/start-conversation';
import * as z from 'zod/mini';
import { apiFor, isHttpError } from '~/utils/api.server';
import { invariantResponse, isOwnArtist, requireSubscriber, requireUser } from '~/utils/auth.server';
import { parseGuardedForm, readFormData } from '~/utils/form-guard.server';
import { apiErrorReply } from '~/utils/form-reply.server';
import { RealtimeEvent, type ConversationReadEvent, type MessageCreatedEvent, type MessageDeletedEvent } from '#contract/messages';
import { conversationHref, mapConversation, upsertConversation } from '~/utils/messages';
import { fetchConversations, openConversation } from '~/utils/messages.server';
import { getSocket } from '~/utils/realtime.client';
import { useRealtimeEvent } from '~/utils/use-realtime';
import type { loader as subscribedLoader } from './_auth._subscribed';

export const meta: MetaFunction = () => [{ title: 'Messages | Stagedoor' }];

/**
 * /{artist}/account/messages (spec §2): the viewer's conversations, newest activity first. A fan sees their
 * conversations with the artists they write to; the artist sees every fan who wrote.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const [user, conversations] = await Promise.all([requireUser(api), fetchConversations(api)]);
  return { viewer: { id: user.id, artist: user.artist, username: user.username }, conversations };
}

/**
 * intent=start opens (or reopens) a conversation and goes there: a fan's "Message" button, with this artist; the
 * artist's "Message" beside a subscriber on their account page (`fanId`), with that fan.
 */
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
  const { viewer } = data;
  const [conversations, setConversations] = useState(data.conversations);
  useEffect(() => setConversations(data.conversations), [data.conversations]);
  const revalidator = useRevalidator();

  useRealtimeEvent<MessageCreatedEvent | MessageDeletedEvent>(RealtimeEvent.messageCreated, ({ conversation }) =>
    setConversations((current) => upsertConversation(current, mapConversation(conversation))),
  );
  useRealtimeEvent<MessageDeletedEvent>(RealtimeEvent.messageDeleted, ({ conversation }) =>
    setConversations((current) => upsertConversation(current, mapConversation(conversation))),
  );
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
      <div className="mt-6">
        {conversations.length ? (
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
          </>
        ) : (
          <EmptyInbox artistView={viewer.artist} artistUsername={artistUsername} />
        )}
      </div>
    </div>
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
