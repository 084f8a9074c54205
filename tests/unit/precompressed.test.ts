import express from 'express';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenLocal } from '../helpers/listen';
import { precompressedBuild } from '../../server/precompressed';
import { assetHeaders } from '../../server/security';

/** The build's scripts and styles, compressed once at brotli's best quality, mounted as server/web.ts mounts them. */
const script = Array.from(
  { length: 400 },
  (_, i) => `export const item${i} = { id: ${(i * 7919) % 1009}, label: 'Track ${(i * 31) % 97}' };`,
).join('\n');
const style = `.card { color: #f9ef1e; }\n`.repeat(100);

let dir: string;
let url: string;
let close: () => void;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-precompressed-'));
  fs.mkdirSync(path.join(dir, '_shared'));
  fs.writeFileSync(path.join(dir, '_shared', 'chunk-ABC.js'), script);
  fs.writeFileSync(path.join(dir, 'tailwind-XYZ.css'), style);
  fs.writeFileSync(path.join(dir, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const app = express();
  app.use('/build', await precompressedBuild(dir), express.static(dir, { immutable: true, maxAge: '1y', setHeaders: assetHeaders }));
  ({ url, close } = await listenLocal(app));
});
afterAll(() => {
  close?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The bytes as they came over the wire (fetch would decode them). */
function get(pathname: string, acceptEncoding: string, method = 'GET') {
  return new Promise<{ response: { status: number; headers: Headers }; body: Buffer }>((resolve, reject) => {
    const request = http.request(`${url}${pathname}`, { method, headers: { 'Accept-Encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') headers.set(name, value);
        resolve({ response: { status: res.statusCode ?? 0, headers }, body: Buffer.concat(chunks) });
      });
    });
    request.on('error', reject);
    request.end();
  });
}

describe('precompressed build files', () => {
  it('answers brotli at the best quality, with the asset headers and a length, and no validators', async () => {
    const { response, body } = await get('/build/_shared/chunk-ABC.js', 'gzip, deflate, br');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('content-type')).toBe('application/javascript; charset=UTF-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('vary')).toBe('Accept-Encoding');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(response.headers.get('etag')).toBeNull();
    expect(response.headers.get('last-modified')).toBeNull();
    expect(Number(response.headers.get('content-length'))).toBe(body.length);
    expect(zlib.brotliDecompressSync(body).toString()).toBe(script);
    const quality4 = zlib.brotliCompressSync(Buffer.from(script), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } });
    expect(body.length).toBeLessThan(quality4.length);
  });

  it('serves the stylesheet too, and HEAD without a body', async () => {
    const css = await get('/build/tailwind-XYZ.css', 'br');
    expect(css.response.headers.get('content-type')).toBe('text/css; charset=UTF-8');
    expect(zlib.brotliDecompressSync(css.body).toString()).toBe(style);
    const head = await get('/build/tailwind-XYZ.css', 'br', 'HEAD');
    expect(head.response.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  it('leaves other encodings, other files and unknown names to express.static', async () => {
    const plain = await get('/build/_shared/chunk-ABC.js', 'gzip;q=1, br;q=0');
    expect(plain.response.headers.get('content-encoding')).toBeNull();
    expect(plain.body.toString()).toBe(script);
    const svg = await get('/build/logo.svg', 'br');
    expect(svg.response.headers.get('content-encoding')).toBeNull();
    expect(svg.response.headers.get('etag')).not.toBeNull();
    expect((await get('/build/_shared/chunk-NEW.js', 'br')).response.status).toBe(404);
  });
});
