import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Seeds the demo data in a short-lived child process (the operator CLI's `seed`, bundled beside this entry), so
 * what seeding loads and grows (sharp for the demo pictures, argon2 for the demo passwords, PGlite's heap after the
 * inserts) is given back when it ends instead of staying in the server for its lifetime (about 80 MB
 * of an idle server's memory). False when there is no built CLI (the source run by tests) or it failed: the
 * caller then seeds in process as before.
 */
export function seedInChild(): boolean {
  const cli = fileURLToPath(new URL('./cli.js', import.meta.url));
  if (!fs.existsSync(cli)) return false;
  const child = spawnSync(process.execPath, [cli, 'seed'], { stdio: ['ignore', 'inherit', 'inherit'], env: process.env });
  return child.status === 0;
}
