import path from 'node:path';
import type { Config } from '#contract/config';
import { createDiskStorage } from './disk.js';
import { createS3Storage } from './s3.js';
import type { MediaStorage } from './storage.js';

/** Where media live: the S3-compatible bucket when S3_BUCKET is set, else the disk under DATA_DIR/media. */
export function createMediaStorage(config: Pick<Config, 'dataDir' | 'media'>): MediaStorage {
  if (config.media.s3) return createS3Storage(config.media.s3);
  return createDiskStorage(path.join(config.dataDir, 'media'));
}
