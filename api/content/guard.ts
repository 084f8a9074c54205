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
  const owner = item.artistId === viewer.id;
  let kept: KeptPeriod | undefined;
  if (!owner && !(await hasAccess(services, viewer.id, item.artistId))) {
    // A lapsed fan reads (never writes to) what was published while they paid; anything newer is the subscribe page.
    const period = allowKept ? await keptPeriod(services, viewer.id, item.artistId) : null;
    if (!period || !keeps(period, item.publishAt)) throw forbidden(period ? accessMessages.subscribeAgain : accessMessages.subscribe);
    kept = period;
  }
  if (!owner && (item.state !== 'published' || item.mediaPending)) throw notFound(accessMessages.itemNotFound);
  // The cached item carries fans' links; its artist gets their own (with the original of audio and video).
  const shown = owner && item.mediaId ? (await itemDetails(services.db, services.signer, [item], viewer.id))[0] : details;
  return { item, details: shown, access: { viewer, owner, kept } };
}

/** An item its artist is changing: 404 when unknown, 403 for anyone but its artist. */
export async function requireOwnItem(reads: Reads, request: FastifyRequest, id: string) {
  const viewer = await requireViewer(reads, request);
  const item = await findItem(reads.db, id);
  if (!item) throw notFound(accessMessages.itemNotFound);
  if (item.artistId !== viewer.id) throw forbidden(accessMessages.notYours);
  return { item, viewer };
}
