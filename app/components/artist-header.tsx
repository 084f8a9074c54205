import type { ReactNode } from 'react';
import type { Artist } from '~/utils/mappers';
import { publicSubscriberCount } from '~/utils/subscriber-count';

/**
 * The top of an artist's pages: the cover across the page, then the avatar beside the artist's
 * name as the page's h1, the subscriber count (once the club is no longer small) and the bio. Without a cover the hero
 * image stands in. The cover keeps its own shape at every width and nothing overlaps it: artists put their
 * name or artwork in it, which a cropped edge or an avatar on top would cut into stray letters.
 */
export function ArtistHeader({
  artist,
  badge,
  actions,
}: {
  artist: Pick<Artist, 'name' | 'username' | 'avatarUrl' | 'coverUrl' | 'heroImage' | 'bio' | 'subscribers'>;
  badge?: ReactNode;
  /** Buttons beside the name (the fan's "Message" button on the artist home). */
  actions?: ReactNode;
}) {
  return (
    <header className="relative">
      <div className="relative aspect-[16/5] max-h-[26rem] w-full overflow-hidden bg-navy-dark">
        <img src={artist.coverUrl ?? artist.heroImage} alt="" className="h-full w-full object-cover" />
      </div>
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mt-5 flex flex-wrap items-center gap-4 sm:mt-8 sm:gap-6">
          <img
            src={artist.avatarUrl}
            alt=""
            className="h-16 w-16 shrink-0 rounded-full object-cover ring-2 ring-white/15 sm:h-28 sm:w-28"
          />
          <div className="relative min-w-0 flex-1 pb-1">
            {badge}
            <h1 className="break-words text-3xl font-extrabold tracking-tight text-white sm:text-5xl">{artist.name}</h1>
            <p className="mt-1 text-base text-white/80 sm:text-lg">
              {[`@${artist.username}`, publicSubscriberCount(artist.subscribers)].filter(Boolean).join(' · ')}
            </p>
          </div>
          {actions ? <div className="relative flex w-full flex-wrap gap-3 pb-1 sm:ml-auto sm:w-auto">{actions}</div> : null}
        </div>
        {artist.bio ? <p className="mt-6 max-w-3xl whitespace-pre-line text-lg leading-relaxed text-white/85">{artist.bio}</p> : null}
      </div>
    </header>
  );
}
