import type { ContentItem } from '#contract/content';
import { LARGE_WIDTH } from '#contract/image-sizes';
import { wideImageSources } from './content-card';
import { HlsVideo } from './hls-video';
import { ItemAudio } from './listening/item-audio';
import type { Marker } from './listening/waveform';
import { trackOf } from './player/bridge';

const HLS_TYPE = 'application/vnd.apple.mpegurl';

/**
 * An item's media on its page: a track (item-audio.tsx: the player in the layout, its waveform and comments'
 * markers), the browser's own video player on the signed link (the API answers Range requests, so playback starts at
 * once and seeking fetches only what it needs) or the picture.
 * preload="metadata" asks only for the duration until the fan presses play: kind to a slow phone. A picture is
 * shown at its display size (never the original upload), with a link to the original when that is larger.
 */
export function MediaPlayer({
  item,
  startAt = null,
  href,
  markers = [],
  captionsSrc,
}: {
  item: Pick<ContentItem, '_id' | 'title' | 'media' | 'thumbnail' | 'performer'>;
  /** The item's page: the mini-player's link back to it. */
  href: string;
  /** `?t=` on the page's address: the media fragment starts the browser's own player there, JavaScript or not. */
  startAt?: number | null;
  /** Comments on a moment, as markers on the waveform. */
  markers?: Marker[];
  /** The item's transcript as WebVTT, a video's captions. */
  captionsSrc?: string;
}) {
  const media = item.media;
  if (!media) return null;
  // Only the artist is shown an item whose file is not ready: where it stands, instead of a player.
  if (media.status !== 'ready') {
    return (
      <div className="rounded-2xl bg-navy-light p-6 text-base ring-1 ring-white/10" role="status">
        {media.status === 'processing' ? (
          <p className="text-white/85">
            <span className="font-semibold text-accent">Processing…</span> Your {media.kind} is being prepared to play in every fan’s
            browser. Fans will see this item as soon as it is ready.
          </p>
        ) : (
          <p className="text-red-200">
            <span className="font-semibold">This file could not be processed.</span> {media.failureReason} Fans will not see this item until
            you replace the file.
          </p>
        )}
      </div>
    );
  }
  const src = startAt ? `${media.url}#t=${startAt}` : media.url;
  const track = trackOf(item, href);
  if (track) {
    return (
      <div className="rounded-2xl bg-navy-light p-4 ring-1 ring-white/10 sm:p-6">
        {item.thumbnail ? (
          <img
            src={item.thumbnail.thumbnailUrl ?? item.thumbnail.url}
            width={item.thumbnail.width ?? undefined}
            height={item.thumbnail.height ?? undefined}
            alt=""
            className="mx-auto mb-4 aspect-square w-full max-w-xs rounded-xl object-cover"
          />
        ) : null}
        <ItemAudio media={media} title={item.title} track={track} startAt={startAt} markers={markers} />
      </div>
    );
  }
  if (media.kind === 'video') {
    const poster = item.thumbnail ? (item.thumbnail.largeUrl ?? item.thumbnail.url) : (media.poster ?? undefined);
    const shared = {
      id: 'player',
      'data-item-player': item._id,
      controls: true,
      playsInline: true,
      preload: 'metadata',
      poster,
      className: 'aspect-video w-full scroll-mt-24',
      'aria-label': `Play ${item.title}`,
    } as const;
    const captions = captionsSrc ? <track kind="captions" src={captionsSrc} srcLang="en" label="Captions" default /> : null;
    return (
      <div className="overflow-hidden rounded-2xl bg-black ring-1 ring-white/10">
        {media.mimeType === HLS_TYPE ? (
          <HlsVideo {...shared} preload="none" src={media.url} fallbackSrc={media.fallbackUrl} startAt={startAt} title={item.title}>
            {captions}
          </HlsVideo>
        ) : (
          <video {...shared} src={src}>
            {captions}
            <a href={media.url}>Download the video</a>
          </video>
        )}
      </div>
    );
  }
  return (
    <figure>
      <img
        {...wideImageSources(media)}
        width={media.width ?? undefined}
        height={media.height ?? undefined}
        alt={item.title}
        className="h-auto w-full rounded-2xl bg-navy-dark object-contain ring-1 ring-white/10"
      />
      {media.largeUrl && media.width && media.width > LARGE_WIDTH ? (
        <figcaption className="mt-2 text-right text-sm">
          <a href={media.url} className="font-semibold text-accent underline-offset-4 hover:underline">
            Open the full-size photo
            {media.width && media.height ? (
              <span className="font-normal text-white/75">
                {' '}
                ({media.width} × {media.height})
              </span>
            ) : null}
          </a>
        </figcaption>
      ) : null}
    </figure>
  );
}
