import type { FastifyRequest } from 'fastify';
import { requireViewer } from '../auth/viewer.js';
import type { Reads } from '../context.js';
import { forbidden, notFound } from '../http.js';
import { hasAccess } from '../subscriptions/queries.js';
import { accessMessages, type ContentAccess } from './access.js';
import { findItem, itemDetails, readItem, type ItemDetails, type ItemRow } from './queries.js';
import type { ContentServices } from './services.js';
import { keeps, keptPeriod, type KeptPeriod } from '../subscriptions/kept.js';

/**
 * An item the viewer may read, with what they are to it: 401 for anonymous viewers, 404 for an unknown item,
 * 403 without an active subscription to its artist, and 404 for a fan while the item is a draft, not yet due, or
 * waiting for its file to be processed. With `allowKept` (reads only) a lapsed fan may open an item published while
 * they paid.
 */
export async function requireReadableItem(
  services: ContentServices,
  request: FastifyRequest,
  id: string,
  { allowKept = false } = {},
): Promise<{ item: ItemRow; details: ItemDetails; access: ContentAccess }> {
  const [viewer, details] = await Promise.all([requireViewer(services, request), readItem(services, services.signer, id)]);
  if (!details) throw notFound(accessMessages.itemNotFound);
  const item = details.row;
  const standing = await standingWith(services, viewer.id, item.artistId, { allowKept });
  const refusal = readRefusal(standing, item);
  if (refusal === 'subscribe') throw forbidden(accessMessages.subscribe);
  if (refusal === 'subscribeAgain') throw forbidden(accessMessages.subscribeAgain);
  if (refusal === 'notFound') throw notFound(accessMessages.itemNotFound);
  const owner = standing.owner;
  const kept = standing.active ? undefined : (standing.kept ?? undefined);
  // The cached item carries fans' links; its artist gets their own (with the original of audio and video).
  const shown = owner && item.mediaId ? (await itemDetails(services.db, services.signer, [item], viewer.id))[0] : details;
  return { item, details: shown, access: { viewer, owner, kept } };
}

/**
 * What a viewer is to an artist, for reading their items: the artist themself, a fan with access, or (with
 * `allowKept`) a lapsed fan with the paid period they keep. Asked once per artist however many items are read.
 */
export interface Standing {
  owner: boolean;
  active: boolean;
  kept: KeptPeriod | null;
}

export async function standingWith(reads: Reads, viewerId: string, artistId: string, { allowKept = false } = {}): Promise<Standing> {
  if (artistId === viewerId) return { owner: true, active: true, kept: null };
  if (await hasAccess(reads, viewerId, artistId)) return { owner: false, active: true, kept: null };
  return { owner: false, active: false, kept: allowKept ? await keptPeriod(reads, viewerId, artistId) : null };
}

/**
 * Why a viewer of this standing may not read the item, or undefined when they may: no membership (or one that ended
 * before the item came out), and for anyone but its artist an item that is a draft, not yet due, or still processing.
 */
export function readRefusal(
  standing: Standing,
  item: Pick<ItemRow, 'state' | 'publishAt' | 'mediaPending'>,
): 'subscribe' | 'subscribeAgain' | 'notFound' | undefined {
  if (standing.owner) return undefined;
  // A lapsed fan reads (never writes to) what was published while they paid; anything newer is the subscribe page.
  if (!standing.active && !(standing.kept && keeps(standing.kept, item.publishAt))) return standing.kept ? 'subscribeAgain' : 'subscribe';
  if (item.state !== 'published' || item.mediaPending) return 'notFound';
  return undefined;
}

/** An item its artist is changing: 404 when unknown, 403 for anyone but its artist. */
export async function requireOwnItem(reads: Reads, request: FastifyRequest, id: string) {
  const viewer = await requireViewer(reads, request);
  const item = await findItem(reads.db, id);
  if (!item) throw notFound(accessMessages.itemNotFound);
  if (item.artistId !== viewer.id) throw forbidden(accessMessages.notYours);
  return { item, viewer };
}
