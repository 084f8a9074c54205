import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import type { UserSummary } from '#contract/moderation-messages';
import { FormAlert, SubmitButton } from '~/components/form-parts';
import { StudioPage } from '~/components/studio-page';
import { apiFor, isHttpError } from '~/utils/api.server';
import { requireOwnArtist } from '~/utils/auth.server';
import { readFormData } from '~/utils/form-guard.server';
import { DEFAULT_AVATAR } from '~/utils/mappers';
import { safeRedirect } from '~/utils/safe-redirect';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Block ${data.fan.name || data.fan.username} | Stagedoor` : 'Block | Stagedoor' },
];

/** Where the artist came from (a conversation, an item's comments); their moderation page when it is not one of ours. */
function backTo(request: Request, artistUsername: string) {
  return safeRedirect(new URL(request.url).searchParams.get('back'), `/${artistUsername}/account/moderation`);
}

/**
 * /{artist}/account/moderation/block/{fanId}?back=: the second tap of blocking a fan from their message or comment.
 * The first was the Block link beside it; this page says what blocking does and asks once. A plain form.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const { artist } = await requireOwnArtist(api, args.params.artistUsername);
  try {
    const body = await api.get<{ data: { fan: UserSummary; blocked: boolean } }>(
      `/moderation/fans/${encodeURIComponent(args.params.fanId ?? '')}`,
      { handle: [400, 404] },
    );
    return json(
      { artist: { username: artist.username, name: artist.name }, ...body.data, back: backTo(args.request, artist.username) },
      { headers: { 'Cache-Control': 'no-store' } },
    );
  } catch (error) {
    if (isHttpError(error, 400, 404)) throw new Response('Not found', { status: 404 });
    throw error;
  }
}

export async function action(args: ActionFunctionArgs) {
  const api = apiFor(args);
  const { artist } = await requireOwnArtist(api, args.params.artistUsername);
  await readFormData(args.request);
  try {
    await api.put(`/moderation/blocks/${encodeURIComponent(args.params.fanId ?? '')}`, {}, { handle: [400, 404] });
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return json({ error: error.message }, { status: 400 });
  }
  return redirect(backTo(args.request, artist.username), 303);
}

export default function BlockFanPage() {
  const { artist, fan, blocked, back } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const pending = useNavigation().state === 'submitting';
  const name = fan.name || fan.username;
  return (
    <StudioPage artistName={artist.name} title={`Block ${name}?`}>
      <div className="flex items-center gap-3">
        <img src={fan.avatar || DEFAULT_AVATAR} alt="" width={48} height={48} className="h-12 w-12 rounded-full bg-white/10 object-cover" />
        <p className="text-base text-white/80">@{fan.username}</p>
      </div>
      {blocked ? (
        <p role="status" className="mt-6 text-base text-white">
          You have already blocked {name}.{' '}
          <Link to={back} className="font-semibold text-accent underline">
            Go back
          </Link>
        </p>
      ) : (
        <>
          <ul className="mt-6 list-disc space-y-2 pl-5 text-base text-white/90">
            <li>{name} can no longer message you, comment on your posts or send you reports.</li>
            <li>They are told so, in one line, where the message box and the comment form were.</li>
            <li>They keep what they paid for: their membership runs on, and what they already wrote stays.</li>
            <li>You can unblock them any time in Moderation.</li>
          </ul>
          <div className="mt-4">
            <FormAlert errors={reply?.error ? [reply.error] : undefined} />
          </div>
          <Form method="post" className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-center">
            <SubmitButton pending={pending} className="sm:w-auto sm:px-8">
              Block {name}
            </SubmitButton>
            <Link
              to={back}
              className="rounded-full px-5 py-3 text-center text-base font-semibold text-white underline hover:text-accent focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
            >
              Cancel
            </Link>
          </Form>
        </>
      )}
    </StudioPage>
  );
}
