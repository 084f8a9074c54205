import { createRequestHandler } from '@remix-run/express';
import type { ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express from 'express';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Config } from './config.js';
import { requestScope } from '../app/utils/request-scope.server.js';
import { sameSiteBounce } from './same-site-bounce.js';
import { cspNonce, refuseCrossSiteWrites, securityHeaders } from './security.js';

/** The web tier: static assets and the Remix request handler. */
export async function createWebServer(config: Config, root = process.cwd()) {
  const buildPath = path.join(root, 'build/web/index.js');
  const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;

  const app = express();
  app.disable('x-powered-by');
  // Only a proxy on this host or a private network may say who the client is (as on the api).
  app.set('trust proxy', ['loopback', 'linklocal', 'uniquelocal']);
  app.use(compression());
  app.use(cspNonce, securityHeaders(config));
  app.use(refuseCrossSiteWrites(config));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  // Fingerprinted build output never changes: cache it for a year.
  app.use('/build', express.static(path.join(root, 'public/build'), { immutable: true, maxAge: '1y' }));
  app.use(express.static(path.join(root, 'public'), { maxAge: '1h' }));

  app.use(sameSiteBounce);
  const remix = createRequestHandler({
    build,
    getLoadContext: (req, res) => ({ clientIp: req.ip, cspNonce: res.locals.cspNonce as string }),
    mode: process.env.NODE_ENV === 'development' ? 'development' : 'production',
  });
  // A page request's loaders share one scope, so what several of them need is fetched once (request-scope.server).
  app.all('*', (req, res, next) =>
    req.method === 'GET' || req.method === 'HEAD' ? requestScope.run(new Map(), () => remix(req, res, next)) : remix(req, res, next),
  );
  return app;
}
