import { Readable } from 'node:stream';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { z } from 'zod';
import { MEDIA_KINDS, type MediaKind } from '#contract/content-types';
import { viewerForToken, bearerToken } from '../auth/viewer.js';
import { requireArtist } from '../content/access.js';
import type { ContentServices } from '../content/services.js';
import { ApiError, badRequest, forbidden, notFound, ok, parse, unauthorized } from '../http.js';
import { hasAccess } from '../subscriptions/queries.js';
import { keptPeriod } from '../subscriptions/kept.js';
import {
  fansMayFetch,
  findMedia,
  findMediaForServing,
  keptMedia,
  newStorageKey,
  removeUnusedMedia,
  serializeMedia,
  storedVariant,
} from './queries.js';
import { parseRange } from './range.js';
import { recordUpload } from './uploads.js';
import { classify, MAX_UPLOAD_BYTES, MEDIA_RULES, mediaMessages, unsupportedMessage } from './rules.js';
import type { MediaVariant } from './signing.js';

/** Enough bytes for file-type to recognise every format we accept. */
const SNIFF_BYTES = 4100;

const UploadQuery = z.object({ kind: z.enum(MEDIA_KINDS).optional() });
const ServeQuery = z.object({
  size: z.enum(['thumb', 'large', 'stream', 'poster']).optional(),
  expires: z.string().max(20).optional(),
  sig: z.string().max(100).optional(),
  for: z.literal('artist').optional(),
});

const linkMessages = {
  signIn: 'Sign in to see this file.',
  invalid: 'This link to the file is not valid.',
  expired: 'This link to the file has expired. Reload the page to get a new one.',
  originalIsArtists: 'The original file is kept for its artist. Play it from its post.',
} as const;

class TooLarge extends Error {}

function unsupported(expected?: MediaKind) {
  const message = unsupportedMessage(expected);
  return new ApiError(415, message, { file: [message] });
}

function tooLarge(kind: MediaKind) {
  const message = MEDIA_RULES[kind].tooLarge;
  return new ApiError(413, message, { file: [message] });
}

/** Reads what is left of an upload and throws it away, so the client gets our answer instead of a reset connection. */
async function discard(chunks: AsyncIterator<unknown>) {
  try {
    for (;;) if ((await chunks.next()).done) return;
  } catch {
    // The client went away: nothing left to read.
  }
}

