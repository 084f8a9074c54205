import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { CollectionForm } from '~/components/collection-form';
import { StudioPage } from '~/components/studio-page';
import { apiFor } from '~/utils/api.server';
import { requireOwnArtist } from '~/utils/auth.server';
import { keptChoices, shownCover } from '~/utils/collection-form';
import { collectionFormAction, loadCollectionForm } from '~/utils/collections.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `New collection · ${data.artist.name} | Stagedoor` : 'New collection | Stagedoor' },
];

/**
 * /{artist}/account/collections/new: a title, a description, a cover and the chosen items in order; after a search or
 * page turn of the picker, the form as it was, from the address.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const { artist } = await requireOwnArtist(api, args.params.artistUsername);
  const form = await loadCollectionForm(api, artist.username, new URL(args.request.url));
  return { artist: { username: artist.username, name: artist.name }, ...form };
}

export function action(args: ActionFunctionArgs) {
  return collectionFormAction(args);
}

export default function NewCollection() {
  const { artist, items, picker, chosen, cpage, draft } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const kept = keptChoices(lastResult);
  return (
    <StudioPage artistName={artist.name} title="New collection" intro="Group items for your fans, in the order you choose.">
      <CollectionForm
        items={items}
        picker={picker}
        chosen={kept.itemIds ?? chosen}
        chosenPage={cpage}
        defaultValue={draft ? { title: draft.title, description: draft.description } : undefined}
        cover={shownCover(lastResult, draft, null)}
        lastResult={lastResult}
        cancelTo={`/${artist.username}/account/collections`}
        submitLabel="Create collection"
      />
    </StudioPage>
  );
}
