import type { FastifyRequest } from 'fastify';
import { requireViewer, type Viewer } from '../auth/viewer.js';
import { tag } from '../cache/tags.js';
import type { Reads } from '../context.js';
import { one } from '../db/client.js';
import { forbidden, notFound } from '../http.js';
import { hasAccess } from '../subscriptions/queries.js';
import { notKept } from '../cache/read-cache.js';
import { keptPeriod, type KeptPeriod } from '../subscriptions/kept.js';

export const accessMessages = {
  subscribe: 'Subscribe to this artist to see their content.',
  subscribeAgain: 'Subscribe again to join in: your membership has ended.',
  artistsOnly: 'Only artists can publish content.',
  notYours: 'Only the artist who published this can change it.',
  artistNotFound: 'Artist not found',
  itemNotFound: 'This content could not be found.',
} as const;

/**
 * What a viewer is to an artist's content: the artist who owns it, a fan whose subscription is active, or a fan
 * whose paid membership lapsed and who keeps what was published while they paid (`kept`, decision 014).
 */
export interface ContentAccess {
  viewer: Viewer;
  owner: boolean;
  kept?: KeptPeriod;
}

/**
 * The API's own guard for an artist's content: anonymous viewers get 401, signed-in viewers without an active
 * subscription 403 (another artist too: they are a fan here), the artist and subscribed fans pass.
 */
export async function requireContentAccess(
  reads: Reads,
  request: FastifyRequest,
  artistId: string,
  { allowKept = false } = {},
): Promise<ContentAccess> {
  const viewer = await requireViewer(reads, request);
  if (viewer.id === artistId) return { viewer, owner: true };
  if (await hasAccess(reads, viewer.id, artistId)) return { viewer, owner: false };
  const kept = allowKept ? await keptPeriod(reads, viewer.id, artistId) : null;
  if (kept) return { viewer, owner: false, kept };
  throw forbidden(accessMessages.subscribe);
}

/** Guard for publishing: a signed-in artist with a profile. */
export async function requireArtist(reads: Reads, request: FastifyRequest): Promise<Viewer> {
  const viewer = await requireViewer(reads, request);
  if (!viewer.isPerformer) throw forbidden(accessMessages.artistsOnly);
  const profile = await one(reads.db, 'SELECT 1 FROM artist_profiles WHERE user_id = $1', [viewer.id]);
  if (!profile) throw forbidden(accessMessages.artistsOnly);
  return viewer;
}

/** An active artist by username (any case), or 404. */
export async function findArtistId(reads: Reads, username: string) {
  const id = await reads.cache.read(`artist-id:${username.toLowerCase()}`, async () => {
    const row = await one<{ id: string }>(
      reads.db,
      `SELECT u.id FROM users u JOIN artist_profiles p ON p.user_id = u.id
        WHERE lower(u.username) = lower($1) AND u.is_performer AND u.status = 'active'`,
      [username],
    );
    return row ? { value: row.id, tags: [tag.user(row.id)] } : notKept(undefined);
  });
  if (!id) throw notFound(accessMessages.artistNotFound);
  return id;
}

/**
 * SQL for "fans can see this item": published, or scheduled and its time has come, and not waiting for its file to
 * be processed (api/media/processing.ts). Expects the alias c.
 */
export const VISIBLE = `(c.state <> 'draft' AND c.publish_at <= now() AND NOT c.media_pending)`;

/** SQL for "published within the kept period $from..$until" (a lapsed fan's items). Expects the alias c. */
export const keptCondition = (from: string, until: string) =>
  `(c.publish_at >= ${from}::timestamptz AND c.publish_at < ${until}::timestamptz)`;