export function mediaRoutes(app: FastifyInstance, services: ContentServices) {
  const { db, storage, signer, log } = services;

  /**
   * Upload one file (multipart/form-data, field `file`), streamed to storage, never held whole in memory.
   * Its type is read from its content, not its name; `kind` (image, audio, video) narrows what is accepted.
   */
  app.post('/media', async (request, reply) => {
    const viewer = await requireArtist(services, request);
    const { kind: expected } = parse(UploadQuery, request.query);
    if (!request.isMultipart()) throw badRequest(mediaMessages.noFile, { file: [mediaMessages.noFile] });
    const fileSizeLimit = expected ? MEDIA_RULES[expected].maxBytes : MAX_UPLOAD_BYTES;
    let part: MultipartFile | undefined;
    try {
      part = await request.file({ limits: { fileSize: fileSizeLimit, files: 1, fields: 20, parts: 25 } });
    } catch (error) {
      throw uploadError(request, error);
    }
    if (!part) throw badRequest(mediaMessages.noFile, { file: [mediaMessages.noFile] });
    const file = part.file;
    const chunks = file.iterator({ destroyOnReturn: false });

    // Sniff the first bytes: a renamed text file is refused whatever its name or declared type says.
    const head: Buffer[] = [];
    let headLength = 0;
    try {
      while (headLength < SNIFF_BYTES) {
        const next = await chunks.next();
        if (next.done) break;
        head.push(next.value as Buffer);
        headLength += (next.value as Buffer).length;
      }
    } catch (error) {
      throw uploadError(request, error);
    }
    if (headLength === 0) {
      await discard(chunks);
      throw badRequest(mediaMessages.noFile, { file: [mediaMessages.noFile] });
    }
    const detected = classify((await fileTypeFromBuffer(Buffer.concat(head)))?.mime);
    if (!detected || (expected && detected.kind !== expected)) {
      await discard(chunks);
      throw unsupported(expected);
    }
    const { kind, mime } = detected;
    const maxBytes = MEDIA_RULES[kind].maxBytes;

    async function* limited() {
      let total = 0;
      const take = (chunk: Buffer) => {
        total += chunk.length;
        if (total > maxBytes) throw new TooLarge();
        return chunk;
      };
      for (const chunk of head) yield take(chunk);
      for (;;) {
        const next = await chunks.next();
        if (next.done) break;
        yield take(next.value as Buffer);
      }
    }

    const key = newStorageKey();
    let size: number;
    try {
      ({ size } = await storage.write(key, Readable.from(limited())));
    } catch (error) {
      if (error instanceof TooLarge) {
        await discard(chunks);
        throw tooLarge(kind);
      }
      throw uploadError(request, error);
    }
    if (file.truncated) {
      await storage.remove(key);
      throw tooLarge(kind);
    }

    const row = await recordUpload(services, { ownerId: viewer.id, kind, mime, key, size, originalName: part.filename ?? '' });
    // Attached to nothing yet: only its artist may open it.
    return reply.status(201).send(ok(serializeMedia(row, signer, 'artist')));
  });

  /**
   * Serve a file with HTTP Range support: either through a signed link from a content response (no header needed,
   * so `<audio src>` works) or with the Authorization header. The artist who owns it always gets it; a fan (an
   * active subscriber, or anyone holding a fans' link) only while an item they may see uses it: a draft, a
   * scheduled item, an upload attached to nothing, or a published item turned back into a draft is not theirs.
   * Nor is the original of audio or video, once processing has made what fans are served (fansMayFetch).
   */
  app.get<{ Params: { id: string } }>('/media/:id', async (request, reply) => {
    const query = parse(ServeQuery, request.query);
    const media = await findMediaForServing(db, request.params.id);
    if (!media) throw notFound('File not found');
    let variant: MediaVariant = query.size ?? 'original';
    if (!storedVariant(media, variant)) throw notFound('File not found');

    let maxAge: number;
    if (query.expires !== undefined || query.sig !== undefined) {
      const check = signer.check(media.id, variant, query.expires, query.sig, query.for ?? 'fans');
      if (check === 'invalid') throw forbidden(linkMessages.invalid);
      if (check === 'expired') throw forbidden(linkMessages.expired);
      if (query.for !== 'artist') {
        if (!media.inSight) throw notFound('File not found');
        if (!fansMayFetch(media, variant)) throw forbidden(linkMessages.originalIsArtists);
      }
      maxAge = Math.max(0, Math.min(86_400, Number(query.expires) - Math.floor(Date.now() / 1000)));
    } else {
      const viewer = await viewerForToken(services, bearerToken(request));
      if (!viewer) throw unauthorized(linkMessages.signIn);
      if (viewer.id !== media.ownerId) {
        if (!(await hasAccess(services, viewer.id, media.ownerId))) {
          // A lapsed fan still plays what they keep (decision 014).
          const period = await keptPeriod(services, viewer.id, media.ownerId);
          if (!period || !(await keptMedia(db, media.id, period))) throw forbidden();
        }
        if (!media.inSight) throw notFound('File not found');
        // Fans hear what processing made; the original is kept for the artist.
        if (variant === 'original' && media.kind === 'audio' && media.streamKey) variant = 'stream';
        if (!fansMayFetch(media, variant)) throw forbidden(linkMessages.originalIsArtists);
      }
      maxAge = 0;
    }
    const stored = storedVariant(media, variant);
    if (!stored) throw notFound('File not found');

    const { key, size, mime } = stored;
    const etag = `"${media.id}-${variant}"`;
    reply.headers({
      'accept-ranges': 'bytes',
      'content-type': mime,
      etag,
      // The bytes behind an id never change; a signed link may be cached until it expires, privately.
      'cache-control': maxAge > 0 ? `private, max-age=${maxAge}, immutable` : 'private, no-cache',
      'x-content-type-options': 'nosniff',
      'content-disposition': 'inline',
    });
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();

    const ifRange = request.headers['if-range'];
    const range = ifRange && ifRange !== etag ? undefined : parseRange(request.headers.range, size);
    if (range === 'unsatisfiable') {
      return reply.status(416).header('content-range', `bytes */${size}`).send();
    }
    if (range) {
      reply.status(206).headers({
        'content-range': `bytes ${range.start}-${range.end}/${size}`,
        'content-length': String(range.end - range.start + 1),
      });
      return reply.send(storage.read(key, range));
    }
    reply.header('content-length', String(size));
    return reply.send(storage.read(key));
  });

  /**
   * Delete an upload that nothing uses (a form the artist abandoned); media in use (a post, a collection, or the
   * artist's profile images, which name it by URL) answers 409 and stays.
   */
  app.delete<{ Params: { id: string } }>('/media/:id', async (request) => {
    const viewer = await requireArtist(services, request);
    const media = await findMedia(db, request.params.id);
    if (!media || media.ownerId !== viewer.id) throw notFound('File not found');
    await removeUnusedMedia(db, storage, [media.id]);
    if (await findMedia(db, media.id)) throw new ApiError(409, 'This file is still used by a post, a collection or your profile.');
    return ok({ success: true });
  });

  /** A failed upload is answered 400 (the client went away, or sent a broken multipart body); nothing was kept. */
  function uploadError(request: FastifyRequest, error: unknown) {
    if (error instanceof ApiError) return error;
    if (!request.raw.destroyed) log.warn({ err: error }, 'upload failed');
    return badRequest(mediaMessages.interrupted);
  }
}
