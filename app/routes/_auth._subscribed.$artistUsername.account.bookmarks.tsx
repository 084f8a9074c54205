import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData, useRouteLoaderData } from '@remix-run/react';
import { Pager, VaultGrid } from '~/components/content-card';
import { ArtistNav } from '~/components/artist-nav';
import { FilterBar } from '~/components/filter-bar';
import { listSearch, readBookmarkFilters, readOffset, readSort, VAULT_PAGE_SIZE } from '~/utils/content-params';
import { BOOKMARK_FILTER_LABELS, BOOKMARK_FILTERS, typesForBookmarkFilters } from '#contract/content-types';
import { apiFor } from '~/utils/api.server';
import { listBookmarks, toCardPage } from '~/utils/content.server';
import type { loader as subscribedLoader } from './_auth._subscribed';

const LAYOUT_ID = 'routes/_auth._subscribed';

export const meta: MetaFunction<null, { [LAYOUT_ID]: typeof subscribedLoader }> = ({ matches }) => {
  const artist = matches.find((match) => match.id === LAYOUT_ID)?.data?.artist;
  return [{ title: artist ? `Your bookmarks · ${artist.name} | Stagedoor` : 'Your bookmarks | Stagedoor' }];
};

/**
 * /{artist}/account/bookmarks: what the fan bookmarked of this artist, most recently bookmarked first
 * (Oldest turns that round), with the vault's categories and the posts page's filters (BOOKMARK_FILTERS).
 */
export async function loader(args: LoaderFunctionArgs) {
  const search = new URL(args.request.url).searchParams;
  const filters = readBookmarkFilters(search);
  const sort = readSort(search);
  const offset = readOffset(search);
  const items = await listBookmarks(apiFor(args), args.params.artistUsername ?? '', {
    types: typesForBookmarkFilters(filters),
    sort,
    offset,
    limit: VAULT_PAGE_SIZE,
  });
  return { items: toCardPage(items, { withExcerpt: false }), filters, sort, offset };
}

export default function Bookmarks() {
  const { items, filters, sort, offset } = useLoaderData<typeof loader>();
  const layout = useRouteLoaderData<typeof subscribedLoader>(LAYOUT_ID);
  if (!layout) return null;
  const { artist } = layout;
  const basePath = `/${artist.username}/account/bookmarks`;
  return (
    <div className="mx-auto w-full max-w-6xl px-4 pb-20 pt-8 sm:px-6 sm:pt-12">
      <ArtistNav artistUsername={artist.username} current="bookmarks" className="!mt-0 !px-0" />
      <p className="mt-8 text-sm font-semibold uppercase tracking-widest text-accent">{artist.name}</p>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-white sm:text-5xl">Your bookmarks</h1>
      <p className="mt-4 max-w-3xl text-lg text-white/85">What you saved from {artist.name}, the latest first.</p>
      <div className="mt-8">
        <FilterBar
          basePath={basePath}
          all={BOOKMARK_FILTERS}
          labels={BOOKMARK_FILTER_LABELS}
          state={{ filters, sort }}
          label="Categories"
        />
      </div>
      <section aria-labelledby="bookmarks-title" className="mt-8">
        <h2 id="bookmarks-title" className="sr-only">
          Bookmarked items
        </h2>
        <VaultGrid
          artistUsername={artist.username}
          items={items.data}
          from="bookmarks"
          empty={
            filters.length
              ? 'No bookmarks in these categories. Try another filter.'
              : 'No bookmarks yet. Use Bookmark on any item to find it here again.'
          }
        />
        <Pager
          offset={offset}
          limit={VAULT_PAGE_SIZE}
          total={items.total}
          label="Bookmark pages"
          hrefFor={(next) => `${basePath}${listSearch({ filters, sort, offset: next }, BOOKMARK_FILTERS)}`}
        />
      </section>
    </div>
  );
}
