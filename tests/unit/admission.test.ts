import express from 'express';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { admission } from '../../server/admission';

/** A real express server whose pages finish when the test says so. */
async function serve(limit: number, maxWaitMs: number) {
  const gate = admission({ limit, maxWaitMs });
  const open = new Map<string, () => void>();
  const started: string[] = [];
  const app = express();
  app.use(gate);
  app.all('/:page', (req, res) => {
    started.push(req.params.page);
    open.set(req.params.page, () => {
      if (!res.headersSent && !res.destroyed) res.send(`page ${req.params.page}`);
    });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  };
  return { gate, open, started, base, close };
}

const tick = (ms = 30) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits (up to 5 s) until the check passes: a loaded machine may take longer than a tick to pass a request along. */
const until = (check: () => void) => vi.waitFor(check, { timeout: 5000, interval: 10 });
let running: Awaited<ReturnType<typeof serve>> | undefined;
afterEach(async () => {
  for (const finish of running?.open.values() ?? []) finish();
  await running?.close();
  running = undefined;
});

describe('page admission', () => {
  it('renders at most `limit` pages at once and starts the others in the order they came', async () => {
    running = await serve(2, 5000);
    const { open, started, base, gate } = running;
    const answers: Promise<string>[] = [];
    for (const [i, page] of ['a', 'b', 'c', 'd'].entries()) {
      answers.push(fetch(`${base}/${page}`).then((answer) => answer.text()));
      // Each arrives after the one before it: the first two start, the others wait in line.
      await until(() => expect(started.length + gate.waiting).toBe(i + 1));
    }
    expect(started).toEqual(['a', 'b']);
    expect(gate.waiting).toBe(2);
    open.get('b')!();
    await until(() => expect(started).toEqual(['a', 'b', 'c']));
    open.get('a')!();
    await until(() => expect(started).toEqual(['a', 'b', 'c', 'd']));
    open.get('c')!();
    open.get('d')!();
    expect(await Promise.all(answers)).toEqual(['page a', 'page b', 'page c', 'page d']);
    expect(gate.running).toBe(0);
  });

  it('answers a page that waited too long 503 with Retry-After, and never starts it', async () => {
    running = await serve(1, 200);
    const { open, started, base } = running;
    const first = fetch(`${base}/a`);
    await until(() => expect(started).toEqual(['a']));
    const late = await fetch(`${base}/b`);
    expect(late.status).toBe(503);
    expect(late.headers.get('retry-after')).toBe('5');
    expect(await late.text()).toContain('So many fans at once');
    open.get('a')!();
    expect((await first).status).toBe(200);
    await tick();
    expect(started).toEqual(['a']);
  });

  it('gives the place of a fan who gave up to the next one, and drops a fan who left the line', async () => {
    running = await serve(1, 5000);
    const { open, started, base, gate } = running;
    const leaving = new AbortController();
    const gone = fetch(`${base}/a`, { signal: leaving.signal }).catch(() => 'aborted');
    await until(() => expect(started).toEqual(['a']));
    const queued = new AbortController();
    const left = fetch(`${base}/b`, { signal: queued.signal }).catch(() => 'aborted');
    await until(() => expect(gate.waiting).toBe(1));
    const next = fetch(`${base}/c`);
    await until(() => expect(gate.waiting).toBe(2));
    queued.abort();
    await until(() => expect(gate.waiting).toBe(1));
    leaving.abort();
    await until(() => expect(started).toEqual(['a', 'c']));
    open.get('c')!();
    expect((await next).status).toBe(200);
    expect(await gone).toBe('aborted');
    expect(await left).toBe('aborted');
  });

  it('lets uploads (multipart forms) through without taking a place', async () => {
    running = await serve(1, 5000);
    const { open, started, base } = running;
    const page = fetch(`${base}/a`);
    await until(() => expect(started).toEqual(['a']));
    const form = new FormData();
    form.append('file', new Blob(['x']), 'x.txt');
    const upload = fetch(`${base}/upload`, { method: 'POST', body: form });
    await until(() => expect(started).toEqual(['a', 'upload']));
    open.get('upload')!();
    open.get('a')!();
    expect((await upload).status).toBe(200);
    expect((await page).status).toBe(200);
  });
});
