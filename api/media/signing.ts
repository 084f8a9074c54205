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

export interface MediaSigner {
  /** An absolute link to a media file that works without an Authorization header until it expires. */
  url(id: string, variant?: MediaVariant, audience?: MediaAudience): string;
  check(id: string, variant: MediaVariant, expires: string | undefined, sig: string | undefined, audience?: MediaAudience): LinkCheck;
}

/**
 * Paid media is never reachable by a guessable address: a link carries its expiry and an HMAC of the media id,
 * the variant and that expiry, so an `<audio src>` works while the link cannot be made up or extended.
 */
export function createMediaSigner(secret: Buffer, baseUrl: string, clock: () => number = Date.now): MediaSigner {
  return {
    url(id, variant = 'original', audience = 'fans') {
      const windowStart = Math.floor(clock() / 1000 / LINK_WINDOW_SECONDS);
      const expires = (windowStart + LINK_MIN_LIFE_WINDOWS + 1) * LINK_WINDOW_SECONDS;
      const size = variant === 'original' ? '' : `size=${variant}&`;
      const sig = signature(secret, id, variant, expires, audience);
      return `${baseUrl}/media/${encodeURIComponent(id)}?${size}expires=${expires}&sig=${sig}${audience === 'artist' ? '&for=artist' : ''}`;
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
