import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { bearerToken, viewerForToken } from '../auth/viewer.js';
import type { ContentServices } from '../content/services.js';
import { forbidden, notFound, parse } from '../http.js';
import { hasAccess } from '../subscriptions/queries.js';
import { keptPeriod } from '../subscriptions/kept.js';
import { findMediaForServing, keptMedia } from './queries.js';
import { parseRange } from './range.js';
import { FALLBACK_FILE, watchingLifeSeconds } from './signing.js';

/**
 * A video's HLS ladder (docs/media.md), served playlist by playlist with links signed for one viewer: the item's
 * answer (GET /content/{id}) carries a link to the master playlist for its viewer, good for HLS_MASTER_SECONDS; the
 * master lists the rungs' playlists, and each playlist its segments, with links signed for the same viewer that live
 * as long as watching the video may take. A link names its viewer inside its signature: it cannot be moved to another
 * fan, and a request that says who it comes from (an Authorization header) must come from that viewer. Beside the
 * ladder, one rung as a progressive MP4 (`fallback.mp4`, with Range) on a link of the same kind: for a browser that
 * plays no HLS with JavaScript off.
 */

const HlsQuery = z.object({
  v: z.string().max(100).optional(),
  expires: z.string().max(20).optional(),
  sig: z.string().max(100).optional(),
});

/** The files of a ladder as processing writes them (api/media/processing.ts), and its progressive MP4. */
const HLS_PATH = /^(master\.m3u8|v\d\/index\.m3u8|v\d\/seg\d{5}\.ts|fallback\.mp4)$/;

const hlsMessages = {
  invalid: 'This link to the video is not valid. Reload the page to play it.',
  expired: 'This link to the video has expired. Reload the page to play it.',
} as const;

export function hlsRoutes(app: FastifyInstance, services: ContentServices) {
  const { db, storage, signer } = services;

  app.get<{ Params: { id: string; '*': string } }>('/media/:id/hls/*', async (request, reply) => {
    const path = request.params['*'];
    if (!HLS_PATH.test(path)) throw notFound('File not found');
    const query = parse(HlsQuery, request.query);
    const check = signer.checkHls(request.params.id, path, query.v, query.expires, query.sig);
    if (check === 'invalid') throw forbidden(hlsMessages.invalid);
    if (check === 'expired') throw forbidden(hlsMessages.expired);
    const viewerId = query.v!;
    const media = await findMediaForServing(db, request.params.id);
    if (!media || media.kind !== 'video' || media.status !== 'ready' || !media.streamKey) throw notFound('File not found');

    // A request that names its viewer is refused when the link was made for someone else.
    const token = bearerToken(request);
    if (token) {
      const caller = await viewerForToken(services, token);
      if (caller?.id !== viewerId) throw forbidden(hlsMessages.invalid);
    }
    // The master playlist, asked for when playback starts, checks the viewer may still watch; what it links to
    // lives only as long as watching takes. The progressive MP4 is played by Range requests on its own link: each
    // checks, as the master does.
    if ((path === 'master.m3u8' || path === FALLBACK_FILE) && viewerId !== media.ownerId) {
      if (!media.inSight) throw notFound('File not found');
      if (!(await hasAccess(services, viewerId, media.ownerId))) {
        const period = await keptPeriod(services, viewerId, media.ownerId);
        if (!period || !(await keptMedia(db, media.id, period))) throw forbidden();
      }
    }

    const key = `${media.streamKey}/${path}`;
    if (path.endsWith('.m3u8')) {
      const expires = Math.floor(Date.now() / 1000) + watchingLifeSeconds(media.duration);
      const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
      let text = '';
      for await (const chunk of storage.read(key)) text += (chunk as Buffer).toString('utf8');
      // Every URI line (a playlist or a segment, relative to this one) gets the viewer's signed query string.
      const signed = text
        .split('\n')
        .map((line) =>
          line && !line.startsWith('#') ? `${line}?${signer.hlsQuery(media.id, `${folder}${line}`, viewerId, expires)}` : line,
        )
        .join('\n');
      return reply
        .headers({
          'content-type': 'application/vnd.apple.mpegurl',
          'cache-control': 'private, no-store',
          'x-content-type-options': 'nosniff',
        })
        .send(signed);
    }
    const size = await storage.size(key);
    if (size === undefined) throw notFound('File not found');
    const maxAge = Math.max(0, Math.min(86_400, Number(query.expires) - Math.floor(Date.now() / 1000)));
    if (path === FALLBACK_FILE) {
      // Played progressively (a browser without HLS, JavaScript off): with Range, as audio is (api/media/routes.ts).
      const etag = `"${media.id}-fallback"`;
      reply.headers({
        'accept-ranges': 'bytes',
        'content-type': 'video/mp4',
        etag,
        'cache-control': `private, max-age=${maxAge}, immutable`,
        'x-content-type-options': 'nosniff',
      });
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      const ifRange = request.headers['if-range'];
      const range = ifRange && ifRange !== etag ? undefined : parseRange(request.headers.range, size);
      if (range === 'unsatisfiable') return reply.status(416).header('content-range', `bytes */${size}`).send();
      if (range) {
        reply.status(206).headers({
          'content-range': `bytes ${range.start}-${range.end}/${size}`,
          'content-length': String(range.end - range.start + 1),
        });
        return reply.send(storage.read(key, range));
      }
      return reply.header('content-length', String(size)).send(storage.read(key));
    }
    return reply
      .headers({
        'content-type': 'video/mp2t',
        'content-length': String(size),
        'cache-control': `private, max-age=${maxAge}, immutable`,
        'x-content-type-options': 'nosniff',
      })
      .send(storage.read(key));
  });
}
