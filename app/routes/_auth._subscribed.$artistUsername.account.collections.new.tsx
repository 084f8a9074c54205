import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { CollectionForm } from '~/components/collection-form';
import { StudioPage } from '~/components/studio-page';
import { apiFor } from '~/utils/api.server';
import { requireOwnArtist } from '~/utils/auth.server';
import { keptChoices } from '~/utils/collection-form';
import { chosenPageIds, collectionFormAction, loadPicker, readPickerAddress } from '~/utils/collections.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `New collection · ${data.artist.name} | Stagedoor` : 'New collection | Stagedoor' },
];

/**
 * /{artist}/account/collections/new: a title, a description, a cover and the chosen items in order; after a search or
 * page turn of the picker, the form as it was, from the address.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const { q, page, cpage, draft } = readPickerAddress(new URL(args.request.url));
  const { artist } = await requireOwnArtist(api, args.params.artistUsername);
  const chosen = draft?.itemIds ?? [];
  const { items, picker } = await loadPicker(api, artist.username, { q, page, chosen: chosenPageIds(chosen, cpage) });
  return { artist: { username: artist.username, name: artist.name }, items, picker, chosen, cpage, draft };
}

export function action(args: ActionFunctionArgs) {
  return collectionFormAction(args);
}

export default function NewCollection() {
  const { artist, items, picker, chosen, cpage, draft } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const kept = keptChoices(lastResult);
  const coverId = lastResult ? kept.coverId : draft?.coverId;
  const coverName = (lastResult ? kept.coverName : draft?.coverName) ?? '';
  return (
    <StudioPage artistName={artist.name} title="New collection" intro="Group items for your fans, in the order you choose.">
      <CollectionForm
        items={items}
        picker={picker}
        chosen={kept.itemIds ?? chosen}
        chosenPage={cpage}
        defaultValue={draft ? { title: draft.title, description: draft.description } : undefined}
        cover={coverId ? { id: coverId, name: coverName, url: null } : null}
        lastResult={lastResult}
        cancelTo={`/${artist.username}/account/collections`}
        submitLabel="Create collection"
      />
    </StudioPage>
  );
}
