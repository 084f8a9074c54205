import type { ReactNode } from 'react';
import { publicSubscriberCount, type Artist } from '~/utils/mappers';

/**
 * The top of an artist's pages (spec §2 artist home): the cover across the page, the avatar overlapping it, the
 * artist's name as the page's h1, the subscriber count and the bio. Without a cover the hero image stands in.
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
      <div className="relative aspect-[16/5] max-h-[26rem] min-h-[9rem] w-full overflow-hidden bg-navy-dark">
        <img src={artist.coverUrl ?? artist.heroImage} alt="" className="h-full w-full object-cover" />
        <div className="absolute inset-0 bg-gradient-to-t from-navy via-navy/30 to-transparent" aria-hidden="true" />
      </div>
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="-mt-14 flex flex-col gap-4 sm:-mt-20 sm:flex-row sm:items-end sm:gap-6">
          <img
            src={artist.avatarUrl}
            alt=""
            className="relative h-28 w-28 shrink-0 rounded-full object-cover ring-4 ring-navy sm:h-40 sm:w-40"
          />
          <div className="relative min-w-0 pb-1">
            {badge}
            <h1 className="break-words text-3xl font-extrabold tracking-tight text-white sm:text-5xl">{artist.name}</h1>
            <p className="mt-1 text-base text-white/80 sm:text-lg">
              {[`@${artist.username}`, publicSubscriberCount(artist.subscribers)].filter(Boolean).join(' · ')}
            </p>
          </div>
          {actions ? <div className="relative flex flex-wrap gap-3 pb-1 sm:ml-auto">{actions}</div> : null}
        </div>
        {artist.bio ? <p className="mt-6 max-w-3xl whitespace-pre-line text-lg leading-relaxed text-white/85">{artist.bio}</p> : null}
      </div>
    </header>
  );
}
