import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData, useRouteLoaderData } from '@remix-run/react';
import { EmptyNote, Pager, PostCard } from '~/components/content-card';
import { ArtistNav } from '~/components/artist-nav';
import { PollCard } from '~/components/poll-card';
import { listSearch, readOffset, readPostsFilters, readSearch, readSort, FEED_PAGE_SIZE } from '~/utils/content-params';
import { SearchAndFilters } from '~/components/search-box';
import { POSTS_FILTERS, typesForPostsFilters, type PostsFilter } from '#contract/content-types';
import { apiFor } from '~/utils/api.server';
import { pollErrors } from '~/utils/content-action';
import { contentAction } from '~/utils/content-action.server';
import { listContent, toCardPage } from '~/utils/content.server';
import type { loader as subscribedLoader } from './_auth._subscribed';

const LAYOUT_ID = 'routes/_auth._subscribed';

export const meta: MetaFunction<null, { [LAYOUT_ID]: typeof subscribedLoader }> = ({ matches }) => {
  const artist = matches.find((match) => match.id === LAYOUT_ID)?.data?.artist;
  return [{ title: artist ? `Posts · ${artist.name} | Stagedoor` : 'Posts | Stagedoor' }];
};

/** The posts filters are shown as they are written in the link. */
const FILTER_LABELS = Object.fromEntries(POSTS_FILTERS.map((filter) => [filter, filter])) as Record<PostsFilter, string>;

/**
 * /{artist}/posts?filters=Post|Poll|Tour Diary|Ticket Presale|Announcement&sort: the artist's
 * postsPageIntroduction and the feed of posts, each with its picture and first lines; a poll can be answered in
 * the feed itself (this page's action takes the vote and comes back here).
 */
export async function loader(args: LoaderFunctionArgs) {
  const search = new URL(args.request.url).searchParams;
  const filters = readPostsFilters(search);
  const sort = readSort(search);
  const offset = readOffset(search);
  const q = readSearch(search);
  const items = await listContent(apiFor(args), args.params.artistUsername ?? '', {
    types: typesForPostsFilters(filters),
    sort,
    offset,
    limit: FEED_PAGE_SIZE,
    q,
  });
  return { items: toCardPage(items, { withExcerpt: true }), filters, sort, offset, q };
}

export const action = contentAction;

export default function Posts() {
  const { items, filters, sort, offset, q } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const layout = useRouteLoaderData<typeof subscribedLoader>(LAYOUT_ID);
  if (!layout) return null;
  const { artist } = layout;
  const basePath = `/${artist.username}/posts`;
  const extra = { q: q || undefined };
  return (
    <div className="mx-auto w-full max-w-3xl px-4 pb-20 pt-8 sm:px-6 sm:pt-12">
      <ArtistNav artistUsername={artist.username} current="posts" className="!mt-0 !px-0" />
      <p className="mt-8 text-sm font-semibold uppercase tracking-widest text-accent">{artist.name}</p>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-white sm:text-5xl">Posts</h1>
      {artist.postsPageIntroduction ? <p className="mt-4 text-lg leading-relaxed text-white/85">{artist.postsPageIntroduction}</p> : null}
      <SearchAndFilters
        basePath={basePath}
        q={q}
        total={items.total}
        state={{ filters, sort }}
        all={POSTS_FILTERS}
        labels={FILTER_LABELS}
        extra={extra}
        searchLabel="Search the posts"
        filterLabel="Post types"
      />
      <section aria-labelledby="feed-title" className="mt-8">
        <h2 id="feed-title" className="sr-only">
          Posts
        </h2>
        {items.data.length ? (
          <div className="space-y-6">
            {items.data.map((item) => (
              <PostCard key={item._id} artistUsername={artist.username} item={item} from="posts">
                {item.poll ? <PollCard poll={item.poll} itemId={item._id} errors={pollErrors(result, item.poll._id)} /> : null}
              </PostCard>
            ))}
          </div>
        ) : (
          <EmptyNote>
            {q
              ? 'Nothing matches your search. Try other words.'
              : filters.length
                ? 'No posts of these kinds yet. Try another filter.'
                : 'No posts yet.'}
          </EmptyNote>
        )}
        <Pager
          offset={offset}
          limit={FEED_PAGE_SIZE}
          total={items.total}
          label="Post pages"
          hrefFor={(next) => `${basePath}${listSearch({ filters, sort, offset: next }, POSTS_FILTERS, extra)}`}
        />
      </section>
    </div>
  );
}
