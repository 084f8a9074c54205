import { randomUUID } from 'node:crypto';
import type { Media, MediaStatus } from '#contract/content';
import type { MediaKind } from '#contract/content-types';
import { one, type Queryable } from '../db/client.js';
import type { MediaStorage } from '../storage/storage.js';
import type { ImageVariants } from './images.js';
import { keptCondition, VISIBLE } from '../content/access.js';
import type { KeptPeriod } from '../subscriptions/kept.js';
import { watchingLifeSeconds, type MediaAudience, type MediaSigner, type MediaVariant } from './signing.js';

export interface MediaRow {
  id: string;
  ownerId: string;
  kind: MediaKind;
  storageKey: string;
  mime: string;
  size: number;
  duration: number | null;
  width: number | null;
  height: number | null;
  thumbKey: string | null;
  thumbMime: string | null;
  thumbSize: number | null;
  /** The 1280 px WebP display size of an image wider than its thumbnail (api/media/images.ts). */
  largeKey: string | null;
  largeSize: number | null;
  status: MediaStatus;
  failureReason: string | null;
  /** Audio and video once processed: the waveform (api/media/processing.ts). */
  peaks: number[] | null;
  /** What fans are served once processed: the AAC stream of audio; the HLS ladder's folder of a video. */
  streamKey: string | null;
  streamMime: string | null;
  streamSize: number | null;
  posterKey: string | null;
  posterSize: number | null;
  originalName: string;
  createdAt: Date;
}

export const MEDIA_COLUMNS = `m.id, m.owner_id AS "ownerId", m.kind, m.storage_key AS "storageKey", m.mime,
  m.size::float8 AS size, m.duration, m.width, m.height, m.thumb_key AS "thumbKey", m.thumb_mime AS "thumbMime",
  m.thumb_size::float8 AS "thumbSize", m.large_key AS "largeKey", m.large_size::float8 AS "largeSize", m.status, m.failure_reason AS "failureReason", m.peaks,
  m.stream_key AS "streamKey", m.stream_mime AS "streamMime", m.stream_size::float8 AS "streamSize",
  m.poster_key AS "posterKey", m.poster_size::float8 AS "posterSize", m.original_name AS "originalName", m.created_at AS "createdAt"`;

/** Where a new file's bytes are stored: under its id, two folder levels deep so that no folder grows huge. */
export function newStorageKey() {
  const id = randomUUID();
  return `${id.slice(0, 2)}/${id.slice(2, 4)}/${id}`;
}

export interface NewMedia {
  ownerId: string;
  kind: MediaKind;
  /** Where the bytes were stored (newStorageKey). */
  key: string;
  mime: string;
  size: number;
  /** An image's size and its stored variants (storeImageVariants). */
  image?: ImageVariants;
  /** Audio and video uploads are processed by a job; images and the demo seed's files are ready as stored. */
  status?: MediaStatus;
  /** Known without processing (the demo seed's sounds): seconds and the waveform. */
  duration?: number;
  peaks?: number[];
  originalName: string;
}

/** Records a stored file as its owner's media: an upload, or the demo seed's pictures and sounds. */
export async function insertMedia(db: Queryable, media: NewMedia): Promise<MediaRow> {
  const { image } = media;
  const row = await one<MediaRow>(
    db,
    `INSERT INTO media (owner_id, kind, storage_key, mime, size, width, height, thumb_key, thumb_mime, thumb_size,
                        large_key, large_size, original_name, status, duration, peaks)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16::jsonb)
     RETURNING ${MEDIA_COLUMNS.replace(/\bm\./g, '')}`,
    [
      media.ownerId,
      media.kind,
      media.key,
      media.mime,
      media.size,
      image?.width ?? null,
      image?.height ?? null,
      image?.thumbKey ?? null,
      image ? 'image/webp' : null,
      image?.thumbSize ?? null,
      image?.largeKey ?? null,
      image?.largeSize ?? null,
      media.originalName,
      media.status ?? 'ready',
      media.duration ?? null,
      media.peaks ? JSON.stringify(media.peaks) : null,
    ],
  );
  return row!;
}

