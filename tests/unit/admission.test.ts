import express from 'express';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
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
    const answers = ['a', 'b', 'c', 'd'].map(async (page, i) => {
      await tick(i * 15);
      return (await fetch(`${base}/${page}`)).text();
    });
    await tick(150);
    expect(started).toEqual(['a', 'b']);
    expect(gate.waiting).toBe(2);
    open.get('b')!();
    await tick();
    expect(started).toEqual(['a', 'b', 'c']);
    open.get('a')!();
    await tick();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    open.get('c')!();
    open.get('d')!();
    expect(await Promise.all(answers)).toEqual(['page a', 'page b', 'page c', 'page d']);
    expect(gate.running).toBe(0);
  });

  it('answers a page that waited too long 503 with Retry-After, and never starts it', async () => {
    running = await serve(1, 200);
    const { open, started, base } = running;
    const first = fetch(`${base}/a`);
    await tick();
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
    await tick();
    const queued = new AbortController();
    const left = fetch(`${base}/b`, { signal: queued.signal }).catch(() => 'aborted');
    await tick();
    const next = fetch(`${base}/c`);
    await tick();
    expect(gate.waiting).toBe(2);
    queued.abort();
    await tick();
    expect(gate.waiting).toBe(1);
    leaving.abort();
    await tick(80);
    expect(started).toEqual(['a', 'c']);
    open.get('c')!();
    expect((await next).status).toBe(200);
    expect(await gone).toBe('aborted');
    expect(await left).toBe('aborted');
  });

  it('lets uploads (multipart forms) through without taking a place', async () => {
    running = await serve(1, 5000);
    const { open, started, base } = running;
    const page = fetch(`${base}/a`);
    await tick();
    const form = new FormData();
    form.append('file', new Blob(['x']), 'x.txt');
    const upload = fetch(`${base}/upload`, { method: 'POST', body: form });
    await tick();
    expect(started).toEqual(['a', 'upload']);
    open.get('upload')!();
    open.get('a')!();
    expect((await upload).status).toBe(200);
    expect((await page).status).toBe(200);
  });
});
