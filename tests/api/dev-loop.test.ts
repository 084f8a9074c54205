import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exited, freePort, loopbackServerEnv, until } from '../helpers/process';

/**
 * `npm run dev` as an engineer uses it (docs/architecture.md "Dev loop"), in a copy of the project so that the edits
 * below touch no tracked file: a component's edit is served without a restart and the browser is told to update, and
 * an api edit restarts the process, which then answers with the change.
 */
const ROOT = path.resolve(__dirname, '../..');
/** Made by builds and runs, or not ours to copy (a .env may hold someone's settings). */
const LEFT_OUT = new Set([
  'node_modules',
  '.git',
  'build',
  'public/build',
  'data',
  '.cache',
  'tmp',
  'test-results',
  'playwright-report',
  '.env',
]);

/** The messages the compiler's live-reload socket sends to a page (what <LiveReload /> listens to). */
function liveReloadMessages(port: number) {
  const messages: { type: string; message?: string }[] = [];
  let upgraded: Duplex | undefined;
  let open: () => void = () => {};
  let fail: (error: Error) => void = () => {};
  const opened = new Promise<void>((resolve, reject) => ([open, fail] = [resolve, reject]));
  const request = http.request({
    host: '127.0.0.1',
    port,
    path: '/socket',
    headers: {
      Connection: 'Upgrade',
      Upgrade: 'websocket',
      'Sec-WebSocket-Version': '13',
      'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
    },
  });
  request.on('upgrade', (_response, socket) => {
    upgraded = socket;
    open();
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      // Unmasked frames from the server: a one-byte opcode, then a 7-, 16- or 64-bit length.
      for (;;) {
        if (pending.length < 2) return;
        let length = pending[1] & 0x7f;
        let offset = 2;
        if (length === 126) [length, offset] = [pending.length >= 4 ? pending.readUInt16BE(2) : Infinity, 4];
        else if (length === 127) [length, offset] = [pending.length >= 10 ? Number(pending.readBigUInt64BE(2)) : Infinity, 10];
        if (pending.length < offset + length) return;
        if ((pending[0] & 0x0f) === 1) messages.push(JSON.parse(pending.subarray(offset, offset + length).toString('utf8')));
        pending = pending.subarray(offset + length);
      }
    });
    socket.on('error', () => {});
  });
  request.on('error', fail);
  request.on('response', (response) => fail(new Error(`the socket answered ${response.statusCode}`)));
  request.end();
  return { messages, opened, close: () => (upgraded ?? request).destroy() };
}

describe('npm run dev', () => {
  let dir = '';
  let child: ChildProcess;
  let output = '';
  let web = '';
  let api = '';
  let devPort = 0;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-dev-loop-'));
    fs.cpSync(ROOT, dir, { recursive: true, filter: (source) => !LEFT_OUT.has(path.relative(ROOT, source)) });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    const [webPort, apiPort] = [await freePort(), await freePort()];
    devPort = await freePort();
    web = `http://127.0.0.1:${webPort}`;
    api = `http://127.0.0.1:${apiPort}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...loopbackServerEnv(webPort, apiPort, path.join(dir, 'data')),
      // Not vitest's "test": what remix dev gives the server anyway.
      NODE_ENV: 'development',
      DATABASE_URL: '',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
    };
    // A group of its own, so that the end of the test stops remix dev, our runner and the server together.
    child = spawn('npm', ['run', 'dev', '--', '--port', String(devPort)], {
      cwd: dir,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    await until(
      'npm run dev to serve the home page',
      async () => {
        if (child.exitCode !== null) throw new Error(`npm run dev exited:\n${output}`);
        return (await fetch(`${web}/`)).ok || undefined;
      },
      150_000,
      () => output,
    );
  }, 160_000);

  afterAll(async () => {
    if (child?.pid && child.exitCode === null) {
      process.kill(-child.pid, 'SIGTERM');
      const force = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 15_000);
      await exited(child);
      clearTimeout(force);
    }
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it('serves a component edit without a restart and tells the page; an api edit restarts the process', async () => {
    const first = await fetch(`${web}/`);
    const page = await first.text();
    expect(page).toContain('Stagedoor</p>');
    // The page connects to the compiler's socket, and its CSP lets it.
    expect(page).toContain('remixLiveReloadConnect');
    expect(page).toContain(`http://localhost:${devPort}`);
    expect(first.headers.get('content-security-policy')).toContain(`ws://localhost:${devPort}`);
    expect((await fetch(`${api}/healthz`)).ok).toBe(true);

    const socket = liveReloadMessages(devPort);
    try {
      await socket.opened;
      // A visible text in a component every page shows.
      const footer = path.join(dir, 'app/components/footer.tsx');
      fs.writeFileSync(footer, fs.readFileSync(footer, 'utf8').replace('} Stagedoor</p>', '} Stagedoor, edited</p>'));
      const started = Date.now();
      await until(
        'the edited footer to be served',
        async () => (await (await fetch(`${web}/`)).text()).includes('Stagedoor, edited</p>') || undefined,
        60_000,
        () => output,
      );
      console.log(`dev loop: a component's edit was served after ${((Date.now() - started) / 1000).toFixed(1)} s`);
      // The page is told once the server has taken the new build (a hot update, or a reload).
      const update = await until(
        'the socket to tell the page',
        async () => socket.messages.find((m) => m.type === 'HMR' || m.type === 'RELOAD'),
        30_000,
        () => JSON.stringify(socket.messages),
      );
      expect(['HMR', 'RELOAD']).toContain(update.type);
      expect(output).not.toContain('restarting the server');
    } finally {
      socket.close();
    }

    // A field in the api's health answer: the process starts again with it.
    const app = path.join(dir, 'api/app.ts');
    const health = "return { status: 'ok' };";
    expect(fs.readFileSync(app, 'utf8')).toContain(health);
    fs.writeFileSync(app, fs.readFileSync(app, 'utf8').replace(health, "return { status: 'ok', edited: true };"));
    const answer = await until(
      'the api to answer with the edit',
      async () => {
        const body = (await (await fetch(`${api}/healthz`)).json()) as { edited?: boolean };
        return body.edited ? body : undefined;
      },
      60_000,
      () => output,
    );
    expect(answer).toEqual({ status: 'ok', edited: true });
    expect(output).toContain('dev: server code changed, restarting the server');
    // The restarted process serves the pages too, with the component's edit.
    expect(
      await until(
        'the pages after the restart',
        async () => (await (await fetch(`${web}/`)).text()).includes('Stagedoor, edited</p>') || undefined,
        30_000,
      ),
    ).toBe(true);
  }, 150_000);
});
