import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import type { CliIo } from '../../api/cli';

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

/** A whole server (api and web) on loopback: its two ports, the addresses a browser uses, its own data folder. */
export function loopbackServerEnv(webPort: number, apiPort: number, dataDir: string) {
  return {
    REDIS_URL: '',
    APP_ENV: 'local',
    HOST: '127.0.0.1',
    PORT: String(webPort),
    API_PORT: String(apiPort),
    PUBLIC_WEB_URL: `http://127.0.0.1:${webPort}`,
    PUBLIC_API_URL: `http://127.0.0.1:${apiPort}`,
    DATA_DIR: dataDir,
  };
}

/**
 * Polls until the probe has an answer. A probe that throws counts as "not yet", so probes assert nothing: what
 * they saw is checked after, and `seen` tells on a timeout.
 */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  seen?: () => string | Promise<string>,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${seen ? ` (seen: ${await seen()})` : ''}`);
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

export interface ApiProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process has written so far (stdout and stderr). */
  output: () => string;
}

/**
 * The api from source (tsx, `SERVE=api`) in a process of its own on a free loopback port, for the tests that kill
 * it or cut its database: resolves once `/healthz` answers, and registers a SIGKILL in `cleanups` for the end.
 */
export async function startApiProcess(
  env: Record<string, string>,
  cleanups: (() => Promise<void> | void)[],
  logLevel = 'warn',
): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: path.resolve(__dirname, '../..'),
    env: {
      ...process.env,
      REDIS_URL: '',
      SERVE: 'api',
      API_PORT: String(port),
      HOST: '127.0.0.1',
      SEED_DEMO: 'true',
      LOG_LEVEL: logLevel,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const url = `http://127.0.0.1:${port}`;
  await until(
    'the api to start',
    async () => {
      if (child.exitCode !== null) throw new Error(`the api exited:\n${output}`);
      return (await fetch(`${url}/healthz`)).ok || undefined;
    },
    60_000,
    () => output,
  );
  return { url, child, output: () => output };
}

/** Resolves when the process has exited (at once if it already has). */
export function exited(child: ChildProcess) {
  return new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
  );
}

/** The CLI's output in memory, for `runCli(args, io)` in the test's own process. */
export function captureCli(env: Record<string, string | undefined>) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (line) => out.push(line), err: (line) => err.push(line), env: { ...env } as NodeJS.ProcessEnv };
  return { io, out, err };
}
