import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireViewer } from '../auth/viewer.js';
import { findArtistId, VISIBLE } from '../content/access.js';
import { requireReadableItem } from '../content/guard.js';
import { paging, SortParam, TypesParam } from '../content/params.js';
import { itemDetails, itemSelect, loadMarks, typesCondition, viewItem, type ItemRow } from '../content/queries.js';
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
   * A page is kept in the read cache: until the fan bookmarks, unbookmarks or votes (tag.marks), an item of the
   * artists concerned changes (tag.content, tag.user), a subscription to one of them begins or ends (tag.artist,
   * tag.fanSubscriptions), or, by the clock, the fan's next subscription lapses or the artists' next scheduled item
   * comes out. The fan's marks are added after, as the content lists do.
   */
  app.get('/bookmarks', async (request) => {
    const viewer = await requireViewer(services, request);
    const query = parse(ListQuery, request.query);
    const artistId = query.performer ? await findArtistId(services, query.performer) : null;
    const key = `bookmarks:${viewer.id}:${JSON.stringify([artistId, query.types ?? null, query.sort ?? null, query.limit, query.offset])}`;
    const [page, marks] = await Promise.all([
      services.cache.read(key, async () => {
        const where = `b.user_id = $1
          AND ($2::text IS NULL OR c.artist_id = $2)
          AND ${typesCondition('$3')}
          AND (c.artist_id = $1 OR (${VISIBLE} AND EXISTS (
                SELECT 1 FROM subscriptions s WHERE s.user_id = $1 AND s.artist_id = c.artist_id AND s.${ACTIVE_SUBSCRIPTION})))`;
        const params = [viewer.id, artistId, query.types ?? null];
        const direction = query.sort === 'asc' ? 'ASC' : 'DESC';
        const [rows, count, bounds] = await Promise.all([
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
          // Whose items the fan has bookmarked, and when the answer next changes by the clock.
          db.query<{ artistIds: string[] | null; subscriptionEnds: Date | null; nextPublication: Date | null }>(
            `WITH artists AS (
               SELECT DISTINCT c.artist_id FROM bookmarks b JOIN content_items c ON c.id = b.item_id
                WHERE b.user_id = $1 AND ($2::text IS NULL OR c.artist_id = $2))
             SELECT (SELECT array_agg(artist_id) FROM artists) AS "artistIds",
                    (SELECT min(s.expires_at) FROM subscriptions s WHERE s.user_id = $1 AND s.${ACTIVE_SUBSCRIPTION}) AS "subscriptionEnds",
                    (SELECT min(k.publish_at) FROM content_items k
                      WHERE k.artist_id IN (SELECT artist_id FROM artists) AND k.state = 'scheduled' AND k.publish_at > now())
                      AS "nextPublication"`,
            [viewer.id, artistId],
          ),
        ]);
        const details = await itemDetails(db, signer, rows, viewer.id);
        const { artistIds, subscriptionEnds, nextPublication } = bounds[0] ?? {};
        const times = [subscriptionEnds, nextPublication].flatMap((at) => (at ? [new Date(at).getTime()] : []));
        return {
          value: {
            items: details.map((entry, index) => ({ details: entry, bookmarkedAt: new Date(rows[index].bookmarkedAt).toISOString() })),
            total: count[0]?.total ?? 0,
          },
          tags: [
            tag.marks(viewer.id),
            tag.fanSubscriptions(viewer.id),
            ...(artistIds ?? []).flatMap((id) => [tag.content(id), tag.user(id), tag.artist(id)]),
          ],
          until: times.length ? Math.min(...times) : undefined,
        };
      }),
      loadMarks(services, viewer.id),
    ]);
    const data = page.items.map(({ details, bookmarkedAt }) => ({ ...viewItem(details, viewer.id, marks), bookmarkedAt }));
    return ok({ data, total: page.total });
  });
}
