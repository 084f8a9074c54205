import { redirect } from '@remix-run/node';
import { parse, serialize } from 'cookie';
import { env } from './env.server';
import { SESSION_COOKIE, SESSION_MAX_AGE } from './session-cookie';

/**
 * The API token lives in the `stagedoor` cookie: Path=/, one year, SameSite=Strict, Secure outside
 * local, and HttpOnly so page scripts cannot read it.
 */
export function getSessionToken(request: Request): string | undefined {
  const header = request.headers.get('Cookie');
  if (!header) return undefined;
  const token = parse(header)[SESSION_COOKIE];
  return token ? token : undefined;
}

export function sessionCookie(token: string) {
  return serialize(SESSION_COOKIE, token, {
    path: '/',
    maxAge: SESSION_MAX_AGE,
    sameSite: 'strict',
    secure: env().secureCookies,
    httpOnly: true,
  });
}

/** Deleting the cookie sets Max-Age 1. */
export function clearedSessionCookie() {
  return serialize(SESSION_COOKIE, '', {
    path: '/',
    maxAge: 1,
    sameSite: 'strict',
    secure: env().secureCookies,
    httpOnly: true,
  });
}

/**
 * Where a visit to the authenticated area without a valid session goes: /logout, carrying next (the page
 * asked for) and the artist.
 */
export function logoutRedirect(request: Request, artistUsername?: string) {
  const url = new URL(request.url);
  const search = new URLSearchParams();
  search.set('next', `${url.pathname}${url.search}`);
  if (artistUsername) search.set('artist', artistUsername);
  return redirect(`/logout?${search}`);
}
