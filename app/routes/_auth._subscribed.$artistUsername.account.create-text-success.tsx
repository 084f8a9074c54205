import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { isRouteErrorResponse, Link, useLoaderData, useParams, useRouteError } from '@remix-run/react';
import { formatGmt } from '~/utils/dates';
import { apiFor } from '~/utils/api.server';
import { requireOwnArtist } from '~/utils/auth.server';
import { getContent } from '~/utils/content.server';

/** The exact message for a missing or empty id. */
const MISSING_ID_MESSAGE = 'Search parameter id is required and must be a non-empty string.';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: data
      ? `${data.status === 'published' ? 'Published' : data.status === 'draft' ? 'Saved as a draft' : 'Scheduled'} | Stagedoor`
      : 'Stagedoor',
  },
];

/**
 * /{artist}/account/create-text-success?id&scheduledAt&draft: after any of the creation forms, says
 * whether the item is published, scheduled (and when, in GMT) or saved as a draft, and links to it.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const { artist } = await requireOwnArtist(api, args.params.artistUsername);
  const search = new URL(args.request.url).searchParams;
  const id = search.get('id')?.trim();
  if (!id) throw json({ message: MISSING_ID_MESSAGE }, { status: 400 });
  const item = await getContent(api, id);
  const draft = search.get('draft') === 'true';
  const scheduledAt = search.get('scheduledAt');
  const scheduledTime = scheduledAt && !Number.isNaN(Date.parse(scheduledAt)) ? new Date(scheduledAt) : null;
  const status = draft ? 'draft' : scheduledTime ? 'scheduled' : 'published';
  return {
    artist: { username: artist.username, name: artist.name },
    item: { id: item._id, title: item.title, mediaType: item.mediaType, type: item.type },
    status,
    scheduledAt: scheduledTime?.toISOString() ?? null,
  };
}

const CREATE_PAGE: Record<string, string> = { photo: 'create-image', audio: 'add-to-vault', video: 'add-to-vault' };
const linkClass =
  'inline-flex items-center justify-center rounded-full px-5 py-3 text-base font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-accent';

export default function CreateTextSuccess() {
  const { artist, item, status, scheduledAt } = useLoaderData<typeof loader>();
  const heading =
    status === 'published' ? 'Published' : status === 'draft' ? 'Saved as a draft' : `Scheduled for ${formatGmt(scheduledAt!)}`;
  const createAgain = CREATE_PAGE[item.mediaType] ?? 'create-text';
  return (
    <div className="mx-auto w-full max-w-2xl px-4 pb-20 pt-12 text-center sm:px-6 sm:pt-20">
      <p className="text-sm font-semibold uppercase tracking-widest text-accent">{artist.name}</p>
      <h1 className="mt-3 text-3xl font-extrabold tracking-tight text-white sm:text-4xl">{heading}</h1>
      <p className="mt-4 text-lg text-white/85">
        “{item.title}”{' '}
        {status === 'published'
          ? 'is live for your subscribers.'
          : status === 'draft'
            ? 'is saved. Only you can see it until you publish it.'
            : 'appears for your subscribers at that time. Until then only you can see it.'}
      </p>
      <div className="mt-8 flex flex-col items-stretch justify-center gap-3 sm:flex-row">
        <Link
          to={`/${artist.username}/vault/${item.id}?type=${item.mediaType}&from=home`}
          className={`${linkClass} bg-accent text-navy hover:bg-accent-dark`}
        >
          View it
        </Link>
        <Link
          to={`/${artist.username}/account/${createAgain}`}
          className={`${linkClass} border border-white/40 text-white hover:bg-white/10`}
        >
          Create another
        </Link>
        <Link to={`/${artist.username}`} className={`${linkClass} text-white/85 hover:text-white`}>
          Go to your page
        </Link>
      </div>
      <p className="mt-6 text-sm text-white/70">
        <Link to={`/${artist.username}/account/content/${item.id}/edit`} className="underline underline-offset-4 hover:text-white">
          Edit it
        </Link>{' '}
        ·{' '}
        <Link to={`/${artist.username}/account/content`} className="underline underline-offset-4 hover:text-white">
          All your content
        </Link>
      </p>
    </div>
  );
}

/** A missing id is this page's own error; anything else goes to the root's error page. */
export function ErrorBoundary() {
  const error = useRouteError();
  const { artistUsername } = useParams();
  if (!isRouteErrorResponse(error) || error.status !== 400) throw error;
  return (
    <div className="mx-auto w-full max-w-2xl px-4 pb-20 pt-12 text-center sm:px-6 sm:pt-20">
      <h1 className="text-3xl font-extrabold tracking-tight text-white">Nothing to show</h1>
      <p role="alert" className="mt-4 text-lg text-white/85">
        {MISSING_ID_MESSAGE}
      </p>
      <Link to={`/${artistUsername}/account/create-text`} className={`${linkClass} mt-8 bg-accent text-navy hover:bg-accent-dark`}>
        Write a post
      </Link>
    </div>
  );
}
