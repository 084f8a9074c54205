import fs from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// The runtime the server uses: @remix-run/server-runtime's CommonJS build, which patches/ changes at install
// (decision 009: a loader's plain object reaches the render as it is, and is sent as JSON on a data request).
const require = createRequire(import.meta.url);
const runtimeDir = require.resolve('@remix-run/server-runtime').replace(/index\.js$/, '');
const { createRequestHandler, json, redirect } = require('@remix-run/server-runtime') as typeof import('@remix-run/server-runtime');

const PAGE_DATA = { title: 'Vault', items: [{ id: 'a1', title: 'Demo: Lighthouse' }], next: null };
const Page = () => null;

let rendered: Record<string, unknown> = {};

/** A built app of five routes, enough for the request handler: its render only keeps what the loaders gave it. */
const build = {
  mode: 'production',
  future: {},
  publicPath: '/build/',
  assetsBuildDirectory: 'public/build',
  basename: undefined,
  isSpaMode: false,
  assets: { version: 'test', url: '/build/manifest.js', entry: { module: '/build/entry.js', imports: [] }, routes: {} },
  entry: {
    module: {
      default: (_request: Request, status: number, headers: Headers, context: { staticHandlerContext: { loaderData: Record<string, unknown> } }) => {
        rendered = context.staticHandlerContext.loaderData;
        return new Response('<!DOCTYPE html>', { status, headers });
      },
    },
  },
  routes: {
    root: { id: 'root', path: '', module: { default: Page, loader: () => ({ user: { name: 'Ada' } }) } },
    'routes/page': { id: 'routes/page', parentId: 'root', path: 'page', module: { default: Page, loader: () => PAGE_DATA } },
    'routes/headers': {
      id: 'routes/headers',
      parentId: 'root',
      path: 'headers',
      module: { default: Page, loader: () => json({ fresh: true }, { headers: { 'Cache-Control': 'no-store' } }) },
    },
    'routes/moved': { id: 'routes/moved', parentId: 'root', path: 'moved', module: { default: Page, loader: () => redirect('/page') } },
    'routes/resource': { id: 'routes/resource', parentId: 'root', path: 'resource', module: { loader: () => ({ ok: true }) } },
  },
};
const handle = createRequestHandler(build as unknown as Parameters<typeof createRequestHandler>[0]);
const get = (path: string) => handle(new Request(`http://localhost${path}`));

describe('loader data (patched: plain objects go to the render as they are)', () => {
  it('is the patched build', () => {
    for (const file of ['data.js', 'server.js']) expect(fs.readFileSync(runtimeDir + file, 'utf8'), file).toContain('Patched (Stagedoor');
  });

  it('a document request renders with the objects the loaders returned, not copies read back from JSON', async () => {
    const response = await get('/page');
    expect(response.status).toBe(200);
    expect(rendered['routes/page']).toBe(PAGE_DATA);
    expect(rendered.root).toEqual({ user: { name: 'Ada' } });
  });

  it('a data request (a client-side navigation) gets the same data as JSON', async () => {
    const response = await get('/page?_data=routes%2Fpage');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(response.headers.get('X-Remix-Response')).toBe('yes');
    expect(await response.json()).toEqual(PAGE_DATA);
    expect(await (await get('/page?_data=root')).json()).toEqual({ user: { name: 'Ada' } });
  });

  it('json() with headers keeps them on a data request, and its data reaches the render', async () => {
    const response = await get('/headers?_data=routes%2Fheaders');
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(await response.json()).toEqual({ fresh: true });
    await get('/headers');
    expect(rendered['routes/headers']).toEqual({ fresh: true });
  });

  it('a redirect still redirects, from a document and from a data request', async () => {
    const page = await get('/moved');
    expect(page.status).toBe(302);
    expect(page.headers.get('Location')).toBe('/page');
    const data = await get('/moved?_data=routes%2Fmoved');
    expect(data.status).toBe(204);
    expect(data.headers.get('X-Remix-Redirect')).toBe('/page');
  });

  it('a resource route answers its plain object as JSON', async () => {
    const response = await get('/resource');
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ ok: true });
  });
});
