import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { optionalViewer } from '../auth/viewer.js';
import type { ApiContext } from '../context.js';
import { notFound, ok, parse } from '../http.js';
import { tag } from '../cache/tags.js';
import { ACTIVE_SUBSCRIPTION } from '../subscriptions/queries.js';
import { artistForViewer, serializeArtist } from './queries.js';

const SearchQuery = z.object({
  q: z.string().trim().max(100).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export function performerRoutes(app: FastifyInstance, ctx: ApiContext) {
  const { db } = ctx;

  /**
   * Discover's list: artists A to Z, found by name or username. Which artists a page holds (their usernames, in order)
   * and how many match are kept in the read cache until an artist is made, renamed or deleted (tag.artists); each
   * artist then comes from the profile cache the artist's page keeps.
   */
  app.get('/performers/user/search', async (request) => {
    const query = parse(SearchQuery, request.query);
    const viewer = await optionalViewer(ctx, request);
    const page = await ctx.cache.read(`artists:${query.limit}:${query.offset}:${query.q ?? ''}`, async () => {
      const pattern = query.q ? `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
      const where = `u.is_performer AND u.status = 'active' AND ($1::text IS NULL OR u.username ILIKE $1 OR u.name ILIKE $1)`;
      const from = 'FROM users u JOIN artist_profiles p ON p.user_id = u.id';
      const [rows, total] = await Promise.all([
        db.query<{ username: string }>(`SELECT u.username ${from} WHERE ${where} ORDER BY u.name, u.username LIMIT $2 OFFSET $3`, [
          pattern,
          query.limit,
          query.offset,
        ]),
        db.query<{ total: number }>(`SELECT count(*)::int AS total ${from} WHERE ${where}`, [pattern]),
      ]);
      return { value: { usernames: rows.map((row) => row.username), total: total[0]?.total ?? 0 }, tags: [tag.artists()] };
    });
    const artists = (await Promise.all(page.usernames.map((username) => artistForViewer(ctx, username, null)))).flatMap((artist) =>
      artist ? [artist] : [],
    );
    // Whether the viewer subscribes to each, in one query (most are not: the access check keeps only a "yes").
    const subscribed = viewer
      ? await db.query<{ artistId: string }>(
          `SELECT artist_id AS "artistId" FROM subscriptions WHERE user_id = $1 AND artist_id = ANY($2::text[]) AND ${ACTIVE_SUBSCRIPTION}`,
          [viewer.id, artists.map((artist) => artist.id)],
        )
      : [];
    const ids = new Set(subscribed.map((row) => row.artistId));
    return ok({ data: artists.map((artist) => serializeArtist({ ...artist, isSubscribed: ids.has(artist.id) })), total: page.total });
  });

  app.get<{ Params: { username: string } }>('/performers/:username', async (request) => {
    const viewer = await optionalViewer(ctx, request);
    const artist = await artistForViewer(ctx, request.params.username, viewer?.id ?? null);
    if (!artist) throw notFound('Artist not found');
    return ok(serializeArtist(artist));
  });
}
