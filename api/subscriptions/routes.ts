import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireViewer } from '../auth/viewer.js';
import type { ApiContext } from '../context.js';
import { one } from '../db/client.js';
import { ok, parse } from '../http.js';
import { artistForViewer, serializeArtist } from '../performers/queries.js';
import { ACTIVE_SUBSCRIPTION } from './queries.js';

/** The most subscriptions one page returns, whatever limit is asked for. */
const MAX_PAGE = 1000;

const SearchQuery = z.object({
  // The web asks with Number.MAX_SAFE_INTEGER; any positive whole number is accepted.
  limit: z.coerce.number().int().min(1).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

export function subscriptionRoutes(app: FastifyInstance, ctx: ApiContext) {
  const { db } = ctx;

  /**
   * The viewer's active subscriptions, newest first, each with its artist. The page's subscriptions are read
   * here; each artist's profile and subscriber count come from the read cache the artist's page keeps.
   */
  app.get('/subscriptions/user/search', async (request) => {
    const viewer = await requireViewer(ctx, request);
    const query = parse(SearchQuery, request.query);
    const active = `FROM subscriptions s JOIN users u ON u.id = s.artist_id AND u.is_performer AND u.status = 'active'
      WHERE s.user_id = $1 AND s.${ACTIVE_SUBSCRIPTION}`;
    // The page and how many there are in one query (a fan has a handful); past the last page, the count alone.
    const rows = await db.query<{ subscriptionId: string; username: string; total: number }>(
      `SELECT s.id AS "subscriptionId", u.username, (count(*) OVER ())::int AS total ${active}
        ORDER BY s.started_at DESC, s.id LIMIT $2 OFFSET $3`,
      [viewer.id, Math.min(query.limit, MAX_PAGE), query.offset],
    );
    const counted = async () => (await one<{ total: number }>(db, `SELECT count(*)::int AS total ${active}`, [viewer.id]))?.total ?? 0;
    const total = rows[0]?.total ?? (query.offset > 0 ? await counted() : 0);
    const artists = await Promise.all(rows.map((row) => artistForViewer(ctx, row.username, viewer.id)));
    return ok({
      data: rows.flatMap((row, index) => {
        const artist = artists[index];
        return artist ? [{ _id: row.subscriptionId, performerInfo: serializeArtist(artist) }] : [];
      }),
      total,
    });
  });
}
