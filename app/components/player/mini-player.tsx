import { Link } from '@remix-run/react';
import { useEffect } from 'react';
import { formatAt } from '#contract/listening';
import { controls, usePlayer } from './bridge';

const buttonClass =
  'inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-full text-white hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent';

/**
 * The mini-player at the foot of every page while something plays (loaded with the player, after the first press
 * of play): the artwork, the title (a link to the item), previous, play or pause, next, a seek slider with the time,
 * and close. Space plays or pauses when no control has the focus; the slider takes the arrow keys.
 */
export default function MiniPlayer() {
  const state = usePlayer();
  const track = state.queue[state.index];
  const player = controls();

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== ' ' || event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target as HTMLElement | null;
      if (target && target !== document.body && target.closest('a, button, input, textarea, select, audio, video, [contenteditable]'))
        return;
      event.preventDefault();
      controls()?.toggle();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  if (!track || !player) return null;
  const duration = state.duration || 0;
  const where = `${formatAt(state.position)} of ${duration ? formatAt(duration) : '…'}`;
  const hasNext = state.index + 1 < state.queue.length;
  return (
    <section
      aria-label="Player"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-white/15 bg-navy-dark/95 px-3 py-2 shadow-2xl backdrop-blur sm:px-6"
    >
      <div className="mx-auto flex max-w-6xl items-center gap-3">
        {track.artwork ? (
          <img src={track.artwork} alt="" width={44} height={44} className="h-11 w-11 shrink-0 rounded-lg object-cover" />
        ) : (
          <span aria-hidden="true" className="flex h-11 w-11 shrink-0 items-center justify-center rounded-lg bg-white/10 text-xl">
            ♪
          </span>
        )}
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-semibold text-white">
            <Link to={track.href} className="hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-accent">
              {track.title}
            </Link>
          </p>
          <p className="truncate text-xs text-white/70">
            {track.artistName}
            {state.queue.length > 1 ? ` · ${state.index + 1} of ${state.queue.length}` : ''}
          </p>
          <div className="mt-1 flex items-center gap-2">
            <input
              type="range"
              min={0}
              max={Math.max(duration, 1)}
              step={1}
              value={Math.min(state.position, duration || state.position)}
              onChange={(event) => player.seek(Number(event.target.value))}
              aria-label={`Seek in ${track.title}`}
              aria-valuetext={where}
              className="h-1 min-w-0 flex-1 accent-accent"
            />
            <span className="shrink-0 font-mono text-xs text-white/75" aria-hidden="true">
              {formatAt(state.position)} / {duration ? formatAt(duration) : '–:––'}
            </span>
          </div>
        </div>
        <div className="flex shrink-0 items-center">
          {state.queue.length > 1 ? (
            <button type="button" onClick={player.previous} aria-label="Previous track" className={`${buttonClass} hidden sm:inline-flex`}>
              <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="h-5 w-5">
                <path d="M5 4h2v12H5zM16 4v12L8 10z" />
              </svg>
            </button>
          ) : null}
          <button
            type="button"
            onClick={player.toggle}
            aria-label={`${state.playing ? 'Pause' : 'Play'} ${track.title}`}
            className={`${buttonClass} bg-accent text-navy hover:bg-accent/90`}
          >
            {state.playing ? (
              <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="h-5 w-5">
                <path d="M5 4h3v12H5zM12 4h3v12h-3z" />
              </svg>
            ) : (
              <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="h-5 w-5">
                <path d="M6 4v12l10-6z" />
              </svg>
            )}
          </button>
          {hasNext ? (
            <button type="button" onClick={player.next} aria-label="Next track" className={buttonClass}>
              <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="h-5 w-5">
                <path d="M13 4h2v12h-2zM4 4v12l8-6z" />
              </svg>
            </button>
          ) : null}
          <button type="button" onClick={player.close} aria-label="Close the player" className={buttonClass}>
            <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="h-4 w-4">
              <path d="M4.3 4.3a1 1 0 0 1 1.4 0L10 8.6l4.3-4.3a1 1 0 1 1 1.4 1.4L11.4 10l4.3 4.3a1 1 0 0 1-1.4 1.4L10 11.4l-4.3 4.3a1 1 0 0 1-1.4-1.4L8.6 10 4.3 5.7a1 1 0 0 1 0-1.4Z" />
            </svg>
          </button>
        </div>
      </div>
    </section>
  );
}
