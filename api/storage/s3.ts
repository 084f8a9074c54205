import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { assertValidKey, type ByteRange, type MediaStorage } from './storage.js';

export interface S3Settings {
  bucket: string;
  /** An S3-compatible service's address (MinIO, R2, Ceph…); unset for AWS itself. */
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Keys under a prefix of their own in a shared bucket. */
  prefix: string;
}

/** How many objects are removed at once when a video's ladder goes. */
const REMOVE_BATCH = 16;

function missing(error: unknown) {
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  const name = (error as { name?: string }).name;
  return status === 404 || name === 'NotFound' || name === 'NoSuchKey';
}

/**
 * Media in an S3-compatible bucket (docs/media.md, "Shared storage"), so every api node sees every upload. A write
 * is spooled to a temporary file first: the object is put whole, with its length, only once the upload has
 * arrived complete, so a failed or aborted upload never leaves part of an object behind (as the disk's rename).
 */
export function createS3Storage(settings: S3Settings): MediaStorage {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    // Path-style addressing (bucket in the path) is what S3-compatible services answer everywhere.
    forcePathStyle: Boolean(settings.endpoint),
    credentials:
      settings.accessKeyId && settings.secretAccessKey
        ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
        : undefined,
    // Checksums only where S3 requires them: S3-compatible services do not all read streamed trailing checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = settings.bucket;
  const objectKey = (key: string) => {
    assertValidKey(key);
    return `${settings.prefix}${key}`;
  };

  async function removeOne(key: string) {
    await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
  }

  return {
    async write(key, source) {
      const Key = objectKey(key);
      const spool = path.join(os.tmpdir(), `stagedoor-s3-${randomUUID()}`);
      try {
        await pipeline(source, fs.createWriteStream(spool, { flags: 'wx', mode: 0o600 }));
        const size = (await fs.promises.stat(spool)).size;
        await client.send(new PutObjectCommand({ Bucket, Key, Body: fs.createReadStream(spool), ContentLength: size }));
        return { size };
      } finally {
        await fs.promises.rm(spool, { force: true });
      }
    },
    read(key, range?: ByteRange) {
      const out = new PassThrough();
      client
        .send(new GetObjectCommand({ Bucket, Key: objectKey(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }))
        .then((answer) => pipeline(answer.Body as Readable, out))
        .catch((error: unknown) => out.destroy(error as Error));
      return out;
    },
    async size(key) {
      try {
        return (await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }))).ContentLength;
      } catch (error) {
        if (missing(error)) return undefined;
        throw error;
      }
    },
    async remove(key) {
      await removeOne(objectKey(key));
      // What is stored under key/ (a video's HLS ladder) goes with it.
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: `${objectKey(key)}/`, ContinuationToken: token }));
        const keys = (page.Contents ?? []).map((object) => object.Key!).filter(Boolean);
        for (let i = 0; i < keys.length; i += REMOVE_BATCH) await Promise.all(keys.slice(i, i + REMOVE_BATCH).map(removeOne));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    async *list() {
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: settings.prefix || undefined, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) {
          if (object.Key) yield { key: object.Key.slice(settings.prefix.length), size: object.Size ?? 0 };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}
