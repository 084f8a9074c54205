import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { ArtistStudioLinks } from '~/components/artist-studio-links';
import { Pager } from '~/components/content-card';
import { ItemArt } from '~/components/item-art';
import { listOwnCollections } from '~/utils/collections.server';
import { apiFor } from '~/utils/api.server';
import { requireOwnArtist } from '~/utils/auth.server';
import { readOffset } from '~/utils/content-params';

/** Collections a page: an artist with many keeps a page that opens quickly, and reaches the rest page by page. */
const COLLECTIONS_PAGE_SIZE = 24;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Your collections · ${data.artist.name} | Stagedoor` : 'Your collections | Stagedoor' },
];

/**
 * /{artist}/account/collections?offset: the artist's collections (title, item count, cover), newest first, a page at
 * a time, each with its edit page.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const search = new URL(args.request.url).searchParams;
  const offset = readOffset(search);
  const { artist } = await requireOwnArtist(api, args.params.artistUsername);
  const collections = await listOwnCollections(api, artist.username, { limit: COLLECTIONS_PAGE_SIZE, offset });
  const deleted = search.get('deleted') === 'true';
  return { artist: { username: artist.username, name: artist.name }, collections, offset, deleted };
}

export default function YourCollections() {
  const { artist, collections, offset, deleted } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto w-full max-w-4xl px-4 pb-20 pt-10 sm:px-6 sm:pt-14">
      <p className="text-sm font-semibold uppercase tracking-widest text-accent">{artist.name}</p>
      <div className="mt-2 flex flex-wrap items-end justify-between gap-4">
        <h1 className="text-3xl font-extrabold tracking-tight text-white sm:text-4xl">Your collections</h1>
        <Link
          to={`/${artist.username}/account/collections/new`}
          className="rounded-full bg-accent px-5 py-2.5 text-base font-semibold text-navy hover:bg-accent-dark focus:outline-none focus-visible:ring-2 focus-visible:ring-white"
        >
          New collection
        </Link>
      </div>
      {deleted ? (
        <p role="status" className="mt-4 rounded-lg bg-accent/15 px-3 py-2 text-base text-accent">
          Collection deleted. Its items are kept.
        </p>
      ) : null}
      <section aria-labelledby="collections-title" className="mt-8">
        <h2 id="collections-title" className="text-xl font-bold text-white">
          Collections <span className="text-base font-medium text-white/70">({collections.total})</span>
        </h2>
        {collections.data.length === 0 ? (
          <p className="mt-3 text-base text-white/75">No collections yet. A collection groups items for fans, in your order.</p>
        ) : (
          <ul className="mt-4 divide-y divide-white/10 rounded-2xl bg-navy-light ring-1 ring-white/10">
            {collections.data.map((collection) => (
              <li key={collection._id} className="flex items-center gap-4 p-4">
                {(collection.cover?.thumbnailUrl ?? collection.cover?.url) ? (
                  <img
                    src={collection.cover.thumbnailUrl ?? collection.cover.url}
                    alt=""
                    loading="lazy"
                    className="h-14 w-14 shrink-0 rounded-lg bg-white/10 object-cover"
                  />
                ) : (
                  <span className="h-14 w-14 shrink-0 overflow-hidden rounded-lg">
                    <ItemArt title={collection.title} type="post" />
                  </span>
                )}
                <div className="min-w-0 flex-1">
                  <Link
                    to={`/${artist.username}/collection/${collection._id}`}
                    className="block truncate text-base font-semibold text-white hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
                  >
                    {collection.title}
                  </Link>
                  <p className="text-sm text-white/70">
                    {collection.itemCount} {collection.itemCount === 1 ? 'item' : 'items'}
                  </p>
                </div>
                <Link
                  to={`/${artist.username}/account/collections/${collection._id}/edit`}
                  className="shrink-0 rounded-full border border-white/30 px-4 py-2 text-sm font-semibold text-white hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
                >
                  Edit<span className="sr-only"> {collection.title}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
        <Pager
          offset={offset}
          limit={COLLECTIONS_PAGE_SIZE}
          total={collections.total}
          hrefFor={(next) => `/${artist.username}/account/collections${next ? `?offset=${next}` : ''}`}
          label="Pages of your collections"
        />
      </section>
      <div className="mt-10">
        <ArtistStudioLinks artistUsername={artist.username} current="collections" />
      </div>
    </div>
  );
}
