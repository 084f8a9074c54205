import { useEffect, useRef, type ReactNode, type VideoHTMLAttributes } from 'react';

const HLS_TYPE = 'application/vnd.apple.mpegurl';

/**
 * A video served as HLS (docs/media.md): Safari and iOS play the playlist themselves (the `<source>`, JavaScript or
 * not); other browsers get hls.js, loaded only here and only once the page runs, so pages without a video never
 * download it. The playlist's link is signed for the viewer and short-lived, so nothing is fetched before play
 * (preload="none").
 */
export function HlsVideo({
  src,
  startAt,
  children,
  ...video
}: VideoHTMLAttributes<HTMLVideoElement> & { src: string; startAt?: number | null; children?: ReactNode } & Record<
    `data-${string}`,
    string
  >) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const element = ref.current;
    // Safari plays HLS itself (the reference player, and on an iPhone the only one). Chromium's own HLS player is new:
    // hls.js there and in Firefox gives every other browser the same behaviour.
    if (!element || (element.canPlayType(HLS_TYPE) && !('chrome' in window))) return;
    let cancelled = false;
    let destroy: (() => void) | undefined;
    void import('hls.js').then(({ default: Hls }) => {
      if (cancelled || !Hls.isSupported()) return;
      const hls = new Hls({ startPosition: startAt ?? -1 });
      hls.loadSource(src);
      hls.attachMedia(element);
      destroy = () => hls.destroy();
    });
    return () => {
      cancelled = true;
      destroy?.();
    };
  }, [src, startAt]);
  return (
    <video ref={ref} {...video}>
      <source src={startAt ? `${src}#t=${startAt}` : src} type={HLS_TYPE} />
      {children}
    </video>
  );
}
