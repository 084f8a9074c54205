import { playQueue, type Track } from './bridge';
import { useHydrated } from '../use-hydrated';

/**
 * "Play all": the tracks of a list (the vault as filtered, a collection) queued in the player in the layout, in the
 * list's order. It needs JavaScript (each item page plays on its own without), so it shows once the page runs it.
 */
export function PlayAll({ tracks, className = '' }: { tracks: Track[]; className?: string }) {
  const hydrated = useHydrated();
  if (!hydrated || tracks.length === 0) return null;
  return (
    <button
      type="button"
      onClick={() => void playQueue(tracks, 0)}
      className={`inline-flex items-center gap-2 rounded-full bg-accent px-5 py-2 text-base font-bold text-navy hover:bg-accent/90 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent focus-visible:ring-offset-2 focus-visible:ring-offset-navy ${className}`}
    >
      <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="h-5 w-5">
        <path d="M6 4v12l10-6z" />
      </svg>
      Play all ({tracks.length} {tracks.length === 1 ? 'track' : 'tracks'})
    </button>
  );
}
