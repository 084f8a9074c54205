import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireViewer } from '../auth/viewer.js';
import type { ContentServices } from '../content/services.js';
import { one } from '../db/client.js';
import { badRequest, forbidden, notFound, ok, parse } from '../http.js';
import { findMedia, storedVariant } from '../media/queries.js';
import { findArtistByUsername, serializeArtist } from './queries.js';
import { tag } from '../cache/tags.js';

/**
 * The artist's public images (avatar, cover, hero, headline). The file goes through the media upload of the content
 * api (POST /media?kind=image); this names it as a profile image. Media is private to subscribers, but a profile
 * image is public, so such images are served here, without a signed link, and only while a profile uses them.
 */

export const PROFILE_IMAGE_SLOTS = ['avatar', 'cover', 'heroImage', 'headlineImage'] as const;
export type ProfileImageSlot = (typeof PROFILE_IMAGE_SLOTS)[number];

const mediaId = z
  .union([
    z
      .string()
      .trim()
      .regex(/^[0-9a-f-]{36}$/i, { error: 'Not a media id.' }),
    z.null(),
  ])
  .optional();
const ImagesBody = z.object({ avatar: mediaId, cover: mediaId, heroImage: mediaId, headlineImage: mediaId });

const COLUMN: Record<ProfileImageSlot, string> = {
  avatar: 'users.avatar',
  cover: 'artist_profiles.cover',
  heroImage: 'artist_profiles.hero_image',
  headlineImage: 'artist_profiles.headline_image',
};

export function profileImagePath(id: string) {
  return `/performers/images/${id}`;
}

export function performerImageRoutes(app: FastifyInstance, services: ContentServices) {
  const { db, storage, config } = services;

  /** Sets (a media id) or clears (null) each image given; answers the artist. */
  app.put('/performers/me/images', async (request) => {
    const viewer = await requireViewer(services, request);
    if (!viewer.isPerformer) throw forbidden('Only artists have a profile to edit.');
    const body = parse(ImagesBody, request.body);
    const values: Partial<Record<ProfileImageSlot, string>> = {};
    for (const slot of PROFILE_IMAGE_SLOTS) {
      const id = body[slot];
      if (id === undefined) continue;
      if (id === null) {
        values[slot] = '';
        continue;
      }
      const media = await findMedia(db, id);
      if (!media || media.ownerId !== viewer.id)
        throw badRequest('That image was not found among your uploads.', { [slot]: ['Not found'] });
      if (media.kind !== 'image') throw badRequest('Please choose an image.', { [slot]: ['Please choose an image.'] });
      values[slot] = `${config.publicApiUrl}${profileImagePath(id)}`;
    }
    await db.transaction(async (tx) => {
      for (const [slot, value] of Object.entries(values) as [ProfileImageSlot, string][]) {
        const [table, column] = COLUMN[slot].split('.');
        const key = table === 'users' ? 'id' : 'user_id';
        await tx.query(`UPDATE ${table} SET ${column} = $2, updated_at = now() WHERE ${key} = $1`, [viewer.id, value]);
      }
    });
    await services.cache.invalidate(tag.user(viewer.id), tag.artist(viewer.id));
    const artist = await findArtistByUsername(db, viewer.username, viewer.id);
    return ok(serializeArtist(artist!));
  });

  /** A profile image, public while an artist's profile names it, at its display size. */
  app.get<{ Params: { id: string } }>('/performers/images/:id', async (request, reply) => {
    const { id } = request.params;
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound('Image not found');
    const suffix = profileImagePath(id);
    const used = await one(
      db,
      `SELECT 1 FROM users u JOIN artist_profiles p ON p.user_id = u.id
        WHERE u.is_performer AND (u.avatar LIKE '%' || $1 OR p.cover LIKE '%' || $1 OR p.hero_image LIKE '%' || $1 OR p.headline_image LIKE '%' || $1)
        LIMIT 1`,
      [suffix],
    );
    const media = used ? await findMedia(db, id) : undefined;
    if (!media || media.kind !== 'image') throw notFound('Image not found');
    // The display size (1280 px WebP) where there is one: an avatar or a cover never needs a 15 MB camera original.
    const { key, size, mime } = storedVariant(media, 'large') ?? storedVariant(media, 'original')!;
    reply.headers({
      'content-type': mime,
      'content-length': String(size),
      // The bytes behind an id never change.
      'cache-control': 'public, max-age=86400',
      'x-content-type-options': 'nosniff',
    });
    return reply.send(storage.read(key));
  });
}
