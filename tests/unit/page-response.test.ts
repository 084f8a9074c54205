import compression from 'compression';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageResponse, takePageBody } from '../../app/utils/page-body.server';
import { sendResponse } from '../../server/web';
import { listenLocal } from '../helpers/listen';

const HTML = `<!DOCTYPE html><html><body>${'<p>The Late Nights, live at the Roundhouse</p>'.repeat(200)}</body></html>`;

/** How the response was written: the page must go out in one `end`, with no `write` before it. */
let writes: string[] = [];

/** The web server's last step, behind the same compression as server/web.ts. */
async function serve() {
  const app = express();
  app.use(compression());
  app.use((_req, res, next) => {
    writes = [];
    const { write, end } = res;
    res.write = function (this: express.Response, ...args: Parameters<typeof write>) {
      writes.push('write');
      return write.apply(this, args);
    } as typeof write;
    res.end = function (this: express.Response, ...args: Parameters<typeof end>) {
      writes.push(args[0] ? 'end with body' : 'end');
      return end.apply(this, args);
    } as typeof end;
    next();
  });
  app.get('/page', (_req, res, next) => {
    const headers = new Headers({ 'Content-Type': 'text/html; charset=utf-8' });
    headers.append('Set-Cookie', 'a=1; Path=/');
    headers.append('Set-Cookie', 'b=2; Path=/');
    sendResponse(res, pageResponse(HTML, { status: 404, headers })).catch(next);
  });
  app.get('/data', (_req, res, next) => {
    sendResponse(res, Response.json({ songs: 12 }, { headers: { 'X-Remix-Response': 'yes' } })).catch(next);
  });
  return listenLocal(app);
}

describe('a rendered page is sent in one write (page-body.server.ts)', () => {
  let server: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    server = await serve();
  });
  afterAll(() => server?.close());

  it('sends the HTML with the status and every header, compressed for a client that accepts it', async () => {
    const response = await fetch(`${server.url}/page`, { headers: { 'Accept-Encoding': 'br' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(await response.text()).toBe(HTML);
    expect(writes).toEqual(['end with body']);
  });

  it('sends it as it is, with its length, to a client that accepts no encoding', async () => {
    const response = await fetch(`${server.url}/page`, { headers: { 'Accept-Encoding': 'identity' } });
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(HTML)));
    expect(await response.text()).toBe(HTML);
  });

  it('sends any other response as Remix does, from its body', async () => {
    const response = await fetch(`${server.url}/data`);
    expect(response.headers.get('x-remix-response')).toBe('yes');
    expect(await response.json()).toEqual({ songs: 12 });
  });

  it('hands a page body out once, and none for a response that is not a page', () => {
    const page = pageResponse('<p>once</p>', { status: 200 });
    expect(page.body).toBeNull();
    expect(takePageBody(page)).toBe('<p>once</p>');
    expect(takePageBody(page)).toBeUndefined();
    expect(takePageBody(new Response('<p>other</p>'))).toBeUndefined();
  });
});
