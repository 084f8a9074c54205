import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { apiFor, type ApiClient } from '~/utils/api.server';
import { safeRedirect } from '~/utils/auth.server';
import { revokeSession } from '~/utils/login.server';
import { clearedSessionCookie } from '~/utils/session.server';
import { readFormData } from '~/utils/form-guard.server';

/**
 * Revokes the token on the API (when there is one) and answers with the cookie deleted (Max-Age 1, so every browser
 * drops it at once) and the site's storage cleared: the tracks saved for offline listening (Cache Storage), the service worker that plays them,
 * the player's positions. The browser does it on reading the header, with or without JavaScript or a worker running,
 * so nothing of the session that ended stays for the next person at this browser (docs/listening.md "Offline").
 */
async function endSession(api: ApiClient) {
  if (api.token) await revokeSession(api);
  return { 'Set-Cookie': clearedSessionCookie(), 'Clear-Site-Data': '"storage"' };
}

/**
 * GET /logout: where the guards send a visitor without a valid session. It clears the session and
 * redirects to /login with the same search (artist, next); a server redirect replaces the history entry.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { search } = new URL(args.request.url);
  return redirect(`/login${search}`, { headers: await endSession(apiFor(args)) });
}

const PAYMENT_ROUTE = /^\/([^/?#]+)\/subscribe\/payment\/?(?:[?#].*)?$/;

/**
 * POST /logout, the account menu's "Log out": from a payment step back to that artist's register
 * step, from anywhere else back to the same page, which reloads it for a signed-out visitor (and its guards
 * decide what that visitor may see).
 */
export async function action(args: ActionFunctionArgs) {
  const formData = await readFormData(args.request);
  const from = safeRedirect(formData.get('redirectTo'), '/');
  const payment = PAYMENT_ROUTE.exec(from);
  const to = payment ? `/${payment[1]}/subscribe/register` : from;
  return redirect(to, { headers: await endSession(apiFor(args)) });
}

/** Never rendered (both handlers redirect); it makes /logout a page route, so the menu's Form posts without a reload. */
export default function Logout() {
  return null;
}
