import type { FastifyRequest } from 'fastify';
import { requireViewer } from '../auth/viewer.js';
import type { Reads } from '../context.js';
import { forbidden, notFound } from '../http.js';
import { hasAccess } from '../subscriptions/queries.js';
import { accessMessages, type ContentAccess } from './access.js';
import { findItem, type ItemRow } from './queries.js';

/**
 * An item the viewer may read, with what they are to it: 401 for anonymous viewers, 404 for an unknown item,
 * 403 without an active subscription to its artist, and 404 for a fan while the item is a draft, not yet due, or
 * waiting for its file to be processed.
 */
export async function requireReadableItem(
  reads: Reads,
  request: FastifyRequest,
  id: string,
): Promise<{ item: ItemRow; access: ContentAccess }> {
  const viewer = await requireViewer(reads, request);
  const item = await findItem(reads.db, id);
  if (!item) throw notFound(accessMessages.itemNotFound);
  const owner = item.artistId === viewer.id;
  if (!owner && !(await hasAccess(reads, viewer.id, item.artistId))) throw forbidden(accessMessages.subscribe);
  if (!owner && (item.state !== 'published' || item.mediaPending)) throw notFound(accessMessages.itemNotFound);
  return { item, access: { viewer, owner } };
}

/** An item its artist is changing: 404 when unknown, 403 for anyone but its artist. */
export async function requireOwnItem(reads: Reads, request: FastifyRequest, id: string) {
  const viewer = await requireViewer(reads, request);
  const item = await findItem(reads.db, id);
  if (!item) throw notFound(accessMessages.itemNotFound);
  if (item.artistId !== viewer.id) throw forbidden(accessMessages.notYours);
  return { item, viewer };
}
