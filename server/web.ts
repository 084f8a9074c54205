// The adapter's own request and response halves (its package exports only the handler that joins them).
import { createRemixRequest, sendRemixResponse } from '@remix-run/express/dist/server.js';
import { createRequestHandler, type ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express from 'express';
import path from 'node:path';
import zlib from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { admission } from './admission.js';
import type { Config } from '#contract/config';
import { takePageBody } from '../app/utils/page-body.server.js';
import { openRequestScope } from '../app/utils/request-scope.server.js';
import { precompressedBuild } from './precompressed.js';
import { publicFiles } from './public-files.js';
import { sameSiteBounce } from './same-site-bounce.js';
import { assetHeaders, cspNonce, refuseCrossSiteWrites, securityHeaders } from './security.js';

/** The web tier: static assets and the Remix request handler. */
export async function createWebServer(config: Config, root = process.cwd()) {
  const buildPath = path.join(root, 'build/web/index.js');
  const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;

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
  app.use('/build', await precompressedBuild(buildDir), express.static(buildDir, { immutable: true, maxAge: '1y', setHeaders: assetHeaders }));
  app.use(publicFiles(path.join(root, 'public')));
  app.use(cspNonce, securityHeaders(config));
  app.use(refuseCrossSiteWrites(config));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  app.use(sameSiteBounce);
  const remix = createRequestHandler(build, process.env.NODE_ENV === 'development' ? 'development' : 'production');
  // A few pages at a time, the others in line (server/admission.ts).
  app.use(admission({ limit: config.pageConcurrency, maxWaitMs: config.pageQueueTimeoutMs }));
  app.all('*', async (req, res, next) => {
    // A page request's loaders share one scope, so what several of them need is fetched once (request-scope.server).
    openRequestScope(req, res);
    try {
      const response = await remix(createRemixRequest(req, res), { clientIp: req.ip, cspNonce: res.locals.cspNonce as string });
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  });
  return app;
}

/** A rendered page goes out in one write (page-body.server.ts); anything else as Remix's adapter sends it. */
export async function sendResponse(res: express.Response, response: Response) {
  const html = takePageBody(response);
  if (html === undefined) return sendRemixResponse(res, response);
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers) res.append(key, value);
  // Encoded once here: the compressor would encode a string itself, after a pass to measure it. The length is for
  // a client that takes the page as it is (compression drops it when it compresses).
  const body = Buffer.from(html);
  res.setHeader('Content-Length', body.length);
  res.end(body);
}
