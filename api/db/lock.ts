import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * PGlite is single-process: two processes opening DATA_DIR/pglite would corrupt it. Whoever opens it (the server,
 * or the CLI when no server runs) first creates DATA_DIR/db.lock exclusively, naming itself. The server also
 * writes DATA_DIR/admin-token (mode 0600) and its api address, so the CLI can ask it to do the work instead.
 * A lock whose process is gone (a crash, a kill -9) is stale and taken over.
 */
export interface LockHolder {
  pid: number;
  role: 'server' | 'cli';
  hostname: string;
  startedAt: string;
  /** The server's api address for the CLI, once it listens. */
  apiUrl?: string;
}

export class DatabaseLockedError extends Error {
  constructor(
    readonly holder: LockHolder | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'DatabaseLockedError';
  }
}

export const lockFile = (dataDir: string) => path.join(dataDir, 'db.lock');
export const adminTokenFile = (dataDir: string) => path.join(dataDir, 'admin-token');

export function readLock(dataDir: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(fs.readFileSync(lockFile(dataDir), 'utf8')) as LockHolder;
    return typeof holder?.pid === 'number' ? holder : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the holder may still be using the database. Only a process on this machine can be checked; a lock
 * from another host (another container on a shared volume) counts as live unless foreignIsStale says otherwise.
 */
export function isLive(holder: LockHolder, { foreignIsStale = false } = {}) {
  if (holder.hostname !== os.hostname()) return !foreignIsStale;
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface DatabaseLock {
  readonly holder: LockHolder;
  /** Records the api address once the server listens. */
  setApiUrl(apiUrl: string): void;
  /** Removes the lock (and the admin token) if it is still ours; safe to call twice. */
  release(): void;
}

export function describeHolder(holder: LockHolder) {
  const what = holder.role === 'server' ? 'a Stagedoor server' : 'a Stagedoor CLI command';
  return `${what} (pid ${holder.pid}${holder.hostname === os.hostname() ? '' : ` on ${holder.hostname}`})`;
}

/**
 * Takes the embedded database's lock for this process, or throws DatabaseLockedError naming the live holder.
 * A server starting replaces a lock left by another host (a recreated container keeps the volume, not the
 * hostname); the CLI never does.
 */
export function acquireLock(dataDir: string, role: LockHolder['role']): DatabaseLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = lockFile(dataDir);
  const holder: LockHolder = { pid: process.pid, role, hostname: os.hostname(), startedAt: new Date().toISOString() };
  // Written aside, then linked into place: link fails when the lock exists, and a reader never sees half a file.
  const draft = `${file}.${process.pid}`;
  fs.writeFileSync(draft, JSON.stringify(holder));
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        fs.linkSync(draft, file);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const current = readLock(dataDir);
      // A second collision means another process took the stale lock at the same moment: it wins.
      if (attempt > 0 || (current && isLive(current, { foreignIsStale: role === 'server' }))) {
        throw lockedError(dataDir, current);
      }
      fs.rmSync(file, { force: true });
    }
  } finally {
    fs.rmSync(draft, { force: true });
  }
  let released = false;
  return {
    holder,
    setApiUrl(apiUrl) {
      holder.apiUrl = apiUrl;
      // Replaced by a rename, so the lock never looks empty to a reader.
      fs.writeFileSync(draft, JSON.stringify(holder));
      fs.renameSync(draft, file);
    },
    release() {
      if (released) return;
      released = true;
      if (readLock(dataDir)?.pid !== process.pid) return;
      fs.rmSync(file, { force: true });
      if (role === 'server') fs.rmSync(adminTokenFile(dataDir), { force: true });
    },
  };
}

function lockedError(dataDir: string, holder: LockHolder | undefined) {
  const who = holder ? `${describeHolder(holder)} since ${holder.startedAt}` : 'another process';
  return new DatabaseLockedError(
    holder,
    `The embedded database in ${dataDir} is in use by ${who}; ` +
      `stop it first (or, if no such process runs, delete ${lockFile(dataDir)}).`,
  );
}

/** A fresh random token for the CLI to present to the running server; readable only by this user. */
export function writeAdminToken(dataDir: string) {
  const token = randomBytes(32).toString('base64url');
  const file = adminTokenFile(dataDir);
  fs.rmSync(file, { force: true });
  fs.writeFileSync(file, token, { mode: 0o600, flag: 'wx' });
  return token;
}

export function readAdminToken(dataDir: string) {
  try {
    return fs.readFileSync(adminTokenFile(dataDir), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
