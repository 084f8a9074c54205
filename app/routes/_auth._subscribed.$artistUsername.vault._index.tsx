import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData, useRouteLoaderData } from '@remix-run/react';
import { itemHref, Pager, VaultGrid } from '~/components/content-card';
import { PlayAll } from '~/components/player/play-all';
import { trackOf } from '~/components/player/bridge';
import { CollectionList } from '~/components/collection-list';
import { ArtistNav } from '~/components/artist-nav';
import { listSearch, readOffset, readSearch, readSort, readVaultFilters, VAULT_PAGE_SIZE } from '~/utils/content-params';
import { KeptNotice } from '~/components/kept-notice';
import { SearchAndFilters } from '~/components/search-box';
import { isHttpError } from '~/utils/api.server';
import { CONTENT_TYPE_LABELS, VAULT_CATEGORIES } from '#contract/content-types';
import { apiFor } from '~/utils/api.server';
import { listCollections, listContent, toCardPage } from '~/utils/content.server';
import type { loader as subscribedLoader } from './_auth._subscribed';

const LAYOUT_ID = 'routes/_auth._subscribed';

export const meta: MetaFunction<null, { [LAYOUT_ID]: typeof subscribedLoader }> = ({ matches }) => {
  const artist = matches.find((match) => match.id === LAYOUT_ID)?.data?.artist;
  return [{ title: artist ? `Vault · ${artist.name} | Stagedoor` : 'Vault | Stagedoor' }];
};

/**
 * /{artist}/vault?filters=<vault categories>&sort=asc|desc&q=<words>: the vault grid with category
 * filters and sort as links, a search (title, caption, transcript) that keeps them, paged by offset, and the artist's
 * collections. The items and the collections load side by side. A lapsed member sees what they keep.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const artistUsername = args.params.artistUsername ?? '';
  const search = new URL(args.request.url).searchParams;
  const filters = readVaultFilters(search);
  const sort = readSort(search);
  const offset = readOffset(search);
  const q = readSearch(search);
  const [items, collections] = await Promise.all([
    listContent(api, artistUsername, { section: 'vault', types: filters, sort, offset, limit: VAULT_PAGE_SIZE, q }),
    // Collections are for members: a lapsed member who keeps items sees the vault without them (decision 014).
    listCollections(api, artistUsername, 12, [403]).catch((error: unknown) => {
      if (isHttpError(error, 403)) return null;
      throw error;
    }),
  ]);
  // The page's tracks for "Play all", in the page's order.
  const tracks = items.data.flatMap((item) => trackOf(item, itemHref(artistUsername, item, 'vault')) ?? []);
  return { items: toCardPage(items, { withExcerpt: false }), tracks, collections, filters, sort, offset, q };
}

export default function Vault() {
  const { items, tracks, collections, filters, sort, offset, q } = useLoaderData<typeof loader>();
  const layout = useRouteLoaderData<typeof subscribedLoader>(LAYOUT_ID);
  if (!layout) return null;
  const { artist, kept } = layout;
  const basePath = `/${artist.username}/vault`;
  const extra = { q: q || undefined };
  return (
    <div className="mx-auto w-full max-w-6xl px-4 pb-20 pt-8 sm:px-6 sm:pt-12">
      <ArtistNav artistUsername={artist.username} current="vault" className="!mt-0 !px-0" />
      <p className="mt-8 text-sm font-semibold uppercase tracking-widest text-accent">{artist.name}</p>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-white sm:text-5xl">Vault</h1>
      {artist.vaultPageIntroduction ? (
        <p className="mt-4 max-w-3xl text-lg leading-relaxed text-white/85">{artist.vaultPageIntroduction}</p>
      ) : null}

      {kept ? <KeptNotice artistUsername={artist.username} until={kept.until} /> : null}

      <SearchAndFilters
        basePath={basePath}
        q={q}
        total={items.total}
        state={{ filters, sort }}
        all={VAULT_CATEGORIES}
        labels={CONTENT_TYPE_LABELS}
        extra={extra}
        searchLabel="Search the vault"
        filterLabel="Categories"
      />

      <section aria-labelledby="vault-items-title" className="mt-8">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <h2 id="vault-items-title" className={kept ? 'text-2xl font-bold text-white' : 'sr-only'}>
            {kept ? 'From your membership' : 'Vault items'}
          </h2>
          <PlayAll tracks={tracks} />
        </div>
        <VaultGrid
          artistUsername={artist.username}
          items={items.data}
          from="vault"
          empty={
            q
              ? 'Nothing matches your search. Try other words.'
              : filters.length
                ? 'Nothing in these categories yet. Try another filter.'
                : 'The vault is empty for now.'
          }
        />
        <Pager
          offset={offset}
          limit={VAULT_PAGE_SIZE}
          total={items.total}
          label="Vault pages"
          hrefFor={(next) => `${basePath}${listSearch({ filters, sort, offset: next }, VAULT_CATEGORIES, extra)}`}
        />
      </section>

      {collections?.data.length ? (
        <section aria-labelledby="collections-title" className="mt-14">
          <h2 id="collections-title" className="text-2xl font-bold text-white">
            Collections
          </h2>
          <CollectionList artistUsername={artist.username} collections={collections.data} from="vault" />
        </section>
      ) : null}
    </div>
  );
}
