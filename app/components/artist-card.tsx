import { Link } from '@remix-run/react';
import { yearlyPricePhrase, type Artist } from '~/utils/mappers';
import { publicSubscriberCount } from '~/utils/subscriber-count';

export type ArtistCardData = Pick<
  Artist,
  'username' | 'name' | 'avatarUrl' | 'headlineImage' | 'subscribers' | 'yearlyPrice' | 'currency' | 'subscribed'
>;

/**
 * An artist in a list (landing, discover): headline image, avatar, name, subscribers and price. The whole card
 * is one link, named by the artist; the rest is description.
 */
export function ArtistCard({ artist, to, headingLevel = 'h3' }: { artist: ArtistCardData; to: string; headingLevel?: 'h2' | 'h3' }) {
  const Heading = headingLevel;
  return (
    <article className="group relative flex flex-col overflow-hidden rounded-2xl bg-navy-light ring-1 ring-white/10 transition hover:ring-accent/70 focus-within:ring-2 focus-within:ring-accent">
      <div className="relative aspect-[16/10] overflow-hidden bg-navy-dark">
        <img
          src={artist.headlineImage}
          alt=""
          loading="lazy"
          className="h-full w-full object-cover transition duration-300 group-hover:scale-105"
        />
        <div className="absolute inset-0 bg-gradient-to-t from-navy-light via-navy-light/10 to-transparent" aria-hidden="true" />
        {artist.subscribed ? (
          <span className="absolute left-3 top-3 rounded-full bg-accent px-2.5 py-1 text-xs font-bold uppercase tracking-wide text-navy">
            Member
          </span>
        ) : null}
      </div>
      <div className="relative -mt-8 flex flex-1 items-end gap-3 px-4 pb-4">
        <img src={artist.avatarUrl} alt="" loading="lazy" className="h-14 w-14 shrink-0 rounded-full object-cover ring-4 ring-navy-light" />
        <div className="min-w-0 flex-1">
          <Heading className="truncate text-lg font-bold text-white">
            <Link to={to} prefetch="intent" className="after:absolute after:inset-0 focus:outline-none">
              {artist.name}
            </Link>
          </Heading>
          <p className="truncate text-sm text-white/75">
            {[publicSubscriberCount(artist.subscribers), yearlyPricePhrase(artist)].filter(Boolean).join(' · ')}
          </p>
        </div>
      </div>
    </article>
  );
}

/** A grid of artist cards: subscribed artists link to their page, the others to their join page. */
export function ArtistGrid({ artists, className = 'mt-6' }: { artists: ArtistCardData[]; className?: string }) {
  return (
    <ul className={`${className} grid gap-6 sm:grid-cols-2 lg:grid-cols-3`}>
      {artists.map((artist) => (
        <li key={artist.username}>
          <ArtistCard artist={artist} to={artist.subscribed ? `/${artist.username}` : `/${artist.username}/join`} />
        </li>
      ))}
    </ul>
  );
}
