import type { NextFunction, Request, Response } from 'express';
import { safeRedirect } from '../app/utils/safe-redirect.js';
import { SESSION_COOKIE } from '../app/utils/session-cookie.js';

/**
 * A SameSite=Strict cookie is not sent on a navigation that starts on another site (a link in a mail, a chat
 * app, a payment provider's return). Such a request must not be read as "signed out", so it is answered with a
 * tiny page that requests the same URL again: that second navigation starts on our own origin, carries the
 * cookie, and the real page decides. It works without JavaScript (meta refresh). The path is the visitor's: one
 * that a browser would read as another host (`//evil.example/x`) is not sent on, the home page is.
 */
export function sameSiteBounce(req: Request, res: Response, next: NextFunction) {
  if (!isCrossSiteNavigation(req) || hasCookie(req.headers.cookie, SESSION_COOKIE)) return next();
  const target = escapeHtml(safeRedirect(req.originalUrl, '/'));
  res
    .status(200)
    .set('Cache-Control', 'no-store')
    .set('Referrer-Policy', 'same-origin')
    .type('html')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${target}">` +
        `<meta name="viewport" content="width=device-width,initial-scale=1"><title>Stagedoor</title>` +
        `<style>body{background:#0b1a33;color:#fff;font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:100vh;margin:0}a{color:#f9ef1e}</style>` +
        `</head><body><p>Opening Stagedoor… <a href="${target}">Continue</a></p></body></html>`,
    );
}

function isCrossSiteNavigation(req: Request) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const site = req.get('sec-fetch-site');
  const mode = req.get('sec-fetch-mode');
  if (site) return site === 'cross-site' && (mode === undefined || mode === 'navigate');
  // Browsers without Fetch Metadata: fall back on a Referer from another host.
  const referer = req.get('referer');
  if (!referer || req.get('accept')?.includes('text/html') !== true) return false;
  try {
    return new URL(referer).host !== req.get('host');
  } catch {
    return false;
  }
}

function hasCookie(header: string | undefined, name: string) {
  return header?.split(';').some((part) => part.trim().startsWith(`${name}=`)) ?? false;
}

function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
