import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import type { ReactNode } from 'react';
import { ArtistStudioLinks } from '~/components/artist-studio-links';
import { itemHref, MediaGlyph, MediaStatusBadge, Pager } from '~/components/content-card';
import { formatGmt } from '~/utils/dates';
import { readOffset } from '~/utils/content-params';
import { apiFor } from '~/utils/api.server';
import { requireOwnArtist } from '~/utils/auth.server';
import { listOwnContent, type OwnContentItem } from '~/utils/content.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Your content · ${data.artist.name} | Stagedoor` : 'Your content | Stagedoor' },
];

/** Published items per page; drafts and scheduled items are few, and shown up to UNPUBLISHED_LIMIT. */
const PUBLISHED_PAGE_SIZE = 20;
const UNPUBLISHED_LIMIT = 50;

/**
 * /{artist}/account/content?offset: the artist's drafts, scheduled items (soonest first) and published items
 * (newest first, paged by `offset`, so every item can be reached to edit or delete), each with its page and its
 * edit page. Fans never see drafts or scheduled items before their time; the artist sees them here.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const { artist } = await requireOwnArtist(api, args.params.artistUsername);
  const search = new URL(args.request.url).searchParams;
  const offset = readOffset(search);
  const [drafts, scheduled, published] = await Promise.all([
    listOwnContent(api, artist.username, 'draft', { limit: UNPUBLISHED_LIMIT }),
    listOwnContent(api, artist.username, 'scheduled', { limit: UNPUBLISHED_LIMIT }),
    listOwnContent(api, artist.username, 'published', { limit: PUBLISHED_PAGE_SIZE, offset }),
  ]);
  const deleted = search.get('deleted') === 'true';
  return { artist: { username: artist.username, name: artist.name }, drafts, scheduled, published, offset, deleted };
}

export default function YourContent() {
  const { artist, drafts, scheduled, published, offset, deleted } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto w-full max-w-4xl px-4 pb-20 pt-10 sm:px-6 sm:pt-14">
      <p className="text-sm font-semibold uppercase tracking-widest text-accent">{artist.name}</p>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-white sm:text-4xl">Your content</h1>
      {deleted ? (
        <p role="status" className="mt-4 rounded-lg bg-accent/15 px-3 py-2 text-base text-accent">
          Deleted.
        </p>
      ) : null}
      <div className="mt-8">
        <ArtistStudioLinks artistUsername={artist.username} current="content" />
      </div>
      <ItemList
        title="Drafts"
        empty="No drafts. “Save as draft” on any form keeps an item here, unseen by fans."
        artist={artist.username}
        items={drafts.data}
        total={drafts.total}
        when={(item) => `Last changed ${formatGmt(item.updatedAt)}`}
      />
      <ItemList
        title="Scheduled"
        empty="Nothing scheduled."
        artist={artist.username}
        items={scheduled.data}
        total={scheduled.total}
        when={(item) => `Publishes ${formatGmt(item.publishAt)}`}
      />
      <ItemList
        title="Published"
        empty="Nothing published yet."
        artist={artist.username}
        items={published.data}
        total={published.total}
        when={(item) => `Published ${formatGmt(item.publishAt)}`}
      >
        <Pager
          offset={offset}
          limit={PUBLISHED_PAGE_SIZE}
          total={published.total}
          label="Published pages"
          hrefFor={(next) => `/${artist.username}/account/content${next ? `?offset=${next}` : ''}#list-published`}
        />
      </ItemList>
    </div>
  );
}

/**
 * Where the item's file stands while it is not ready (docs/media.md): processing, after which a published or
 * scheduled item goes out to fans, or failed with the reason and what to do.
 */
function MediaStatusNote({ item }: { item: OwnContentItem }) {
  const media = item.media;
  if (!media || media.status === 'ready') return null;
  const waits = item.state !== 'draft';
  if (media.status === 'processing') {
    return (
      <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-white/80">
        <MediaStatusBadge status="processing" />
        {waits ? 'Fans will see it as soon as its file is ready.' : 'Its file is being prepared for every browser.'}
      </p>
    );
  }
  return (
    <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-red-200">
      <MediaStatusBadge status="failed" />
      <span>
        {media.failureReason ?? "We couldn't process this file."}
        {waits ? ' Fans will not see this item until you replace the file.' : ''}
      </span>
    </p>
  );
}

function ItemList({
  title,
  empty,
  artist,
  items,
  total,
  when,
  children,
}: {
  title: string;
  empty: string;
  artist: string;
  items: OwnContentItem[];
  total: number;
  when: (item: OwnContentItem) => string;
  /** What follows the list (the published items' pages). */
  children?: ReactNode;
}) {
  const id = `list-${title.toLowerCase()}`;
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="mt-10 scroll-mt-24">
      <h2 id={`${id}-title`} className="text-xl font-bold text-white">
        {title} <span className="text-base font-medium text-white/70">({total})</span>
      </h2>
      {items.length === 0 ? (
        <p className="mt-3 text-base text-white/75">{empty}</p>
      ) : (
        <ul className="mt-4 divide-y divide-white/10 rounded-2xl bg-navy-light ring-1 ring-white/10">
          {items.map((item) => (
            <li key={item._id} className="flex items-center gap-4 p-4">
              {item.thumbnail?.thumbnailUrl || (item.media?.kind === 'image' && item.media.thumbnailUrl) ? (
                <img
                  src={item.thumbnail?.thumbnailUrl ?? item.media?.thumbnailUrl ?? ''}
                  alt=""
                  loading="lazy"
                  className="h-14 w-14 shrink-0 rounded-lg bg-white/10 object-cover"
                />
              ) : (
                <div className="flex h-14 w-14 shrink-0 items-center justify-center rounded-lg bg-white/10">
                  <MediaGlyph kind={item.mediaType} className="h-7 w-7" />
                </div>
              )}
              <div className="min-w-0 flex-1">
                <p className="line-clamp-2 break-words text-base font-semibold text-white">
                  <Link
                    to={itemHref(artist, item)}
                    className="rounded hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
                  >
                    {item.title}
                  </Link>
                </p>
                <p className="text-sm text-white/70">
                  {item.typeLabel} · {when(item)}
                </p>
                <MediaStatusNote item={item} />
              </div>
              <Link
                to={`/${artist}/account/content/${item._id}/edit`}
                className="shrink-0 rounded-full border border-white/30 px-4 py-2 text-sm font-semibold text-white hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
              >
                Edit<span className="sr-only"> {item.title}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {total > items.length && !children ? (
        <p className="mt-3 text-sm text-white/70">
          The {items.length} {title === 'Scheduled' ? 'soonest' : 'latest'} of {total} are shown.
        </p>
      ) : null}
      {children}
    </section>
  );
}
