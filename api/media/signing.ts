import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { one, type Queryable } from '../db/client.js';

/** The file as uploaded, an image's sizes, the processed stream of audio, a video's poster frame. */
export type MediaVariant = 'original' | 'thumb' | 'large' | 'stream' | 'poster';

/**
 * Whom a link was made for. Fans' links open a file only while an item they may see uses it; the artist's (made
 * for their drafts, scheduled items and fresh uploads, which only they are shown) open it always.
 */
export type MediaAudience = 'fans' | 'artist';

/** A signed link lives two to three hours: long enough to listen to an album, and stable for an hour so it caches. */
const LINK_WINDOW_SECONDS = 3600;
const LINK_MIN_LIFE_WINDOWS = 2;

/** The secret that signs media links, shared by every api node through the database and made by the first to need it. */
export async function loadMediaSecret(db: Queryable): Promise<Buffer> {
  await db.query(`INSERT INTO server_secrets (name, value) VALUES ('media-links', $1) ON CONFLICT (name) DO NOTHING`, [
    randomBytes(32).toString('hex'),
  ]);
  const row = await one<{ value: string }>(db, `SELECT value FROM server_secrets WHERE name = 'media-links'`);
  if (!row) throw new Error('media link secret missing');
  return Buffer.from(row.value, 'hex');
}

export function signature(secret: Buffer, id: string, variant: MediaVariant, expires: number, audience: MediaAudience = 'fans') {
  const signed = `${id}\n${variant}\n${expires}${audience === 'artist' ? '\nartist' : ''}`;
  return createHmac('sha256', secret).update(signed).digest('base64url');
}

export type LinkCheck = 'valid' | 'expired' | 'invalid';

/** How long the link to a video's master playlist lives: time to open the item and press play. */
export const HLS_MASTER_SECONDS = 15 * 60;

/** A video's progressive MP4 (one rung of its ladder), beside its playlists (api/media/processing.ts). */
export const FALLBACK_FILE = 'fallback.mp4';

/**
 * How long the links inside the playlists, and the progressive MP4's, live: half an hour, or twice the video's
 * length when that is longer (watching it may take that).
 */
export function watchingLifeSeconds(duration: number | null) {
  return Math.max(30 * 60, Math.ceil((duration ?? 0) * 2));
}

/** A viewer's signed HLS link (api/media/hls.ts): the playlist or segment `path`, for one viewer, until `expires`. */
export function hlsSignature(secret: Buffer, id: string, path: string, viewerId: string, expires: number) {
  return createHmac('sha256', secret).update(`${id}\nhls\n${path}\n${viewerId}\n${expires}`).digest('base64url');
}

export interface MediaSigner {
  /** An absolute link to a media file that works without an Authorization header until it expires. */
  url(id: string, variant?: MediaVariant, audience?: MediaAudience): string;
  check(id: string, variant: MediaVariant, expires: string | undefined, sig: string | undefined, audience?: MediaAudience): LinkCheck;
  /** The query string (`v`, `expires`, `sig`) that lets one viewer fetch a file of a video's HLS ladder until expires. */
  hlsQuery(id: string, path: string, viewerId: string, expires: number): string;
  /** A viewer's link to a video's master playlist, for HLS_MASTER_SECONDS; without a viewer, the unsigned address. */
  hlsUrl(id: string, viewerId?: string): string;
  /** A viewer's link to a video's progressive MP4 (FALLBACK_FILE beside its ladder), good for `lifeSeconds`. */
  fallbackUrl(id: string, viewerId: string, lifeSeconds: number): string;
  checkHls(id: string, path: string, viewerId: string | undefined, expires: string | undefined, sig: string | undefined): LinkCheck;
}

/**
 * Paid media is never reachable by a guessable address: a link carries its expiry and an HMAC of the media id,
 * the variant and that expiry, so an `<audio src>` works while the link cannot be made up or extended.
 */
export function createMediaSigner(secret: Buffer, baseUrl: string, clock: () => number = Date.now): MediaSigner {
  const hlsQuery = (id: string, path: string, viewerId: string, expires: number) =>
    `v=${encodeURIComponent(viewerId)}&expires=${expires}&sig=${hlsSignature(secret, id, path, viewerId, expires)}`;
  return {
    url(id, variant = 'original', audience = 'fans') {
      const windowStart = Math.floor(clock() / 1000 / LINK_WINDOW_SECONDS);
      const expires = (windowStart + LINK_MIN_LIFE_WINDOWS + 1) * LINK_WINDOW_SECONDS;
      const size = variant === 'original' ? '' : `size=${variant}&`;
      const sig = signature(secret, id, variant, expires, audience);
      return `${baseUrl}/media/${encodeURIComponent(id)}?${size}expires=${expires}&sig=${sig}${audience === 'artist' ? '&for=artist' : ''}`;
    },
    hlsQuery,
    hlsUrl(id, viewerId) {
      const master = `${baseUrl}/media/${encodeURIComponent(id)}/hls/master.m3u8`;
      if (!viewerId) return master;
      return `${master}?${hlsQuery(id, 'master.m3u8', viewerId, Math.floor(clock() / 1000) + HLS_MASTER_SECONDS)}`;
    },
    fallbackUrl(id, viewerId, lifeSeconds) {
      const expires = Math.floor(clock() / 1000) + lifeSeconds;
      return `${baseUrl}/media/${encodeURIComponent(id)}/hls/${FALLBACK_FILE}?${hlsQuery(id, FALLBACK_FILE, viewerId, expires)}`;
    },
    checkHls(id, path, viewerId, expires, sig) {
      if (!viewerId || !expires || !sig || !/^\d{1,12}$/.test(expires)) return 'invalid';
      const expected = Buffer.from(hlsSignature(secret, id, path, viewerId, Number(expires)));
      const given = Buffer.from(sig);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
      return Number(expires) * 1000 > clock() ? 'valid' : 'expired';
    },
    check(id, variant, expires, sig, audience = 'fans') {
      if (!expires || !sig || !/^\d{1,12}$/.test(expires)) return 'invalid';
      const expected = Buffer.from(signature(secret, id, variant, Number(expires), audience));
      const given = Buffer.from(sig);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
      return Number(expires) * 1000 > clock() ? 'valid' : 'expired';
    },
  };
}
