import { Readable } from 'node:stream';
import { LARGE_WIDTH, THUMB_WIDTH } from '#contract/image-sizes';
import type { MediaStorage } from '../storage/storage.js';

export interface ImageVariants {
  /** The size people see: EXIF orientation 5–8 swaps the stored width and height. */
  width: number | null;
  height: number | null;
  thumbKey: string;
  thumbSize: number;
  /** Null when the thumbnail already shows the whole picture, or for an animated GIF (a still would lose it). */
  largeKey: string | null;
  largeSize: number | null;
}

/**
 * sharp (libvips) is about 30 MB of a process's memory: it is loaded by the first image that needs it, so a server
 * that is only serving pages does not carry it.
 */
export async function loadSharp() {
  return (await import('sharp')).default;
}

async function webp(input: Buffer, width: number, quality: number) {
  const sharp = await loadSharp();
  return sharp(input).rotate().resize({ width, withoutEnlargement: true }).webp({ quality }).toBuffer();
}

/**
 * Reads an image's size and stores its WebP variants beside the original under `key`: the 480 px thumbnail and,
 * for anything wider, the 1280 px display size. Throws for a file sharp cannot read (truncated, corrupt).
 */
export async function storeImageVariants(storage: MediaStorage, key: string, input: Buffer): Promise<ImageVariants> {
  const sharp = await loadSharp();
  const meta = await sharp(input).metadata();
  const swap = (meta.orientation ?? 1) >= 5;
  const width = (swap ? meta.height : meta.width) ?? null;
  const height = (swap ? meta.width : meta.height) ?? null;
  const animated = (meta.pages ?? 1) > 1;
  const wantsLarge = !animated && (width ?? 0) > THUMB_WIDTH;
  const [thumb, large] = await Promise.all([webp(input, THUMB_WIDTH, 75), wantsLarge ? webp(input, LARGE_WIDTH, 80) : null]);
  const thumbKey = `${key}-thumb`;
  const largeKey = large ? `${key}-large` : null;
  const [thumbWritten, largeWritten] = await Promise.all([
    storage.write(thumbKey, Readable.from([thumb])),
    large && largeKey ? storage.write(largeKey, Readable.from([large])) : null,
  ]);
  return { width, height, thumbKey, thumbSize: thumbWritten.size, largeKey, largeSize: largeWritten?.size ?? null };
}
