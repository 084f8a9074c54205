import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { randomBytes } from 'node:crypto';
import type { Config } from '#contract/config';

/**
 * The web tier's security headers (helmet) and its cross-site form check. docs/security.md says what each
 * protects against and which test proves it.
 */

/** A fresh nonce per response: the page's own inline and module scripts carry it, nothing injected can. */
export function cspNonce(_req: Request, res: Response, next: NextFunction) {
  res.locals.cspNonce = randomBytes(16).toString('base64');
  next();
}

/** `devSockets`: under `npm run dev`, the Remix compiler's live-reload socket (server/dev-build.ts). */
export function securityHeaders(config: Config, devSockets: string[] = []) {
  const api = new URL(config.publicApiUrl).origin;
  const apiSocket = api.replace(/^http/, 'ws');
  const nonce = (_req: unknown, res: unknown) => `'nonce-${(res as Response).locals.cspNonce as string}'`;
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        // Stripe.js is loaded from its own origin on the payment page (Stripe's CSP guidance).
        'script-src': ["'self'", nonce, 'https://js.stripe.com'],
        // Headless UI positions menus with style attributes; nprogress sets the bar's width the same way.
        'style-src': ["'self'", "'unsafe-inline'"],
        // Media comes from the api's signed links; avatars and artwork may be data: placeholders.
        'img-src': ["'self'", 'data:', 'blob:', api, 'https://*.stripe.com'],
        'media-src': ["'self'", 'blob:', api],
        'font-src': ["'self'"],
        // The browser talks to the api directly for messages and the realtime socket.
        'connect-src': ["'self'", api, apiSocket, 'https://api.stripe.com', 'https://r.stripe.com', ...devSockets],
        'frame-src': ['https://js.stripe.com', 'https://hooks.stripe.com'],
        'frame-ancestors': ["'none'"],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
      },
    },
    // Stripe may open a 3-D Secure window; our pages still get their own browsing context group.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // HSTS only where the site is served over HTTPS: every environment but local.
    strictTransportSecurity: config.appEnv === 'local' ? false : { maxAge: 31_536_000, includeSubDomains: true },
    xFrameOptions: { action: 'deny' },
  });
}

/**
 * The headers of static files (public/build's scripts and styles, public/'s images): only those that mean
 * something on a subresource. The document headers (CSP, framing, referrer and opener policies, HSTS) act on the
 * page that loads these files, and sent again on each of the twenty-odd scripts a page loads they cost about
 * 1.2 KB apiece on a fan's phone. public/ holds only our own files (uploads are served by the api).
 */
export function assetHeaders(res: Response) {
  // A file is only ever run or shown as the type we say it is.
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // Other sites' pages cannot load our files (Spectre-style reads of another origin's responses).
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

/**
 * CSRF: a form post, put or delete that a browser says came from another site is refused before any action
 * runs. This sits on top of the SameSite=Strict session cookie, for browsers and proxies that do not
 * honour it. Browsers send Origin on every POST and Sec-Fetch-Site on every request; a request with neither
 * (a script, an old client) has no cookie unless it was given one, so it is let through.
 */
export function refuseCrossSiteWrites(config: Config) {
  const ownOrigins = new Set([new URL(config.publicWebUrl).origin]);
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
    const origin = req.get('origin');
    const site = req.get('sec-fetch-site');
    const sameHost = origin !== undefined && origin !== 'null' && safeHost(origin) === req.get('host');
    const crossSite = origin !== undefined ? !(ownOrigins.has(origin) || sameHost) : site === 'cross-site';
    if (!crossSite) return next();
    res
      .status(403)
      .set('Cache-Control', 'no-store')
      .type('html')
      .send(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">' +
          '<title>Form refused | Stagedoor</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem">' +
          '<h1>This form came from another site</h1><p>For your safety, Stagedoor only accepts forms sent from its own pages. ' +
          'Go back to Stagedoor and try again from there.</p><p><a href="/">Open Stagedoor</a></p></body></html>',
      );
  };
}

function safeHost(origin: string) {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}
