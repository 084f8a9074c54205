import { redirect } from '@remix-run/node';
import { apiRequest, isHttpError } from './api.server';
import type { ArtistResponse, MeResponse, SubscriptionResponse } from '#contract/users';
import { mapArtist, mapCurrentUser, mapSubscription, type Artist, type CurrentUser } from './mappers';
import { oncePerRequest } from './request-scope.server';
import { getSessionToken } from './session.server';

/**
 * Guards throw: a redirect or a 404 response, so a loader reads top to bottom (STYLE.md "Guards throw").
 */

export { safeRedirect } from './safe-redirect';

/** The artist username of the current URL, if the route has one. */
export function artistFromParams(params: { artistUsername?: string }) {
  return params.artistUsername;
}

/** Where an unauthenticated visit to an authenticated route goes: /logout, carrying next and the artist. */
export function logoutRedirect(request: Request, artistUsername?: string) {
  const url = new URL(request.url);
  const search = new URLSearchParams();
  search.set('next', `${url.pathname}${url.search}`);
  if (artistUsername) search.set('artist', artistUsername);
  return redirect(`/logout?${search}`);
}

/** GET /users/me, asked once per page request however many loaders need the user. */
export function fetchMe(request: Request, token: string) {
  return oncePerRequest(request, `me:${token}`, async () => {
    const body = await apiRequest<{ data: MeResponse }>({ path: '/users/me', token, signal: request.signal });
    return mapCurrentUser(body.data);
  });
}

/** The signed-in user, or null when there is no session (an expired or refused token counts as none). */
export async function getOptionalUser(request: Request): Promise<{ user: CurrentUser; token: string } | null> {
  const token = getSessionToken(request);
  if (!token) return null;
  try {
    return { user: await fetchMe(request, token), token };
  } catch (error) {
    if (isHttpError(error, 401, 403)) return null;
    throw error;
  }
}

/** The authenticated area's guard: no session or an authentication error goes to /logout with next (spec §2). */
export async function requireUser(request: Request, artistUsername?: string) {
  const token = getSessionToken(request);
  if (!token) throw logoutRedirect(request, artistUsername);
  try {
    return { user: await fetchMe(request, token), token };
  } catch (error) {
    if (isHttpError(error, 401, 403)) throw logoutRedirect(request, artistUsername);
    throw error;
  }
}

/** Loads an artist by username; an unknown artist throws the 404 page. */
export async function requireArtist(username: string | undefined, token?: string, signal?: AbortSignal): Promise<Artist> {
  if (!username) throw new Response('Not found', { status: 404 });
  try {
    const body = await apiRequest<{ data: ArtistResponse }>({
      path: `/performers/${encodeURIComponent(username)}`,
      token,
      signal,
    });
    return mapArtist(body.data);
  } catch (error) {
    if (isHttpError(error, 404, 400)) throw new Response('Not found', { status: 404 });
    throw error;
  }
}

/** The viewer's subscriptions (spec §7); a 403 is treated as an empty list (spec §8). */
export async function fetchSubscriptions(token: string, signal?: AbortSignal) {
  try {
    const body = await apiRequest<{ data: { data: SubscriptionResponse[] } }>({
      path: '/subscriptions/user/search',
      params: { limit: Number.MAX_SAFE_INTEGER },
      token,
      signal,
    });
    return body.data.data.map(mapSubscription);
  } catch (error) {
    if (isHttpError(error, 403)) return [];
    throw error;
  }
}

/** True when the viewer is the artist behind this page. */
export function isOwnArtist(user: CurrentUser, artist: Pick<Artist, 'id'>) {
  return user.artist && user.id === artist.id;
}

/**
 * The subscribed branch's guard (spec §2): a viewer who is neither subscribed nor that artist goes to
 * /{artist}/subscribe. Returns the user, token and artist for the page.
 */
export async function requireSubscriber(request: Request, artistUsername: string | undefined) {
  const { user, token } = await requireUser(request, artistUsername);
  const artist = await requireArtist(artistUsername, token, request.signal);
  if (!artist.subscribed && !isOwnArtist(user, artist)) throw redirect(`/${artist.username}/subscribe`);
  return { user, token, artist };
}
