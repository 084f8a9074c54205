import type { ReactNode } from 'react';
import type { Artist } from '~/utils/mappers';

/**
 * The per-artist hero of the join landing. The hero image is content (it has alt text, and artists
 * often put their name or artwork in it), so it is shown whole beside the text, never under it; a blurred copy
 * tints the background in the artist's colours. The artwork shows once and the name once beside it (the artwork
 * often holds the name too): no avatar here, whose initials would say it again.
 */
export function ArtistHero({
  artist,
  eyebrow,
  children,
}: {
  artist: Pick<Artist, 'name' | 'heroImage' | 'heroImageAltText'>;
  eyebrow?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <section aria-labelledby="artist-hero-title" className="relative isolate overflow-hidden">
      <img src={artist.heroImage} alt="" className="absolute inset-0 -z-20 h-full w-full scale-110 object-cover opacity-30 blur-3xl" />
      <div className="absolute inset-0 -z-10 bg-gradient-to-b from-navy-dark/40 via-navy-dark/70 to-navy-dark" aria-hidden="true" />
      <div className="mx-auto grid max-w-6xl items-center gap-6 pb-12 sm:gap-10 sm:px-6 sm:pt-10 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.15fr)] lg:gap-14 lg:py-20">
        <div className="lg:order-2">
          <img
            src={artist.heroImage}
            alt={artist.heroImageAltText}
            className="aspect-video w-full object-cover shadow-2xl shadow-black/40 sm:rounded-3xl sm:ring-1 sm:ring-white/15"
          />
        </div>
        <div className="px-4 sm:px-0 lg:order-1">
          {eyebrow ? <p className="text-sm font-semibold uppercase tracking-widest text-accent">{eyebrow}</p> : null}
          <h1 id="artist-hero-title" className="mt-3 text-4xl font-extrabold leading-tight tracking-tight text-white sm:text-6xl">
            {artist.name}
          </h1>
          {children}
        </div>
      </div>
    </section>
  );
}