export function findMedia(db: Queryable, id: string) {
  return one<MediaRow>(db, `SELECT ${MEDIA_COLUMNS} FROM media m WHERE m.id = $1`, [id]);
}

/**
 * A file, and whether fans may see something that uses it now: a published item (or a scheduled one whose time has
 * come) or a collection's cover. One query on the media key and the indexes of those references, as it runs for
 * every picture and song a page shows.
 */
/** Whether a file belongs to an item a lapsed fan keeps: published within their kept period (decision 014). */
export async function keptMedia(db: Queryable, id: string, period: KeptPeriod) {
  const row = await one(
    db,
    `SELECT 1 FROM content_items c WHERE (c.media_id = $1 OR c.thumbnail_id = $1) AND ${VISIBLE} AND ${keptCondition('$2', '$3')}`,
    [id, period.from.toISOString(), period.until.toISOString()],
  );
  return row !== undefined;
}

export function findMediaForServing(db: Queryable, id: string) {
  return one<MediaRow & { inSight: boolean }>(
    db,
    `SELECT ${MEDIA_COLUMNS},
            (EXISTS (SELECT 1 FROM content_items c WHERE c.media_id = m.id AND ${VISIBLE})
             OR EXISTS (SELECT 1 FROM content_items c WHERE c.thumbnail_id = m.id AND ${VISIBLE})
             OR EXISTS (SELECT 1 FROM collections k WHERE k.cover_id = m.id)) AS "inSight"
       FROM media m WHERE m.id = $1`,
    [id],
  );
}

export async function findMediaByIds(db: Queryable, ids: string[]) {
  if (ids.length === 0) return new Map<string, MediaRow>();
  const rows = await db.query<MediaRow>(`SELECT ${MEDIA_COLUMNS} FROM media m WHERE m.id = ANY($1::text[])`, [ids]);
  return new Map(rows.map((row) => [row.id, row]));
}

/** The variant fans are served: the processed stream of audio once ready, else the file as uploaded. */
function servedVariant(row: MediaRow): { variant: MediaVariant; mime: string } {
  if (row.status === 'ready' && row.kind === 'audio' && row.streamKey) return { variant: 'stream', mime: row.streamMime! };
  return { variant: 'original', mime: row.mime };
}

/** A processed video is served as HLS, through links signed for each viewer (api/media/hls.ts). */
export function playsAsHls(media: Pick<Media, 'kind' | 'status' | 'mimeType'>) {
  return media.kind === 'video' && media.status === 'ready' && media.mimeType === HLS_MIME;
}

export const HLS_MIME = 'application/vnd.apple.mpegurl';

/**
 * The item answer of one viewer (GET /content/{id}): a video's master playlist signed for them, short-lived, and its
 * progressive MP4 signed for them for as long as watching takes. Shared answers (lists) carry the playlist's unsigned
 * address, which plays nothing, and no MP4: a video plays from its item.
 */
export function forViewer(media: Media, signer: MediaSigner, viewerId: string): Media {
  if (!playsAsHls(media)) return media;
  return {
    ...media,
    url: signer.hlsUrl(media._id, viewerId),
    fallbackUrl: signer.fallbackUrl(media._id, viewerId, watchingLifeSeconds(media.duration)),
  };
}

/**
 * A media file as content responses carry it (docs/media.md): where it stands, its signed link (what fans are
 * served) and, for images, its list size (`thumbnailUrl`, 480 px) and display size (`largeUrl`, 1280 px; null when
 * the picture is no wider than its thumbnail, or is animated: pages then show `url`). The artist's answers also
 * link the original of audio and video.
 */
export function serializeMedia(row: MediaRow, signer: MediaSigner, audience: MediaAudience = 'fans'): Media {
  const served = servedVariant(row);
  const hls = row.kind === 'video' && row.status === 'ready' && row.streamKey;
  return {
    _id: row.id,
    kind: row.kind,
    mime: row.mime,
    size: row.size,
    status: row.status,
    failureReason: row.failureReason,
    duration: row.duration,
    mimeType: hls ? HLS_MIME : served.mime,
    peaks: row.peaks,
    poster: row.posterKey ? signer.url(row.id, 'poster', audience) : null,
    width: row.width,
    height: row.height,
    url: hls ? signer.hlsUrl(row.id) : signer.url(row.id, served.variant, audience),
    fallbackUrl: null,
    originalUrl: audience === 'artist' && row.kind !== 'image' ? signer.url(row.id, 'original', audience) : null,
    thumbnailUrl: row.thumbKey ? signer.url(row.id, 'thumb', audience) : null,
    largeUrl: row.largeKey ? signer.url(row.id, 'large', audience) : null,
  };
}

