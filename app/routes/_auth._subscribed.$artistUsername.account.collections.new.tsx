import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { CollectionForm } from '~/components/collection-form';
import { StudioPage } from '~/components/post-form';
import { collectionFormAction, listPickableItems } from '~/utils/collections.server';
import { requireOwnArtist } from '~/utils/content-create.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `New collection · ${data.artist.name} | Stagedoor` : 'New collection | Stagedoor' }];

/** /{artist}/account/collections/new: a title, a description, a cover and the chosen items in order. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { token, artist } = await requireOwnArtist(request, params.artistUsername);
  const items = await listPickableItems(token, artist.username, request.signal);
  return { artist: { username: artist.username, name: artist.name }, items };
}

export function action({ request, params }: ActionFunctionArgs) {
  return collectionFormAction({ request, artistUsername: params.artistUsername });
}

export default function NewCollection() {
  const { artist, items } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <StudioPage artistName={artist.name} title="New collection" intro="Group items for your fans, in the order you choose.">
      <CollectionForm
        items={items}
        chosen={actionData?.itemIds ?? []}
        cover={actionData?.coverId ? { id: actionData.coverId, name: actionData.coverName, url: null } : null}
        lastResult={actionData?.result}
        cancelTo={`/${artist.username}/account/collections`}
        submitLabel="Create collection"
      />
    </StudioPage>
  );
}
