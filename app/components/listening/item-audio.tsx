import { useEffect } from 'react';
import { formatAt } from '#contract/listening';
import type { Media } from '#contract/content';
import { controls, playQueue, usePlayer } from '../player/bridge';
import type { Track } from '../player/bridge';
import { useHydrated } from '../use-hydrated';
import { offerTrack, seekTo } from './playhead';
import { Waveform, type Marker } from './waveform';

/**
 * An item's track on its page. Without JavaScript: its waveform (with the comments' markers) above the browser's own
 * player, which `?t=` starts at a moment. With JavaScript the track plays in the player in the layout, so it keeps
 * playing while the fan browses: a play button, the waveform as the seek bar (a slider for the keyboard and screen
 * readers) and the time; `?t=` is where the first press of play starts.
 */
export function ItemAudio({
  media,
  title,
  track,
  startAt,
  markers,
}: {
  media: Media;
  title: string;
  track: Track;
  startAt: number | null;
  markers: Marker[];
}) {
  const hydrated = useHydrated();
  const player = usePlayer();
  const mine = player.queue[player.index]?.itemId === track.itemId;
  useEffect(() => offerTrack(track), [track]);
  // A bar stands in while the media has no peaks (uploaded before media processing measured them).
  const peaks = media.peaks;
  const duration = mine && player.duration ? player.duration : (media.duration ?? 0);
  const position = mine ? player.position : (startAt ?? 0);
  const src = startAt ? `${media.url}#t=${startAt}` : media.url;

  if (!hydrated) {
    return (
      <div className="space-y-3">
        <Waveform peaks={peaks} position={0} duration={duration} markers={markers} />
        <audio
          id="player"
          data-item-player={track.itemId}
          controls
          preload="metadata"
          src={src}
          className="w-full scroll-mt-24"
          aria-label={`Play ${title}`}
        >
          <a href={media.url}>Download the audio</a>
        </audio>
      </div>
    );
  }

  const press = () => {
    if (mine) controls()?.toggle();
    else void playQueue([track], 0, startAt ?? undefined);
  };
  const playing = mine && player.playing;
  return (
    <div id="player" className="flex scroll-mt-24 items-center gap-4">
      <button
        type="button"
        onClick={press}
        aria-label={`${playing ? 'Pause' : 'Play'} ${title}`}
        className="inline-flex h-14 w-14 shrink-0 items-center justify-center rounded-full bg-accent text-navy hover:bg-accent/90 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent focus-visible:ring-offset-2 focus-visible:ring-offset-navy"
      >
        <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="h-6 w-6">
          {playing ? <path d="M5 4h3v12H5zM12 4h3v12h-3z" /> : <path d="M6 4v12l10-6z" />}
        </svg>
      </button>
      <div className="min-w-0 flex-1">
        <Waveform peaks={peaks} position={position} duration={duration} markers={markers} onSeekLink={(at) => seekTo(track.itemId, at)}>
          <input
            type="range"
            min={0}
            max={Math.max(duration, 1)}
            step={1}
            value={Math.min(position, duration || position)}
            onChange={(event) => seekTo(track.itemId, Number(event.target.value))}
            aria-label={`Seek in ${title}`}
            aria-valuetext={`${formatAt(position)} of ${duration ? formatAt(duration) : 'unknown length'}`}
            className="absolute inset-0 h-full w-full cursor-pointer opacity-0"
          />
        </Waveform>
        <p className="mt-1 flex justify-between font-mono text-xs text-white/75">
          <span>{formatAt(position)}</span>
          <span>{duration ? formatAt(duration) : '–:––'}</span>
        </p>
      </div>
    </div>
  );
}
