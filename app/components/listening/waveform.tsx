import { formatAt } from '#contract/listening';

export interface Marker {
  id: string;
  at: number;
  label: string;
  href: string;
}

/**
 * A track's waveform drawn from its peaks (0..1, from media processing) as SVG bars, the part played in the accent
 * colour; without peaks a plain progress bar. Comments on a moment are markers along it, each a link to that moment
 * (`?t=`), once the track's length is known. Drawn on the server too: without JavaScript it is a picture of the
 * track with its markers, above the browser's own player.
 */
export function Waveform({
  peaks,
  position,
  duration,
  markers,
  onSeekLink,
  children,
}: {
  peaks: number[] | null;
  position: number;
  duration: number;
  markers: Marker[];
  /** A marker's link pressed (with JavaScript): seek instead of loading the page. */
  onSeekLink?: (at: number) => boolean;
  /** What sits over the drawing: the seek slider, with JavaScript. */
  children?: React.ReactNode;
}) {
  const played = duration ? Math.min(1, position / duration) : 0;
  return (
    <div className="relative">
      {peaks?.length ? (
        <svg viewBox={`0 0 ${peaks.length} 100`} preserveAspectRatio="none" aria-hidden="true" className="h-20 w-full">
          <defs>
            <clipPath id="waveform-played">
              <rect x="0" y="0" width={played * peaks.length} height="100" />
            </clipPath>
          </defs>
          <Bars peaks={peaks} className="fill-white/30" />
          <g clipPath="url(#waveform-played)">
            <Bars peaks={peaks} className="fill-accent" />
          </g>
        </svg>
      ) : (
        <div aria-hidden="true" className="flex h-20 items-center">
          <div className="h-2 w-full overflow-hidden rounded-full bg-white/20">
            <div className="h-full bg-accent" style={{ width: `${played * 100}%` }} />
          </div>
        </div>
      )}
      {children}
      {duration
        ? markers
            .filter((marker) => marker.at <= duration)
            .map((marker) => (
              <a
                key={marker.id}
                href={marker.href}
                onClick={(event) => {
                  if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                  if (onSeekLink?.(marker.at)) event.preventDefault();
                }}
                aria-label={`Comment at ${formatAt(marker.at)}: ${marker.label}`}
                title={`${formatAt(marker.at)} ${marker.label}`}
                className="absolute -bottom-1 z-10 h-3 w-3 -translate-x-1/2 rounded-full bg-accent ring-2 ring-navy-light hover:scale-125 focus:outline-none focus-visible:ring-white"
                style={{ left: `${(marker.at / duration) * 100}%` }}
              />
            ))
        : null}
    </div>
  );
}

function Bars({ peaks, className }: { peaks: number[]; className: string }) {
  return (
    <g className={className}>
      {peaks.map((peak, index) => {
        const height = Math.max(2, Math.min(1, peak) * 100);
        return <rect key={index} x={index + 0.15} y={(100 - height) / 2} width={0.7} height={height} />;
      })}
    </g>
  );
}
