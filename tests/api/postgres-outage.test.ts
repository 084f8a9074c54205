import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, TEST_DATABASE_URL } from '../helpers/api';
import { freePort, until } from '../helpers/process';

/**
 * PostgreSQL goes away while the app serves (`npm run test:faults`): requests fail fast with a clear
 * 503 (api) and a 503 page (web), the process stays up, and it serves again by itself once the database is back.
 * The outage is made at the network: the app reaches PostgreSQL through a TCP relay that the test cuts (every
 * connection dropped, new ones refused) and restores, as a database restart or a network partition would.
 */

const ROOT = path.resolve(__dirname, '../..');
const skip = TEST_DATABASE_URL ? false : 'set TEST_DATABASE_URL=postgres://… to run it';

/**
 * A TCP relay to PostgreSQL that can be cut (every connection dropped, new ones refused), silenced (connections
 * stay open and new ones are taken, but nothing gets through either way: a network partition) and restored.
 */
function relay(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let up = true;
  let silent = false;
  const server = net.createServer((client) => {
    if (!up) return client.destroy();
    if (silent) {
      sockets.add(client);
      client.on('close', () => sockets.delete(client));
      client.on('error', () => client.destroy());
      return;
    }
    const upstream = net.connect(target);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  return {
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return (server.address() as net.AddressInfo).port;
    },
    cut() {
      up = false;
      for (const socket of sockets) socket.destroy();
    },
    silence() {
      silent = true;
      for (const socket of sockets) {
        socket.unpipe();
        socket.pause();
      }
    },
    restore() {
      // Connections that lived through a silence are reset, as a partition's end leaves them.
      if (silent) for (const socket of sockets) socket.destroy();
      silent = false;
      up = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(Boolean(skip))(`PostgreSQL outage${skip ? ` — skipped: ${skip}` : ''}`, () => {
  const pgUrl = new URL(TEST_DATABASE_URL ?? 'postgres://localhost');
  const link = relay({ host: pgUrl.hostname, port: Number(pgUrl.port || 5432) });
  let child: ChildProcess;
  let output = '';
  let web = '';
  let api = '';
  let dropSchema: () => Promise<void>;
  let dataDir = '';

  beforeAll(async () => {
    const database = await openTestDb('PostgreSQL');
    dropSchema = database.drop;
    const url = new URL(TEST_DATABASE_URL!);
    url.hostname = '127.0.0.1';
    url.port = String(await link.listen());
    url.searchParams.set('options', `-c search_path=${database.schema}`);
    const [webPort, apiPort] = [await freePort(), await freePort()];
    web = `http://127.0.0.1:${webPort}`;
    api = `http://127.0.0.1:${apiPort}`;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-outage-'));
    child = spawn(process.execPath, ['build/server/index.js'], {
      cwd: ROOT,
      env: {
        ...process.env,
        REDIS_URL: '',
        APP_ENV: 'local',
        PORT: String(webPort),
        API_PORT: String(apiPort),
        HOST: '127.0.0.1',
        PUBLIC_API_URL: api,
        PUBLIC_WEB_URL: web,
        DATABASE_URL: url.toString(),
        DATA_DIR: dataDir,
        SEED_DEMO: 'true',
        LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    await until(
      'the app to start',
      async () => ((await fetch(`${web}/healthz`)).ok && (await fetch(`${api}/healthz`)).ok) || undefined,
      60_000,
    );
  }, 90_000);

  afterAll(async () => {
    child?.kill('SIGKILL');
    link.restore();
    await link.close();
    await dropSchema?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 fast while the database is gone, stays up, and recovers by itself when it returns', { timeout: 90_000 }, async () => {
    expect((await fetch(`${api}/performers/juniperlane`)).status).toBe(200);
    expect((await fetch(`${web}/juniperlane/join`)).status).toBe(200);

    link.cut();

    const started = Date.now();
    // For the moment it takes the api to notice, it may still answer what it holds in memory (no write can commit
    // meanwhile); from then on its read cache is off and every call that needs the database answers 503.
    const statuses: number[] = [];
    const apiAnswer = await until(
      'the api to answer 503',
      async () => {
        const answer = await fetch(`${api}/performers/juniperlane`);
        statuses.push(answer.status);
        if (answer.status === 503) return answer;
        await answer.arrayBuffer();
        return undefined;
      },
      6000,
      () => statuses.join(', '),
    );
    // Until then it answered from memory: 200, never anything else (a 500 would be a bug).
    expect(
      statuses.filter((status) => status !== 200 && status !== 503),
      output,
    ).toEqual([]);
    expect(apiAnswer.headers.get('retry-after')).toBe('5');
    expect(await apiAnswer.json()).toEqual({
      status: 503,
      code: 'database_unavailable',
      message: "We can't reach our database right now. Please try again in a moment.",
    });
    // Fast: the cut relay refuses connections, and a refused connection fails at once. (A silent server is not
    // tried here: docs/security.md says what it does.)
    expect(Date.now() - started).toBeLessThan(6000);

    const pageStarted = Date.now();
    const page = await fetch(`${web}/juniperlane/join`);
    expect(page.status).toBe(503);
    // The web does not retry a database_unavailable answer: retries (1 s, 2 s, 4 s) would only keep the fan waiting.
    expect(Date.now() - pageStarted).toBeLessThan(3000);
    const html = await page.text();
    expect(html).toContain('Sorry. Something&#x27;s gone wrong.');
    expect(html).toContain('Try refreshing the page or heading back to the previous page.');
    expect((await fetch(`${api}/healthz`)).status).toBe(503);
    // Pages that need no data still load.
    expect((await fetch(`${web}/password/reset/request`)).status).toBe(200);
    expect(child.exitCode).toBeNull();

    link.restore();

    await until(
      'the api to serve again',
      async () => ((await fetch(`${api}/performers/juniperlane`)).status === 200 ? true : undefined),
      30_000,
    );
    expect((await fetch(`${web}/juniperlane/join`)).status).toBe(200);
    expect((await fetch(`${api}/healthz`)).status).toBe(200);
    expect(child.exitCode).toBeNull();
  });

  it(
    'answers 503 when the database goes silent (a partition: nothing refused, nothing answered), then recovers',
    { timeout: 90_000 },
    async () => {
      expect((await fetch(`${api}/performers/user/search?q=juniper`)).status).toBe(200);
      expect((await fetch(`${api}/performers/juniperlane`)).status).toBe(200);

      link.silence();

      // A read that needs the database waits at most the query timeout (5 s), not for TCP to give up.
      const started = Date.now();
      const answer = await fetch(`${api}/performers/user/search?q=lane`);
      expect(answer.status, output).toBe(503);
      expect((await answer.json()).code).toBe('database_unavailable');
      expect(Date.now() - started).toBeLessThan(8000);
      // What the api held in memory stops being answered once the listening connection fails its heartbeat.
      await until(
        'cached reads to stop too',
        async () => ((await fetch(`${api}/performers/juniperlane`)).status === 503 ? true : undefined),
        15_000,
      );
      expect(child.exitCode).toBeNull();

      link.restore();

      await until(
        'the api to serve again',
        async () => ((await fetch(`${api}/performers/user/search?q=juniper`)).status === 200 ? true : undefined),
        30_000,
      );
      await until(
        'cached reads to come back',
        async () => ((await fetch(`${api}/performers/juniperlane`)).status === 200 ? true : undefined),
        30_000,
      );
      expect((await fetch(`${web}/juniperlane/join`)).status).toBe(200);
    },
  );
});
