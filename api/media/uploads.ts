import type { Readable } from 'node:stream';
import type { MediaKind } from '#contract/content-types';
import type { ContentServices } from '../content/services.js';
import { ApiError } from '../http.js';
import { storeImageVariants, type ImageVariants } from './images.js';
import { queues } from '../jobs/queues.js';
import { insertMedia } from './queries.js';
import { mediaMessages } from './rules.js';

async function streamToBuffer(stream: Readable) {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

/**
 * Records a file an upload has stored under `key` as its artist's media, however it arrived (a multipart form, or a
 * resumable tus upload): an image gets its sizes at once; audio and video get the processing job, saved with the row,
 * so it exists exactly when the file does. A refused image is removed, and so is everything when the row cannot be
 * written.
 */
export async function recordUpload(
  services: Pick<ContentServices, 'db' | 'storage' | 'jobs'>,
  upload: { ownerId: string; kind: MediaKind; mime: string; key: string; size: number; originalName: string },
) {
  const { db, storage } = services;
  const { kind, key } = upload;
  let image: ImageVariants | undefined;
  if (kind === 'image') {
    try {
      // An image is at most 15 MB, so it is read whole here; sharp refuses a truncated or corrupt file, and so do we.
      image = await storeImageVariants(storage, key, await streamToBuffer(storage.read(key)));
    } catch {
      await storage.remove(key);
      throw new ApiError(415, mediaMessages.unreadableImage, { file: [mediaMessages.unreadableImage] });
    }
  }
  try {
    return await db.transaction(async (tx) => {
      const inserted = await insertMedia(tx, {
        ...upload,
        image,
        status: kind === 'image' ? 'ready' : 'processing',
        originalName: upload.originalName.slice(0, 255),
      });
      if (kind !== 'image') await services.jobs.send(queues.mediaProcess, { mediaId: inserted.id }, { key: `media:${inserted.id}`, tx });
      return inserted;
    });
  } catch (error) {
    await Promise.all([key, image?.thumbKey, image?.largeKey].map((stored) => (stored ? storage.remove(stored) : undefined)));
    throw error;
  }
}
