import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { bookmarkRoutes } from '../bookmarks/routes.js';
import { collectionRoutes } from '../collections/routes.js';
import { commentRoutes } from '../comments/routes.js';
import type { ApiContext } from '../context.js';
import { resolveMediaTools } from '../media/ffmpeg.js';
import { hlsRoutes } from '../media/hls.js';
import { resumableRoutes } from '../media/resumable.js';
import { mediaRoutes } from '../media/routes.js';
import { MAX_UPLOAD_BYTES } from '../media/rules.js';
import { createMediaSigner, loadMediaSecret } from '../media/signing.js';
import { pollRoutes } from '../polls/routes.js';
import { presaleRoutes } from '../presales/routes.js';
import { createMediaStorage } from '../storage/index.js';
import type { MediaStorage } from '../storage/storage.js';
import { offlineCheckRoutes } from './offline.js';
import { contentRoutes } from './routes.js';
import { transcriptRoutes } from './transcripts.js';
import type { ContentServices } from './services.js';

export interface ContentOptions {
  /** Replaces the storage the config names (S3_BUCKET, or the disk under DATA_DIR/media). */
  storage?: MediaStorage;
  /** Aborted when the api stops: the media tools still running are killed (MediaTools.signal). */
  signal?: AbortSignal;
}

/**
 * Content and everything around it: media, items, polls, comments, bookmarks, collections and presale codes.
 * Registered in its own scope so the multipart parser applies to these routes only.
 */
export async function contentApi(app: FastifyInstance, ctx: ApiContext, options: ContentOptions = {}) {
  const services: ContentServices = {
    ...ctx,
    storage: options.storage ?? createMediaStorage(ctx.config),
    signer: createMediaSigner(await loadMediaSecret(ctx.db), ctx.config.publicApiUrl),
    mediaTools: resolveMediaTools(ctx.config.media, options.signal),
  };
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1 } });
    mediaRoutes(scope, services);
    hlsRoutes(scope, services);
    resumableRoutes(scope, services);
    contentRoutes(scope, services);
    offlineCheckRoutes(scope, services);
    pollRoutes(scope, services);
    commentRoutes(scope, services);
    bookmarkRoutes(scope, services);
    collectionRoutes(scope, services);
    presaleRoutes(scope, services);
    transcriptRoutes(scope, services);
  });
  return services;
}
