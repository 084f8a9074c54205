import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import { Spinner } from '~/components/form-parts';
import { PostForm, type PostFormDefaults } from '~/components/post-form';
import { StudioPage } from '~/components/studio-page';
import { useHydrated } from '~/components/use-hydrated';
import { apiFor } from '~/utils/api.server';
import { requireOwnArtist } from '~/utils/auth.server';
import { formatScheduleDate, formatScheduleTime } from '#contract/content-rules';
import { formKindFor, isoToGmtInput } from '~/utils/content-form';
import { editContentAction, getContent, type OwnContentItem } from '~/utils/content-create.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Edit “${data.item.title}” | Stagedoor` : 'Edit | Stagedoor' },
];

/** The poll's closing time as the form writes it (GMT), and as it is now, so an edit may keep it once it has passed. */
function pollClosingDefaults(closesAt: string | null) {
  if (!closesAt) return {};
  const instant = new Date(closesAt);
  return { closeDate: formatScheduleDate(instant), closeTime: formatScheduleTime(instant), closesKept: closesAt };
}

/** The item as the post form's values (strings, a checkbox as 'on'), with its files kept by id. */
function formDefaults(item: OwnContentItem): PostFormDefaults {
  // A scheduled item whose time has come is published: its old schedule no longer applies.
  const schedule = item.schedule && item.state !== 'published' ? item.schedule : undefined;
  return {
    title: item.title,
    content: item.content,
    tags: item.type,
    poll: item.poll
      ? {
          enabled: 'on',
          title: item.poll.title,
          answers: item.poll.answers.map((answer) => ({ id: answer._id, text: answer.text })),
          ...pollClosingDefaults(item.poll.closesAt),
        }
      : undefined,
    schedule: schedule ? { enabled: schedule.enabled ? 'on' : undefined, date: schedule.date, time: schedule.time } : undefined,
    presale: item.presale
      ? {
          ticketUrl: item.presale.ticketUrl,
          saleStartsAt: isoToGmtInput(item.presale.saleStartsAt),
          saleEndsAt: isoToGmtInput(item.presale.saleEndsAt),
        }
      : undefined,
    thumbnailId: item.thumbnail?._id,
    mediaId: item.media?._id,
  };
}

/**
 * /{artist}/account/content/{id}/edit: the item's own creation form, filled in from GET /content/{id}, and a
 * Delete button (the action: editContentAction).
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const [{ artist }, item] = await Promise.all([requireOwnArtist(api, args.params.artistUsername), getContent(api, args.params.id ?? '')]);
  return {
    artist: { username: artist.username, name: artist.name },
    item: { id: item._id, title: item.title, typeLabel: item.typeLabel, state: item.state },
    kind: formKindFor(item.type, item.media?.kind),
    defaults: formDefaults(item),
    previews: {
      thumbnail: item.thumbnail ? { id: item.thumbnail._id, url: item.thumbnail.thumbnailUrl ?? item.thumbnail.url } : null,
      media: item.media ? { id: item.media._id, kind: item.media.kind, url: item.media.thumbnailUrl ?? item.media.url } : null,
    },
  };
}

export const action = editContentAction;

const STATE_LABEL = { draft: 'Draft', scheduled: 'Scheduled', published: 'Published' } as const;

export default function EditContent() {
  const { artist, item, kind, defaults, previews } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <StudioPage artistName={artist.name} title={`Edit “${item.title}”`} intro={`${item.typeLabel} · ${STATE_LABEL[item.state]}`}>
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
 * Deleting is a plain form posting intent=delete. With JavaScript the first press asks to confirm; without it
 * the button itself is the step.
 */
function DeleteItem({ title }: { title: string }) {
  const hydrated = useHydrated();
  const [confirming, setConfirming] = useState(false);
  const navigation = useNavigation();
  const pending = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'delete';
  const danger =
    'inline-flex items-center justify-center gap-2 rounded-full border border-red-400/70 px-5 py-3 text-base font-semibold text-red-200 hover:bg-red-500/15 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-300 disabled:opacity-70';
  return (
    <section aria-labelledby="delete-title" className="mt-10 rounded-2xl border border-red-400/30 p-5 sm:p-7">
      <h2 id="delete-title" className="text-lg font-semibold text-white">
        Delete
      </h2>
      <p className="mt-1 text-base text-white/80">
        Deleting removes it for everyone, with its poll votes, comments and bookmarks. This can't be undone.
      </p>
      <Form method="post" className="mt-4 flex flex-wrap items-center gap-3">
        <input type="hidden" name="intent" value="delete" />
        {hydrated && !confirming ? (
          <button type="button" className={danger} onClick={() => setConfirming(true)}>
            Delete
          </button>
        ) : (
          <>
            {hydrated ? <p className="w-full text-base font-semibold text-white">Delete “{title}” for good?</p> : null}
            <button type="submit" className={danger} disabled={pending}>
              {pending ? <Spinner /> : null}
              {hydrated ? 'Yes, delete it' : 'Delete'}
            </button>
            {hydrated ? (
              <button
                type="button"
                onClick={() => setConfirming(false)}
                className="rounded-full px-5 py-3 text-base font-semibold text-white/85 hover:text-white focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
              >
                Keep it
              </button>
            ) : null}
          </>
        )}
      </Form>
    </section>
  );
}
