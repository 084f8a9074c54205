import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

/** A loopback port nobody is listening on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * Polls until the probe has an answer. A probe that throws counts as "not yet", so probes assert nothing: what
 * they saw is checked after, and `seen` tells on a timeout.
 */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, seen?: () => string) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${seen ? ` (seen: ${seen()})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** `npm run cli -- …` in a process of its own (the CLI from source, with tsx), on the embedded database unless env says. */
export function runCliProcess(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'api/cli.ts', ...args], {
      cwd: path.resolve(__dirname, '../..'),
      env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'silent', PUBLIC_WEB_URL: 'http://web.test', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
