import { createRequestHandler } from '@remix-run/express';
import type { ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express from 'express';
import path from 'node:path';
import zlib from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { admission } from './admission.js';
import type { Config } from '#contract/config';
import { REQUEST_ID_HEADER, requestIdFor, trustedPeers } from '#contract/request-id';
import type { ApiTransport } from '../app/utils/api-transport.server.js';
import { createWebLog, pageLog, type WebLog } from './log.js';
import { precompressedBuild } from './precompressed.js';
import { publicFiles } from './public-files.js';
import { sameSiteBounce } from './same-site-bounce.js';
import { assetHeaders, cspNonce, refuseCrossSiteWrites, securityHeaders } from './security.js';

/**
 * The web tier: static assets and the Remix request handler. `api` is how its loaders and actions reach the api (in
 * this process, or over HTTP), handed to them in Remix's load context with the client's address and the CSP nonce.
 * `pageRendered` is told of each page rendered, when the api's metrics are in this process; `log` writes its lines
 * (server/log.ts).
 */
export async function createWebServer(
  config: Config,
  api: ApiTransport,
  {
    root = process.cwd(),
    pageRendered,
    log = createWebLog(config.logLevel),
  }: { root?: string; pageRendered?: (routeId: string, startedAt: number) => void; log?: WebLog } = {},
) {
  const buildPath = path.join(root, 'build/web/index.js');
  const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
  // Under `npm run dev` the compiler rebuilds the app while we run: see server/dev-build.ts. Never in production.
  const dev = process.env.NODE_ENV === 'development' && process.env.REMIX_DEV_ORIGIN ? await import('./dev-build.js') : undefined;
  const currentBuild = dev?.liveBuild(buildPath, build);

  const app = express();
  app.disable('x-powered-by');
  // Only the configured proxies may say who the client is (as on the api).
  app.set('trust proxy', config.trustedProxies);
  // Brotli's default window is 4 MB, made and dropped for every page although no page is near 256 KB: a smaller
  // window compresses our pages as well and keeps the process's memory flat under a crowd (docs/benchmarks.md).
  app.use(compression({ brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_LGWIN]: 18 } } }));
  // Static files come before the document headers (CSP and the rest mean nothing on a script or an image: see
  // assetHeaders). Fingerprinted build output never changes: cache it for a year, compressed once (precompressed.ts).
  const buildDir = path.join(root, 'public/build');
  app.use(
    '/build',
    await precompressedBuild(buildDir),
    express.static(buildDir, { immutable: true, maxAge: '1y', setHeaders: assetHeaders }),
  );
  app.use(publicFiles(path.join(root, 'public')));
  // One id per page request (not per asset): sent to the api with each of the page's calls, so the api's lines and
  // the jobs they send can be found by it, and answered to the browser. A trusted proxy's own id is kept, so its
  // access log names the same request; anyone else's is replaced.
  const trusted = trustedPeers(config.trustedProxies);
  app.use((req, res, next) => {
    const requestId = requestIdFor(req.headers[REQUEST_ID_HEADER], () => trusted(req.socket.remoteAddress));
    res.locals.requestId = requestId;
    res.setHeader(REQUEST_ID_HEADER, requestId);
    next();
  });
  app.use(pageLog(log));
  app.use(cspNonce, securityHeaders(config, dev?.liveReloadSocket()));
  app.use(refuseCrossSiteWrites(config));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  // The saved tracks (docs/listening.md "Offline"): a static page, so that the service worker can keep it and show it
  // with no network; served here for a browser whose worker is not running yet.
  const offlinePage = path.join(root, 'public/offline.html');
  app.get('/offline', (_req, res) => {
    res.set('Cache-Control', 'no-cache').sendFile(offlinePage);
  });

  app.use(sameSiteBounce);
  // A few pages at a time, the others in line (server/admission.ts).
  app.use(admission({ limit: config.pageConcurrency, maxWaitMs: config.pageQueueTimeoutMs }));
  const handlerFor = (serverBuild: ServerBuild) =>
    createRequestHandler({
      build: serverBuild,
      mode: process.env.NODE_ENV === 'development' ? 'development' : 'production',
      getLoadContext: (req, res) => ({
        api,
        clientIp: req.ip,
        cspNonce: res.locals.cspNonce as string,
        requestId: res.locals.requestId as string,
        log,
        startedAt: pageRendered && performance.now(),
        pageRendered,
      }),
    });
  // In development a handler per request, for the build of the moment (as Remix's manual mode does).
  app.all('*', currentBuild ? (req, res, next) => handlerFor(currentBuild())(req, res, next) : handlerFor(build));
  return app;
}
