import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { PostForm } from '~/components/post-form';
import { StudioPage } from '~/components/studio-page';
import { apiFor } from '~/utils/api.server';
import { requireOwnArtist } from '~/utils/auth.server';
import { postFormAction } from '~/utils/content-create.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Add to the vault · ${data.artist.name} | Stagedoor` : 'Add to the vault | Stagedoor' },
];

/** /{artist}/account/add-to-vault: an audio or video file in one of the nine vault categories. */
export async function loader(args: LoaderFunctionArgs) {
  const { artist } = await requireOwnArtist(apiFor(args), args.params.artistUsername);
  return { artist: { username: artist.username, name: artist.name } };
}

export function action(args: ActionFunctionArgs) {
  return postFormAction(args, 'vault');
}

export default function AddToVault() {
  const { artist } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <StudioPage
      artistName={artist.name}
      title="Add to the vault"
      intro="A demo, a voice note, a session or a video for your subscribers. Publish it now, schedule it, or keep it as a draft."
    >
      <PostForm kind="vault" lastResult={actionData} cancelTo={`/${artist.username}/account`} />
    </StudioPage>
  );
}
