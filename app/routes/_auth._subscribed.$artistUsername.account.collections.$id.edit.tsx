import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { CollectionForm } from '~/components/collection-form';
import { StudioPage } from '~/components/studio-page';
import { apiFor } from '~/utils/api.server';
import { invariantResponse, requireOwnArtist } from '~/utils/auth.server';
import { keptChoices, shownCover } from '~/utils/collection-form';
import { collectionFormAction, getOwnCollection, loadCollectionForm } from '~/utils/collections.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Edit ${data.collection.title} · ${data.artist.name} | Stagedoor` : 'Edit collection | Stagedoor' },
];

/**
 * /{artist}/account/collections/{id}/edit: the collection's form, filled in (after a search or page turn of the picker,
 * as it was, from the address), and a way to delete it (items kept).
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const { artist } = await requireOwnArtist(api, args.params.artistUsername);
  const collection = await getOwnCollection(api, args.params.id ?? '');
  invariantResponse(collection.performerId === artist.id, 'Not found', { status: 404 });
  const form = await loadCollectionForm(api, artist.username, new URL(args.request.url), { items: collection.items.data });
  return {
    artist: { username: artist.username, name: artist.name },
    collection: {
      _id: collection._id,
      title: collection.title,
      description: collection.description,
      cover: collection.cover ? { id: collection.cover._id, name: '', url: collection.cover.thumbnailUrl ?? collection.cover.url } : null,
    },
    ...form,
  };
}

export function action(args: ActionFunctionArgs) {
  return collectionFormAction(args, args.params.id);
}

export default function EditCollection() {
  const { artist, collection, items, picker, chosen, cpage, draft } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const kept = keptChoices(lastResult);
  return (
    <StudioPage artistName={artist.name} title="Edit collection">
      <CollectionForm
        items={items}
        picker={picker}
        chosen={kept.itemIds ?? chosen}
        chosenPage={cpage}
        defaultValue={
          draft ? { title: draft.title, description: draft.description } : { title: collection.title, description: collection.description }
        }
        cover={shownCover(lastResult, draft, collection.cover)}
        lastResult={lastResult}
        cancelTo={`/${artist.username}/account/collections`}
        submitLabel="Save collection"
      />
      <Form method="post" className="mt-12 rounded-2xl border border-red-400/40 p-5 sm:p-6">
        <h2 className="text-lg font-bold text-white">Delete this collection</h2>
        <p className="mt-1 text-sm text-white/75">The collection goes; its items stay, in your content and in the vault.</p>
        <button
          type="submit"
          name="intent"
          value="delete"
          className="mt-4 rounded-full border border-red-400 px-5 py-2.5 text-base font-semibold text-red-300 hover:bg-red-400/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
        >
          Delete collection
        </button>
      </Form>
    </StudioPage>
  );
}
