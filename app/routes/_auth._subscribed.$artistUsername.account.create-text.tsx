import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { PostForm, StudioPage } from '~/components/post-form';
import { postFormAction, requireOwnArtist } from '~/utils/content-create.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Write a post · ${data.artist.name} | Stagedoor` : 'Write a post | Stagedoor' }];

/** /{artist}/account/create-text (spec §2): a text post with an optional thumbnail, poll, presale and schedule. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { artist } = await requireOwnArtist(request, params.artistUsername);
  return { artist: { username: artist.username, name: artist.name } };
}

export function action({ request, params }: ActionFunctionArgs) {
  return postFormAction({ request, artistUsername: params.artistUsername, kind: 'text' });
}

export default function CreateText() {
  const { artist } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <StudioPage artistName={artist.name} title="Write a post" intro="Publish it now, schedule it, or keep it as a draft. Only your subscribers see it.">
      <PostForm kind="text" defaultValue={{ tags: 'post' }} lastResult={actionData?.result} cancelTo={`/${artist.username}/account`} />
    </StudioPage>
  );
}
