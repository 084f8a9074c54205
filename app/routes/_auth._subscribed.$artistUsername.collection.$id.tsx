import { PlayAll } from '~/components/player/play-all';
import { SaveForOffline } from '~/components/offline/save-for-offline';
import { trackOf } from '~/components/player/bridge';
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { itemHref, Pager, VaultGrid } from '~/components/content-card';
import { FilterBar } from '~/components/filter-bar';
import { listSearch, readOffset, readOrigin, readVaultFilters, VAULT_PAGE_SIZE } from '~/utils/content-params';
import { CONTENT_TYPE_LABELS, VAULT_CATEGORIES, type ItemOrigin, type SortOrder } from '#contract/content-types';
import { apiFor } from '~/utils/api.server';
import { getCollection, toCardPage } from '~/utils/content.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.collection.title} | Stagedoor` : 'Collection | Stagedoor' },
];

/**
 * /{artist}/collection/{id}?from&filters&sort: a collection's header and its items, in the artist's
 * order until the fan picks Newest or Oldest, with the vault's category filters.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { request, params } = args;
  const artistUsername = params.artistUsername ?? '';
  const search = new URL(request.url).searchParams;
  const filters = readVaultFilters(search);
  const sortParam = search.get('sort');
  // No sort keeps the artist's order; asc and desc order by publish time.
  const sort: SortOrder | undefined = sortParam === 'asc' || sortParam === 'desc' ? sortParam : undefined;
  const offset = readOffset(search);
  const { items, types, ...collection } = await getCollection(apiFor(args), params.id ?? '', {
    types: filters,
    sort,
    offset,
    limit: VAULT_PAGE_SIZE,
  });
  const from = readOrigin(search);
  return {
    collection: { ...collection, items: toCardPage(items, { withExcerpt: false }) },
    // The page's tracks for "Play all", in the collection's order.
    tracks: items.data.flatMap((item) => trackOf(item, itemHref(artistUsername, item, from, collection._id)) ?? []),
    // Only the categories the collection holds (two demos do not need thirteen chips), and any the link chose.
    offered: VAULT_CATEGORIES.filter((category) => types.includes(category) || filters.includes(category)),
    artistUsername,
    filters,
    sort,
    offset,
    from,
  };
}

const BACK: Record<ItemOrigin, { path: string; label: string }> = {
  vault: { path: '/vault', label: 'Back to the vault' },
  home: { path: '', label: 'Back to home' },
  posts: { path: '/posts', label: 'Back to posts' },
  bookmarks: { path: '/account/bookmarks', label: 'Back to your bookmarks' },
};

export default function CollectionPage() {
  const { collection, tracks, offered, artistUsername, filters, sort, offset, from } = useLoaderData<typeof loader>();
  const back = BACK[from ?? 'vault'];
  const basePath = `/${artistUsername}/collection/${collection._id}`;
  const extra = { from };
  return (
    <div className="mx-auto w-full max-w-6xl px-4 pb-20 pt-6 sm:px-6 sm:pt-10">
      <Link
        to={`/${artistUsername}${back.path}`}
        className="-ml-2 inline-flex items-center gap-1.5 rounded-full px-2 py-1.5 text-base font-semibold text-accent hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
      >
        <span aria-hidden="true">‹</span> {back.label}
      </Link>
      <header className="mt-4 flex flex-col gap-5 sm:flex-row sm:items-end">
        {collection.cover ? (
          <img
            src={collection.cover.thumbnailUrl ?? collection.cover.url}
            width={collection.cover.width ?? undefined}
            height={collection.cover.height ?? undefined}
            alt=""
            className="h-36 w-36 shrink-0 rounded-2xl object-cover ring-1 ring-white/10 sm:h-44 sm:w-44"
          />
        ) : null}
        <div className="min-w-0">
          <p className="text-sm font-semibold uppercase tracking-widest text-accent">Collection</p>
          <h1 className="mt-1 break-words text-3xl font-extrabold tracking-tight text-white sm:text-5xl">{collection.title}</h1>
          <p className="mt-2 text-base text-white/80">
            {collection.items.total} {collection.items.total === 1 ? 'item' : 'items'}
          </p>
        </div>
      </header>
      {collection.description ? (
        <p className="mt-5 max-w-3xl whitespace-pre-line text-lg leading-relaxed text-white/85">{collection.description}</p>
      ) : null}

      <div className="mt-6 flex flex-wrap items-start gap-3">
        <PlayAll tracks={tracks} />
        <SaveForOffline tracks={tracks} />
      </div>
      <div className="mt-8">
        <FilterBar
          basePath={basePath}
          all={offered}
          labels={CONTENT_TYPE_LABELS}
          state={{ filters, sort }}
          extra={extra}
          label="Categories"
          defaultSort={null}
          ownOrderLabel="Artist’s order"
        />
      </div>
      <section aria-labelledby="collection-items-title" className="mt-8">
        <h2 id="collection-items-title" className="sr-only">
          Items in this collection
        </h2>
        <VaultGrid
          artistUsername={artistUsername}
          items={collection.items.data}
          from={from ?? 'vault'}
          collectionId={collection._id}
          empty={filters.length ? 'Nothing in these categories here. Try another filter.' : 'This collection is empty for now.'}
        />
        <Pager
          offset={offset}
          limit={VAULT_PAGE_SIZE}
          total={collection.items.total}
          label="Collection pages"
          hrefFor={(next) => `${basePath}${listSearch({ filters, sort, offset: next }, VAULT_CATEGORIES, extra, null)}`}
        />
      </section>
    </div>
  );
}
