import type { FastifyInstance } from 'fastify';
import { OFFLINE_CHECKS_PER_USER, offlineMessages, readCheckIds } from '#contract/offline';
import { consume } from '../auth/rate-limits.js';
import { requireViewer } from '../auth/viewer.js';
import { badRequest, ok } from '../http.js';
import { readRefusal, standingWith, type Standing } from './guard.js';
import type { ItemState } from './queries.js';
import type { ContentServices } from './services.js';

/**
 * GET /content/offline-check?id=…&id=… (docs/listening.md "Offline"): which of these items the viewer may still
 * open, by the rule of GET /content/{id} with what a lapsed fan keeps. The web tier's /offline/check asks it for the
 * service worker, which deletes the saved tracks that are not. One query reads the items and each artist's standing
 * is asked once, so a check of a hundred items costs about what opening one item does; and it is limited per fan.
 */
export function offlineCheckRoutes(app: FastifyInstance, services: ContentServices) {
  const perUser = services.limiters.limiter({
    keyPrefix: 'offline-check-user',
    points: OFFLINE_CHECKS_PER_USER.points,
    duration: OFFLINE_CHECKS_PER_USER.durationSeconds,
  });

  app.get<{ Querystring: { id?: string | string[] } }>('/content/offline-check', async (request) => {
    const viewer = await requireViewer(services, request);
    const asked = request.query.id;
    const read = readCheckIds(asked === undefined ? [] : [asked].flat());
    if ('error' in read) throw badRequest(read.error, { id: [read.error] });
    await consume(perUser, viewer.id, offlineMessages.tooOften);
    if (!read.ids.length) return ok({ playable: [] });
    const rows = await services.db.query<{ id: string; artistId: string; state: ItemState; publishAt: Date; mediaPending: boolean }>(
      `SELECT id, artist_id AS "artistId", media_pending AS "mediaPending", publish_at AS "publishAt",
              CASE WHEN state = 'scheduled' AND publish_at <= now() THEN 'published' ELSE state END AS state
         FROM content_items WHERE id = ANY($1::text[])`,
      [read.ids],
    );
    const standings = new Map<string, Promise<Standing>>();
    const standing = (artistId: string) => {
      if (!standings.has(artistId)) standings.set(artistId, standingWith(services, viewer.id, artistId, { allowKept: true }));
      return standings.get(artistId)!;
    };
    const playable: string[] = [];
    for (const row of rows) {
      if (readRefusal(await standing(row.artistId), row) === undefined) playable.push(row.id);
    }
    return ok({ playable: read.ids.filter((id) => playable.includes(id)) });
  });
}
