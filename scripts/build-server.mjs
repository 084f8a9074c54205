// Bundles the process entry and the operator CLI (our TypeScript only; packages stay external) into build/server,
// and the browser's service worker with the offline page's script into public/ (docs/listening.md "Offline").
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { serverBundle } from './server-bundle.mjs';

await build(serverBundle);

const browser = { bundle: true, platform: 'browser', format: 'iife', target: 'es2020', minify: true, logLevel: 'warning' };

// The offline page's script first: the worker precaches it, with a revision from its content.
await build({ ...browser, entryPoints: ['app/offline/page.ts'], outfile: 'public/offline.js' });

/** What the worker precaches: the offline page (served at /offline from public/offline.html), its script, the icons. */
const precached = [
  { url: '/offline', file: 'public/offline.html' },
  { url: '/offline.js', file: 'public/offline.js' },
  { url: '/favicon.svg', file: 'public/favicon.svg' },
  { url: '/manifest.webmanifest', file: 'public/manifest.webmanifest' },
  { url: '/icons/icon-192.png', file: 'public/icons/icon-192.png' },
];
const manifest = precached.map(({ url, file }) => ({
  url,
  revision: createHash('sha256').update(fs.readFileSync(file)).digest('hex').slice(0, 16),
}));

// /sw.js at the site's root, so its scope is the whole site. Workbox's own logging stays out of the production bundle.
await build({
  ...browser,
  entryPoints: ['app/service-worker/worker.ts'],
  outfile: 'public/sw.js',
  define: { __PRECACHE__: JSON.stringify(manifest), 'process.env.NODE_ENV': '"production"' },
});
