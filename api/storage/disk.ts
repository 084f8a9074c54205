import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { assertValidKey, type ByteRange, type MediaStorage } from './storage.js';

/**
 * Media on the local disk under root (DATA_DIR/media). A write goes to a temporary file in the same file system
 * and is renamed into place only when complete, so a failed or aborted upload never leaves half a file behind.
 */
export function createDiskStorage(root: string): MediaStorage {
  const tmpDir = path.join(root, '.tmp');
  fs.mkdirSync(tmpDir, { recursive: true });
  // Temporary files left by a crash in a previous run are never renamed into place: clear them.
  for (const name of fs.readdirSync(tmpDir)) fs.rmSync(path.join(tmpDir, name), { force: true });

  const fileFor = (key: string) => {
    assertValidKey(key);
    return path.join(root, key);
  };

  return {
    async write(key, source) {
      const target = fileFor(key);
      const tmp = path.join(tmpDir, randomUUID());
      let size: number;
      try {
        await pipeline(source, fs.createWriteStream(tmp, { flags: 'wx', mode: 0o600 }));
        size = (await fs.promises.stat(tmp)).size;
        await fs.promises.mkdir(path.dirname(target), { recursive: true });
        await fs.promises.rename(tmp, target);
      } catch (error) {
        await fs.promises.rm(tmp, { force: true });
        throw error;
      }
      return { size };
    },
    read(key, range?: ByteRange) {
      return fs.createReadStream(fileFor(key), range ? { start: range.start, end: range.end } : undefined);
    },
    async size(key) {
      try {
        return (await fs.promises.stat(fileFor(key))).size;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async remove(key) {
      await fs.promises.rm(fileFor(key), { force: true, recursive: true });
    },
    async *list() {
      // Uploads still being written live in .tmp: they are no one's media yet.
      const walk = async function* (dir: string, prefix: string): AsyncGenerator<{ key: string; size: number }> {
        const entries = await fs.promises.readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return [];
          throw error;
        });
        for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
          if (!prefix && entry.name === '.tmp') continue;
          const file = path.join(dir, entry.name);
          if (entry.isDirectory()) yield* walk(file, `${prefix}${entry.name}/`);
          else if (entry.isFile()) yield { key: `${prefix}${entry.name}`, size: (await fs.promises.stat(file)).size };
        }
      };
      yield* walk(root, '');
    },
  };
}
