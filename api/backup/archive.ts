import { createHash } from 'node:crypto';
import fs from 'node:fs';
import readline from 'node:readline';
import { createGunzip } from 'node:zlib';

/**
 * A backup is one gzip'd file of JSON lines, read and written as a stream (no archiver to install, and an operator
 * can look inside with `zcat FILE | head`). Each line is an object with one key saying what it is:
 *
 *   {"header": {"format": "stagedoor-backup", "version": 1, "createdAt", "database", "migrations": [...]}}
 *   {"table": {"scope": "app" | "jobs", "name", "columns": [...]}}   then one {"r": {...}} per row (row_to_json)
 *   {"file": {"kind": "media" | "data", "key"}}   then {"d": "<base64>"} lines, then {"end": {"size", "sha256"}}
 *   {"manifest": {"tables": [{scope, name, rows}], "files": [{kind, key, size, sha256}]}}   always the last line
 *
 * The manifest comes last because the sizes and hashes are known only once the bytes have been written; a file that
 * lacks it was cut short.
 */

export const BACKUP_FORMAT = 'stagedoor-backup';
export const BACKUP_VERSION = 1;

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  database: 'pglite' | 'postgres';
  /** The schema the rows were taken from: the ids of the migrations applied. */
  migrations: string[];
}

export interface TableEntry {
  /** `app`: the api's own schema; `jobs`: the job queue's (pg-boss) schema. */
  scope: 'app' | 'jobs';
  name: string;
  columns: string[];
}

export interface FileEntry {
  /** `media`: a key of the media storage; `data`: a file of DATA_DIR (the generated push keys). */
  kind: 'media' | 'data';
  key: string;
}

export interface Manifest {
  tables: { scope: TableEntry['scope']; name: string; rows: number }[];
  files: (FileEntry & { size: number; sha256: string })[];
}

export type Line =
  | { header: BackupHeader }
  | { table: TableEntry }
  | { r: Record<string, unknown> }
  | { file: FileEntry }
  | { d: string }
  | { end: { size: number; sha256: string } }
  | { manifest: Manifest };

/** What is wrong with a file given as a backup, in words for the operator. */
export class BadBackupError extends Error {}

/** The lines of a backup file, parsed, in order; a file that is not gzip'd JSON lines fails with BadBackupError. */
export async function* readLines(file: string): AsyncGenerator<Line> {
  const input = fs.createReadStream(file);
  const gunzip = createGunzip();
  // An error of the file or of gzip ends the line reader below, which would otherwise wait for ever.
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure ??= error;
    lines.close();
    gunzip.destroy();
  };
  input.on('error', fail);
  gunzip.on('error', fail);
  const lines = readline.createInterface({ input: input.pipe(gunzip), crlfDelay: Infinity });
  lines.on('error', fail);
  let number = 0;
  try {
    for await (const text of lines) {
      number++;
      if (!text) continue;
      let line: Line;
      try {
        line = JSON.parse(text) as Line;
      } catch {
        throw new BadBackupError(`line ${number} is not JSON`);
      }
      if (typeof line !== 'object' || line === null || Array.isArray(line)) throw new BadBackupError(`line ${number} is not an entry`);
      yield line;
    }
  } finally {
    input.destroy();
  }
  if (failure) {
    const code = (failure as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') throw failure;
    throw new BadBackupError(code?.startsWith('Z_') ? 'it is not gzip-compressed or it is damaged' : failure.message);
  }
}

/**
 * Reads a whole backup and checks it against its own manifest: every table's row count, every file's size and
 * sha256, the manifest last. Answers the header and manifest; throws BadBackupError saying what is wrong.
 */
export async function verifyBackup(file: string): Promise<{ header: BackupHeader; manifest: Manifest }> {
  let header: BackupHeader | undefined;
  let manifest: Manifest | undefined;
  const tables: Manifest['tables'] = [];
  const files: Manifest['files'] = [];
  let open: { entry: FileEntry; hash: ReturnType<typeof createHash>; size: number } | undefined;
  for await (const line of readLines(file)) {
    if (manifest) throw new BadBackupError('there is more after its manifest');
    if (!header) {
      if (!('header' in line) || line.header?.format !== BACKUP_FORMAT)
        throw new BadBackupError('it does not start with a Stagedoor backup header');
      header = line.header;
      if (typeof header.version !== 'number' || !Array.isArray(header.migrations)) throw new BadBackupError('its header is incomplete');
      if (header.version > BACKUP_VERSION) {
        throw new BadBackupError(
          `it is in backup format ${header.version}, newer than this Stagedoor reads (${BACKUP_VERSION}); upgrade first`,
        );
      }
      continue;
    }
    if ('d' in line) {
      if (!open) throw new BadBackupError('it has file data outside a file');
      const bytes = Buffer.from(line.d, 'base64');
      open.hash.update(bytes);
      open.size += bytes.length;
      continue;
    }
    if (open && !('end' in line)) throw new BadBackupError(`the media file ${open.entry.key} is cut short`);
    if ('r' in line) {
      if (!tables.length) throw new BadBackupError('it has a row outside a table');
      tables[tables.length - 1].rows++;
    } else if ('table' in line) {
      tables.push({ scope: line.table.scope, name: line.table.name, rows: 0 });
    } else if ('file' in line) {
      open = { entry: line.file, hash: createHash('sha256'), size: 0 };
    } else if ('end' in line) {
      if (!open) throw new BadBackupError('it ends a file it never began');
      const sha256 = open.hash.digest('hex');
      if (open.size !== line.end.size || sha256 !== line.end.sha256) throw new BadBackupError(`the file ${open.entry.key} is damaged`);
      files.push({ kind: open.entry.kind, key: open.entry.key, size: open.size, sha256 });
      open = undefined;
    } else if ('manifest' in line) {
      manifest = line.manifest;
    } else {
      throw new BadBackupError(`it has an entry this Stagedoor does not know (${Object.keys(line)[0]})`);
    }
  }
  if (!header) throw new BadBackupError('it is empty');
  if (!manifest) throw new BadBackupError('it is cut short (no manifest at its end)');
  const tableList = (list: Manifest['tables']) => (list ?? []).map((t) => `${t.scope}.${t.name}:${t.rows}`).join('\n');
  const fileList = (list: Manifest['files']) => (list ?? []).map((f) => `${f.kind}:${f.key}:${f.size}:${f.sha256}`).join('\n');
  if (tableList(manifest.tables) !== tableList(tables)) throw new BadBackupError('its rows do not match its manifest');
  if (fileList(manifest.files) !== fileList(files)) throw new BadBackupError('its files do not match its manifest');
  return { header, manifest };
}
