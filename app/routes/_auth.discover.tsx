import { redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react';
import { ArtistCard, ArtistGrid } from '~/components/artist-card';
import { inputClassName } from '~/components/form-parts';
import type { ArtistResponse } from '#contract/users';
import { apiFor } from '~/utils/api.server';
import { fetchSubscriptions, requireUser } from '~/utils/auth.server';
import { mapArtist } from '~/utils/mappers';

export const meta: MetaFunction = () => [{ title: 'Discover artists | Stagedoor' }];

const PAGE_SIZE = 12;

function readSearch(request: Request) {
  const search = new URL(request.url).searchParams;
  const q = (search.get('q') ?? '').trim().slice(0, 100);
  const offset = Math.max(0, Math.floor(Number(search.get('offset')) || 0));
  return { q, offset: offset - (offset % PAGE_SIZE) };
}

/**
 * Discover: an artist goes to their own page, a fan with exactly one subscription to that artist's page;
 * everyone else sees their fan clubs and a search over all artists. The three calls run side by side.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { q, offset } = readSearch(args.request);
  const api = apiFor(args);
  if (!api.token) throw api.logoutRedirect();
  const [viewer, subscriptions, search] = await Promise.allSettled([
    requireUser(api),
    fetchSubscriptions(api),
    api.get<{ data: { data: ArtistResponse[]; total: number } }>('/performers/user/search', {
      params: { q: q || undefined, limit: PAGE_SIZE, offset },
    }),
  ]);
  // The guard's verdict comes first: a redirect to /logout wins over the errors it caused in the other calls.
  if (viewer.status === 'rejected') throw viewer.reason;
  const user = viewer.value;
  if (user.artist) throw redirect(`/${user.username}`);
  if (subscriptions.status === 'rejected') throw subscriptions.reason;
  if (subscriptions.value.length === 1) throw redirect(`/${subscriptions.value[0].artist.username}`);
  if (search.status === 'rejected') throw search.reason;

  return {
    subscriptions: subscriptions.value.map((s) => s.artist),
    results: search.value.data.data.map(mapArtist),
    total: search.value.data.total,
    q,
    offset,
  };
}

function pageHref(q: string, offset: number) {
  const search = new URLSearchParams();
  if (q) search.set('q', q);
  if (offset > 0) search.set('offset', String(offset));
  const query = search.toString();
  return `/discover${query ? `?${query}` : ''}#search-results`;
}

export default function Discover() {
  const { subscriptions, results, total, q, offset } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const searching = navigation.state === 'loading' && navigation.location.pathname === '/discover';
  const first = total === 0 ? 0 : offset + 1;
  const last = Math.min(offset + results.length, total);

  return (
    <div className="mx-auto max-w-6xl px-4 pb-20 pt-10 sm:px-6 sm:pt-14">
      <h1 className="text-3xl font-extrabold tracking-tight text-white sm:text-5xl">Discover</h1>
      <p className="mt-3 max-w-2xl text-lg text-white/80">Your fan clubs, and every artist on Stagedoor.</p>

      <section aria-labelledby="my-clubs" className="mt-12">
        <h2 id="my-clubs" className="text-2xl font-bold text-white">
          Your fan clubs
        </h2>
        {subscriptions.length ? (
          <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {subscriptions.map((artist) => (
              <li key={artist.id}>
                <ArtistCard artist={artist} to={`/${artist.username}`} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-4 rounded-2xl bg-navy-light p-6 text-lg text-white/80 ring-1 ring-white/10">
            You haven’t joined a fan club yet. Find your artist below.
          </p>
        )}
      </section>

      <section aria-labelledby="all-artists" className="mt-16">
        <h2 id="all-artists" className="text-2xl font-bold text-white">
          Find an artist
        </h2>
        <Form method="get" role="search" className="mt-6 flex max-w-xl gap-3" aria-label="Artists">
          <label htmlFor="discover-q" className="sr-only">
            Artist name
          </label>
          <input
            id="discover-q"
            name="q"
            type="search"
            defaultValue={q}
            placeholder="Search by artist name"
            maxLength={100}
            className={inputClassName(false)}
          />
          <button
            type="submit"
            className="shrink-0 rounded-full bg-accent px-6 py-2.5 text-base font-semibold text-navy hover:bg-accent-dark focus:outline-none focus-visible:ring-2 focus-visible:ring-white"
          >
            Search
          </button>
        </Form>

        <div id="search-results" className="scroll-mt-24" aria-busy={searching || undefined}>
          <p className="mt-6 text-base text-white/80" aria-live="polite">
            {total === 0
              ? q
                ? `No artists match “${q}”.`
                : 'No artists yet.'
              : `${q ? `Artists matching “${q}”` : 'All artists'}: ${first}–${last} of ${total}`}
          </p>
          {results.length ? <ArtistGrid artists={results} /> : null}
          {total > PAGE_SIZE ? (
            <nav aria-label="Search result pages" className="mt-8 flex items-center justify-between gap-4">
              {offset > 0 ? (
                <Link
                  to={pageHref(q, offset - PAGE_SIZE)}
                  className="rounded-full px-5 py-2.5 font-semibold text-white ring-1 ring-white/40 hover:ring-white"
                >
                  ← Previous
                </Link>
              ) : (
                <span />
              )}
              {offset + PAGE_SIZE < total ? (
                <Link
                  to={pageHref(q, offset + PAGE_SIZE)}
                  className="rounded-full px-5 py-2.5 font-semibold text-white ring-1 ring-white/40 hover:ring-white"
                >
                  Next →
                </Link>
              ) : null}
            </nav>
          ) : null}
        </div>
      </section>
    </div>
  );
}
