import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireViewer } from '../auth/viewer.js';
import { findArtistId, VISIBLE } from '../content/access.js';
import { requireReadableItem } from '../content/guard.js';
import { paging, SortParam, TypesParam } from '../content/params.js';
import { itemSelect, serializeItems, typesCondition, type ItemRow } from '../content/queries.js';
import type { ContentServices } from '../content/services.js';
import { ok, parse } from '../http.js';
import { ACTIVE_SUBSCRIPTION } from '../subscriptions/queries.js';
import { tag } from '../cache/tags.js';

const ListQuery = z.object({
  /** Only this artist's items (the bookmarks page sits under /{artist}/account/bookmarks). */
  performer: z.string().trim().min(1).max(100).optional(),
  types: TypesParam,
  sort: SortParam,
  ...paging,
});

export function bookmarkRoutes(app: FastifyInstance, services: ContentServices) {
  const { db, signer } = services;

  /** Idempotent: bookmarking twice keeps one bookmark. */
  app.post<{ Params: { id: string } }>('/content/:id/bookmark', async (request) => {
    const { item, access } = await requireReadableItem(services, request, request.params.id);
    await db.query('INSERT INTO bookmarks (user_id, item_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [access.viewer.id, item.id]);
    await services.cache.invalidate(tag.marks(access.viewer.id));
    return ok({ bookmarked: true });
  });

  app.delete<{ Params: { id: string } }>('/content/:id/bookmark', async (request) => {
    const viewer = await requireViewer(services, request);
    await db.query('DELETE FROM bookmarks WHERE user_id = $1 AND item_id = $2', [viewer.id, request.params.id]);
    await services.cache.invalidate(tag.marks(viewer.id));
    return ok({ bookmarked: false });
  });

  /**
   * The viewer's bookmarks, most recently bookmarked first (sort=asc: oldest first), with the same type filters as
   * the vault and posts. Items the viewer may no longer read (subscription ended, item unpublished) are left out.
   */
  app.get('/bookmarks', async (request) => {
    const viewer = await requireViewer(services, request);
    const query = parse(ListQuery, request.query);
    const artistId = query.performer ? await findArtistId(services, query.performer) : null;
    const where = `b.user_id = $1
      AND ($2::text IS NULL OR c.artist_id = $2)
      AND ${typesCondition('$3')}
      AND (c.artist_id = $1 OR (${VISIBLE} AND EXISTS (
            SELECT 1 FROM subscriptions s WHERE s.user_id = $1 AND s.artist_id = c.artist_id AND s.${ACTIVE_SUBSCRIPTION})))`;
    const params = [viewer.id, artistId, query.types ?? null];
    const direction = query.sort === 'asc' ? 'ASC' : 'DESC';
    const [rows, count] = await Promise.all([
      db.query<ItemRow & { bookmarkedAt: Date }>(
        `${itemSelect('b.created_at AS "bookmarkedAt"')}
           JOIN bookmarks b ON b.item_id = c.id
          WHERE ${where}
          ORDER BY b.created_at ${direction}, c.id ${direction} LIMIT $4 OFFSET $5`,
        [...params, query.limit, query.offset],
      ),
      db.query<{ total: number }>(
        `SELECT count(*)::int AS total FROM bookmarks b JOIN content_items c ON c.id = b.item_id WHERE ${where}`,
        params,
      ),
    ]);
    const items = await serializeItems(services, signer, rows, viewer.id);
    const data = items.map((item, index) => ({
      ...item,
      bookmarkedAt: new Date(rows[index].bookmarkedAt).toISOString(),
    }));
    return ok({ data, total: count[0]?.total ?? 0 });
  });
}
