import { useEffect, useRef, useState, type ReactNode, type VideoHTMLAttributes } from 'react';
import { useHydrated } from './use-hydrated';

const HLS_TYPE = 'application/vnd.apple.mpegurl';

/** Safari plays HLS itself (the reference player, and on an iPhone the only one). */
function playsHlsNatively(element: HTMLVideoElement) {
  // Chromium's own HLS player is new: hls.js there and in Firefox gives every other browser one behaviour.
  return Boolean(element.canPlayType(HLS_TYPE)) && !('chrome' in window);
}

/**
 * A video served as HLS (docs/media.md). Safari plays the playlist itself (the `<source>`, JavaScript or not). Other
 * browsers get hls.js, loaded when the fan presses play (about 150 KB: a fan who only reads the caption never
 * downloads it, and no page without a video ever does). With JavaScript off they play the second `<source>`, one
 * rung of the ladder as a progressive MP4 (`fallbackSrc`). The links are signed for the viewer and short-lived, so
 * nothing is fetched before play (preload="none").
 */
export function HlsVideo({
  src,
  fallbackSrc,
  startAt,
  title,
  children,
  ...video
}: VideoHTMLAttributes<HTMLVideoElement> & {
  src: string;
  fallbackSrc?: string | null;
  title: string;
  startAt?: number | null;
  children?: ReactNode;
} & Record<`data-${string}`, string>) {
  const ref = useRef<HTMLVideoElement>(null);
  const hydrated = useHydrated();
  const [needsPlayer, setNeedsPlayer] = useState(false);
  const [loading, setLoading] = useState(false);
  const destroy = useRef<(() => void) | null>(null);

  useEffect(() => {
    if (ref.current && !playsHlsNatively(ref.current)) setNeedsPlayer(true);
    return () => destroy.current?.();
  }, [src]);

  async function play() {
    const element = ref.current;
    if (!element) return;
    setLoading(true);
    const { default: Hls } = await import('hls.js');
    if (!Hls.isSupported()) return setLoading(false);
    const hls = new Hls({ startPosition: startAt ?? -1 });
    hls.loadSource(src);
    hls.attachMedia(element);
    destroy.current = () => hls.destroy();
    setNeedsPlayer(false);
    setLoading(false);
    await element.play().catch(() => undefined);
  }

  return (
    <div className="relative">
      <video ref={ref} {...video}>
        <source src={startAt ? `${src}#t=${startAt}` : src} type={HLS_TYPE} />
        {fallbackSrc ? <source src={startAt ? `${fallbackSrc}#t=${startAt}` : fallbackSrc} type="video/mp4" /> : null}
        {children}
      </video>
      {hydrated && needsPlayer ? (
        <button
          type="button"
          onClick={() => void play()}
          disabled={loading}
          className="absolute inset-0 flex items-center justify-center bg-black/30 focus:outline-none focus-visible:ring-4 focus-visible:ring-inset focus-visible:ring-accent"
        >
          <span className="flex items-center gap-2 rounded-full bg-accent px-5 py-3 text-base font-bold text-navy shadow-lg">
            <svg viewBox="0 0 24 24" aria-hidden="true" className="h-5 w-5" fill="currentColor">
              <path d="M8 5v14l11-7z" />
            </svg>
            {loading ? 'Loading…' : 'Play'}
            <span className="sr-only"> {title}</span>
          </span>
        </button>
      ) : null}
    </div>
  );
}