/**
 * Removes media that nothing refers to any more (after an item or collection let go of it): the rows, then the
 * files. Called with the ids an edit or delete released; media still used elsewhere is kept, an artist's profile
 * images included (they name the media by its public URL, `/performers/images/{id}`, not by a foreign key).
 */
export async function removeUnusedMedia(db: Queryable, storage: MediaStorage, ids: (string | null | undefined)[]) {
  const candidates = [...new Set(ids.filter((id): id is string => Boolean(id)))];
  if (candidates.length === 0) return;
  const removed = await db.query<{
    storageKey: string;
    thumbKey: string | null;
    largeKey: string | null;
    streamKey: string | null;
    posterKey: string | null;
  }>(
    `DELETE FROM media m
      WHERE m.id = ANY($1::text[])
        AND NOT EXISTS (SELECT 1 FROM content_items c WHERE c.thumbnail_id = m.id OR c.media_id = m.id)
        AND NOT EXISTS (SELECT 1 FROM collections k WHERE k.cover_id = m.id)
        AND NOT EXISTS (SELECT 1 FROM users u WHERE u.avatar LIKE '%/performers/images/' || m.id)
        AND NOT EXISTS (
          SELECT 1 FROM artist_profiles p
           WHERE p.cover LIKE '%/performers/images/' || m.id
              OR p.hero_image LIKE '%/performers/images/' || m.id
              OR p.headline_image LIKE '%/performers/images/' || m.id)
      RETURNING m.storage_key AS "storageKey", m.thumb_key AS "thumbKey", m.large_key AS "largeKey",
                m.stream_key AS "streamKey", m.poster_key AS "posterKey"`,
    [candidates],
  );
  await Promise.all(
    removed.flatMap((row) =>
      [row.storageKey, row.thumbKey, row.largeKey, row.streamKey, row.posterKey]
        .filter((key): key is string => Boolean(key))
        .map((key) => storage.remove(key)),
    ),
  );
}

/**
 * Whether fans (anyone but the artist who owns the file) may fetch this variant of it (docs/media.md, "Who may fetch
 * what"). An image is what a post shows: its original too (the full-size photo). Of audio and video, fans get what
 * processing made (the AAC stream, the HLS ladder and its MP4, the poster), never the upload as it was: that stays
 * the artist's. A file stored ready without processing (the demo seed's sounds, uploads from before processing
 * existed) has nothing else to play, so it is served as stored.
 */
export function fansMayFetch(media: MediaRow, variant: MediaVariant) {
  if (variant !== 'original' || media.kind === 'image') return true;
  return media.status === 'ready' && !media.streamKey;
}

/** Where a variant of a file is stored; undefined when the file has no such variant (audio has no thumbnail). */
export function storedVariant(media: MediaRow, variant: MediaVariant) {
  if (variant === 'thumb') return media.thumbKey ? { key: media.thumbKey, size: media.thumbSize!, mime: media.thumbMime! } : undefined;
  if (variant === 'large') return media.largeKey ? { key: media.largeKey, size: media.largeSize!, mime: 'image/webp' } : undefined;
  if (variant === 'poster') return media.posterKey ? { key: media.posterKey, size: media.posterSize!, mime: 'image/webp' } : undefined;
  // A video's stream is its HLS ladder, served playlist by playlist (api/media/hls.ts), not as one file.
  if (variant === 'stream')
    return media.streamKey && media.kind === 'audio'
      ? { key: media.streamKey, size: media.streamSize!, mime: media.streamMime! }
      : undefined;
  return { key: media.storageKey, size: media.size, mime: media.mime };
}
