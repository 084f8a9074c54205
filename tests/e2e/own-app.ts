import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface OwnApp {
  web: string;
  stop(): Promise<void>;
}

/**
 * The built app started a second time, as `npm run serve` starts it, for the specs that need one configured their
 * own way (Stripe keys, an empty install): on the suite's ports plus `offset`, on a fresh data directory that `stop`
 * removes. Resolves once the web answers /healthz.
 */
export async function startOwnApp(options: {
  offset: number;
  name: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}): Promise<OwnApp> {
  const webPort = Number(process.env.E2E_WEB_PORT ?? 3100) + options.offset;
  const apiPort = Number(process.env.E2E_API_PORT ?? 8180) + options.offset;
  const web = `http://localhost:${webPort}`;
  const answers = () =>
    fetch(`${web}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
  // Another server on this port would answer the health check below and the test would drive the wrong app.
  const taken = await fetch(`${web}/healthz`).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`port ${webPort} is already in use: set E2E_WEB_PORT so that E2E_WEB_PORT+${options.offset} is free`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `stagedoor-e2e-${options.name}-`));
  const server = spawn('node', ['build/server/index.js'], {
    env: {
      ...process.env,
      APP_ENV: 'local',
      PORT: String(webPort),
      API_PORT: String(apiPort),
      PUBLIC_API_URL: `http://localhost:${apiPort}`,
      PUBLIC_WEB_URL: web,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      REDIS_URL: '',
      ...options.env,
    },
    stdio: 'ignore',
  });
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  while (!(await answers())) {
    if (server.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the ${options.name} app did not start`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { web, stop };
}
