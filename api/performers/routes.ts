import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { optionalViewer } from '../auth/viewer.js';
import type { ApiContext } from '../context.js';
import { notFound, ok, parse } from '../http.js';
import { ARTIST_SELECT, artistForViewer, serializeArtist, type ArtistRow } from './queries.js';

const SearchQuery = z.object({
  q: z.string().trim().max(100).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export function performerRoutes(app: FastifyInstance, ctx: ApiContext) {
  const { db } = ctx;

  app.get('/performers/user/search', async (request) => {
    const query = parse(SearchQuery, request.query);
    const viewer = await optionalViewer(ctx, request);
    const pattern = query.q ? `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    const where = `AND ($2::text IS NULL OR u.username ILIKE $2 OR u.name ILIKE $2)`;
    const [rows, total] = await Promise.all([
      db.query<ArtistRow>(`${ARTIST_SELECT} ${where} ORDER BY u.name, u.username LIMIT $3 OFFSET $4`, [
        viewer?.id ?? null,
        pattern,
        query.limit,
        query.offset,
      ]),
      db.query<{ total: number }>(
        `SELECT count(*)::int AS total FROM users u JOIN artist_profiles p ON p.user_id = u.id
          WHERE u.is_performer AND u.status = 'active' AND ($1::text IS NULL OR u.username ILIKE $1 OR u.name ILIKE $1)`,
        [pattern],
      ),
    ]);
    return ok({ data: rows.map(serializeArtist), total: total[0]?.total ?? 0 });
  });

  app.get<{ Params: { username: string } }>('/performers/:username', async (request) => {
    const viewer = await optionalViewer(ctx, request);
    const artist = await artistForViewer(ctx, request.params.username, viewer?.id ?? null);
    if (!artist) throw notFound('Artist not found');
    return ok(serializeArtist(artist));
  });
}
