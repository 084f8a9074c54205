import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { PostForm } from '~/components/post-form';
import { StudioPage } from '~/components/studio-page';
import { apiFor } from '~/utils/api.server';
import { requireOwnArtist } from '~/utils/auth.server';
import { postFormAction } from '~/utils/content-create.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Write a post · ${data.artist.name} | Stagedoor` : 'Write a post | Stagedoor' },
];

/** /{artist}/account/create-text: a text post with an optional thumbnail, poll, presale and schedule. */
export async function loader(args: LoaderFunctionArgs) {
  const { artist } = await requireOwnArtist(apiFor(args), args.params.artistUsername);
  return { artist: { username: artist.username, name: artist.name } };
}

export function action(args: ActionFunctionArgs) {
  return postFormAction(args, 'text');
}

export default function CreateText() {
  const { artist } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <StudioPage
      artistName={artist.name}
      title="Write a post"
      intro="Publish it now, schedule it, or keep it as a draft. Only your subscribers see it."
    >
      <PostForm kind="text" defaultValue={{ tags: 'post' }} lastResult={actionData} cancelTo={`/${artist.username}/account`} />
    </StudioPage>
  );
}
