import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { PostForm } from '~/components/post-form';
import { StudioPage } from '~/components/studio-page';
import { apiFor } from '~/utils/api.server';
import { requireOwnArtist } from '~/utils/auth.server';
import { postFormAction } from '~/utils/content-create.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Post a photo · ${data.artist.name} | Stagedoor` : 'Post a photo | Stagedoor' },
];

/** /{artist}/account/create-image: a photo with a title and caption; its category is Photo. */
export async function loader(args: LoaderFunctionArgs) {
  const { artist } = await requireOwnArtist(apiFor(args), args.params.artistUsername);
  return { artist: { username: artist.username, name: artist.name } };
}

export function action(args: ActionFunctionArgs) {
  return postFormAction(args, 'image');
}

export default function CreateImage() {
  const { artist } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <StudioPage
      artistName={artist.name}
      title="Post a photo"
      intro="A photo with a title and a caption. Publish it now, schedule it, or keep it as a draft."
    >
      <PostForm kind="image" lastResult={actionData} cancelTo={`/${artist.username}/account`} />
    </StudioPage>
  );
}
