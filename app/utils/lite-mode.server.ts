import { parse, serialize } from 'cookie';
import { env } from './env.server';

/**
 * Lite mode: a fan who asks to save data gets every page without client scripts; everything still
 * works through links and plain forms. Asked by the browser (`Save-Data: on`) or chosen in the footer, which a
 * cookie remembers (and which also lets a fan turn it off although their browser asks to save data).
 */
export const LITE_COOKIE = 'stagedoor-lite';

export function isLiteMode(request: Request) {
  const choice = parse(request.headers.get('Cookie') ?? '')[LITE_COOKIE];
  if (choice === 'on') return true;
  if (choice === 'off') return false;
  return request.headers.get('Save-Data')?.trim().toLowerCase() === 'on';
}

export function liteModeCookie(on: boolean) {
  return serialize(LITE_COOKIE, on ? 'on' : 'off', {
    path: '/',
    maxAge: 31_536_000,
    sameSite: 'lax',
    secure: env().secureCookies,
    httpOnly: true,
  });
}
