import express from 'express';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWebLog, pageLog } from '../../server/log';

/** A real express server with the page log in front of a few pages, its lines kept as objects. */
async function serve(level: Parameters<typeof createWebLog>[0]) {
  const lines: Record<string, unknown>[] = [];
  const log = createWebLog(level, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const app = express();
  app.use((_req, res, next) => {
    res.locals.requestId = 'page-12345678';
    next();
  });
  app.use(pageLog(log, 50));
  app.get('/ok', (_req, res) => void res.send('ok'));
  app.get('/missing', (_req, res) => void res.status(404).send('not found'));
  app.get('/broken', (_req, res) => void res.status(500).send('sorry'));
  app.get('/slow', (_req, res) => void setTimeout(() => res.send('at last'), 80));
  app.get('/never', () => {});
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  running = server;
  return { lines, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let running: Server | undefined;
afterEach(async () => {
  running?.closeAllConnections();
  await new Promise((resolve) => running?.close(resolve));
  running = undefined;
});

const get = async (url: string) => (await fetch(url)).arrayBuffer();

describe('the web tier’s page log', () => {
  it('writes a failed or slow page at info, a failure of ours as an error, and a quick page not at all', async () => {
    const { lines, base } = await serve('info');
    for (const page of ['/ok', '/missing', '/broken', '/slow']) await get(base + page);
    await vi.waitFor(() => expect(lines).toHaveLength(3));
    expect(lines).toEqual([
      expect.objectContaining({ level: 30, tier: 'web', msg: 'page', requestId: 'page-12345678', url: '/missing', statusCode: 404 }),
      expect.objectContaining({ level: 50, msg: 'page failed', url: '/broken', statusCode: 500 }),
      expect.objectContaining({ level: 30, msg: 'page', url: '/slow', statusCode: 200, ms: expect.any(Number) }),
    ]);
    expect(lines[2].ms).toBeGreaterThanOrEqual(50);
  });

  it('writes every page at debug, and says when the browser left before the answer', async () => {
    const { lines, base } = await serve('debug');
    await get(`${base}/ok?token=abc123secret`);
    await vi.waitFor(() => expect(lines).toHaveLength(1));
    const left = http.get(`${base}/never`);
    left.on('error', () => {});
    await new Promise((resolve) => left.once('socket', (socket) => socket.once('connect', resolve)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    left.destroy();
    await vi.waitFor(() => expect(lines).toHaveLength(2));
    expect(lines[0]).toMatchObject({ level: 20, url: '/ok?token=[REDACTED]', statusCode: 200 });
    expect(lines[1]).toMatchObject({ url: '/never', aborted: true });
    expect(JSON.stringify(lines)).not.toContain('abc123secret');
  });

  it('writes nothing below its level', async () => {
    const { lines, base } = await serve('warn');
    for (const page of ['/ok', '/missing', '/slow']) await get(base + page);
    await get(`${base}/broken`);
    await vi.waitFor(() => expect(lines).toHaveLength(1));
    expect(lines[0]).toMatchObject({ msg: 'page failed' });
  });
});
