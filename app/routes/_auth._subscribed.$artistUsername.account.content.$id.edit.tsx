import type { MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { Spinner } from '~/components/form-parts';
import { PostForm } from '~/components/post-form';
import { StudioPage } from '~/components/studio-page';
import { editContentAction, editContentLoader } from '~/utils/content-create.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Edit “${data.item.title}” | Stagedoor` : 'Edit | Stagedoor' },
];

/**
 * /{artist}/account/content/{id}/edit: the item's own creation form, filled in from GET /content/{id}, and a
 * Delete button (both in content-create.server.ts).
 */
export const loader = editContentLoader;
export const action = editContentAction;

export default function EditContent() {
  const { artist, item, kind, defaults, previews } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <StudioPage artistName={artist.name} title={`Edit “${item.title}”`} intro={item.summary}>
      <PostForm
        kind={kind}
        defaultValue={defaults}
        lastResult={actionData}
        previews={previews}
        cancelTo={`/${artist.username}/account/content`}
      />
      <DeleteItem title={item.title} />
    </StudioPage>
  );
}

/**
 * Deleting is a plain form posting intent=delete, behind a disclosure: "Delete" opens the question and the button
 * that answers it, with JavaScript or without, and pressing it again ("Keep it") closes them.
 */
function DeleteItem({ title }: { title: string }) {
  const navigation = useNavigation();
  const pending = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'delete';
  const danger =
    'inline-flex cursor-pointer items-center justify-center gap-2 rounded-full border border-red-400/70 px-5 py-3 text-base font-semibold text-red-200 hover:bg-red-500/15 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-300 disabled:opacity-70';
  return (
    <section aria-labelledby="delete-title" className="mt-10 rounded-2xl border border-red-400/30 p-5 sm:p-7">
      <h2 id="delete-title" className="text-lg font-semibold text-white">
        Delete
      </h2>
      <p className="mt-1 text-base text-white/80">
        Deleting removes it for everyone, with its poll votes, comments and bookmarks. This can't be undone.
      </p>
      <details className="group mt-4">
        <summary className={`${danger} list-none [&::-webkit-details-marker]:hidden`}>
          <span className="group-open:hidden">Delete</span>
          <span className="hidden group-open:inline">Keep it</span>
        </summary>
        <Form method="post" className="mt-4 flex flex-wrap items-center gap-3">
          <input type="hidden" name="intent" value="delete" />
          <p className="w-full text-base font-semibold text-white">Delete “{title}” for good?</p>
          <button type="submit" className={danger} disabled={pending}>
            {pending ? <Spinner /> : null}
            Yes, delete it
          </button>
        </Form>
      </details>
    </section>
  );
}
