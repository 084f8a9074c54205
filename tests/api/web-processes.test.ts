import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, until } from '../helpers/process';

/**
 * WEB_PROCESSES (docs/operations.md "Using the cores"): the built server as `npm start` runs it, with the pages rendered by two
 * processes beside the api's. Every page still works (the web processes reach the api over loopback), a web process
 * that dies is replaced, and SIGTERM stops them all.
 */
const ROOT = path.resolve(__dirname, '../..');

/** The ids of the processes whose parent is `pid`, from /proc. */
function childrenOf(pid: number) {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('the web tier as several processes', () => {
  let child: ChildProcess;
  let output = '';
  let web = '';
  let api = '';
  let dataDir = '';

  beforeAll(async () => {
    const [webPort, apiPort] = [await freePort(), await freePort()];
    web = `http://127.0.0.1:${webPort}`;
    api = `http://127.0.0.1:${apiPort}`;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-web-processes-'));
    child = spawn(process.execPath, ['build/server/index.js'], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        REDIS_URL: '',
        DATABASE_URL: '',
        APP_ENV: 'local',
        PORT: String(webPort),
        API_PORT: String(apiPort),
        HOST: '127.0.0.1',
        PUBLIC_API_URL: api,
        PUBLIC_WEB_URL: web,
        DATA_DIR: dataDir,
        SEED_DEMO: 'true',
        LOG_LEVEL: 'error',
        WEB_PROCESSES: '2',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    await until(
      'the app to start',
      async () => (output.includes('(2 processes)') && (await fetch(`${web}/healthz`)).ok) || undefined,
      90_000,
      () => output,
    );
  }, 120_000);

  afterAll(async () => {
    child?.kill('SIGKILL');
    for (const pid of childrenOf(child.pid!)) process.kill(pid, 'SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'renders signed-in pages from two processes, replaces one that dies, and stops them all on SIGTERM',
    { timeout: 120_000 },
    async () => {
      const workers = childrenOf(child.pid!);
      expect(workers).toHaveLength(2);

      const login = await fetch(`${api}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'fan@stagedoor.test', password: 'Stagedoor-fan-2026!' }),
      });
      const { token } = (await login.json()).data;
      const page = async () => {
        const answer = await fetch(`${web}/thelatenights`, { headers: { cookie: `stagedoor=${token}` } });
        return { status: answer.status, html: await answer.text() };
      };
      // Connections go to the processes in turn: four pages in a row are rendered by both.
      for (let i = 0; i < 4; i++) {
        const { status, html } = await page();
        expect(status).toBe(200);
        expect(html).toContain('The Late Nights');
      }

      process.kill(workers[0], 'SIGKILL');
      const replaced = await until(
        'a new web process',
        async () => {
          const now = childrenOf(child.pid!);
          return now.length === 2 && !now.includes(workers[0]) ? now : undefined;
        },
        60_000,
        () => output,
      );
      expect(replaced).toContain(workers[1]);
      await until('the new process to answer', async () => ((await page()).status === 200 ? true : undefined), 60_000);
      expect((await page()).html).toContain('The Late Nights');

      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(replaced.filter((pid) => fs.existsSync(`/proc/${pid}`))).toEqual([]);
    },
  );
});
