import { redirect } from '@remix-run/node';
import type { ArtistResponse, MeResponse, SubscriptionResponse } from '#contract/users';
import { isHttpError, type ApiClient } from './api.server';
import { mapArtist, mapCurrentUser, mapSubscription, type Artist, type CurrentUser } from './mappers';

/**
 * Guards throw: a redirect or a 404 response, so a loader reads top to bottom (docs/architecture.md "Guards throw"). Each takes the
 * request's api client (api.server.ts), whose memo makes the second guard of a page asking for the user or the artist
 * cost nothing.
 */

export { safeRedirect } from './safe-redirect';

/** The signed-in user, or null when there is no session (an expired or refused token counts as none). */
export async function getOptionalUser(api: ApiClient): Promise<CurrentUser | null> {
  if (!api.token) return null;
  try {
    const body = await api.get<{ data: MeResponse }>('/users/me', { handle: [401, 403] });
    return mapCurrentUser(body.data);
  } catch (error) {
    if (isHttpError(error, 401, 403)) return null;
    throw error;
  }
}

/** The authenticated area's guard: no session or an authentication error goes to /logout with next. */
export async function requireUser(api: ApiClient): Promise<CurrentUser> {
  if (!api.token) throw api.logoutRedirect();
  try {
    const body = await api.get<{ data: MeResponse }>('/users/me', { handle: [403] });
    return mapCurrentUser(body.data);
  } catch (error) {
    if (isHttpError(error, 403)) throw api.logoutRedirect();
    throw error;
  }
}

/** Loads an artist by username; an unknown artist (or a name that cannot be one) throws the 404 page. */
export async function requireArtist(api: ApiClient, username: string | undefined): Promise<Artist> {
  invariantResponse(username, 'Not found', { status: 404 });
  try {
    const body = await api.get<{ data: ArtistResponse }>(`/performers/${encodeURIComponent(username)}`, { handle: [400] });
    return mapArtist(body.data);
  } catch (error) {
    if (isHttpError(error, 400)) throw new Response('Not found', { status: 404 });
    throw error;
  }
}

/** The viewer's subscriptions; a 403 is treated as an empty list. */
export async function fetchSubscriptions(api: ApiClient) {
  try {
    const body = await api.get<{ data: { data: SubscriptionResponse[] } }>('/subscriptions/user/search', {
      params: { limit: Number.MAX_SAFE_INTEGER },
      handle: [403],
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
 * The signed-in user and the artist of the URL, asked for side by side. When both fail, the session's failure wins:
 * a signed-out visitor goes to log in before learning whether the artist exists.
 */
async function userAndArtist(api: ApiClient, artistUsername: string | undefined) {
  const [user, artist] = await Promise.allSettled([requireUser(api), requireArtist(api, artistUsername)]);
  if (user.status === 'rejected') throw user.reason;
  if (artist.status === 'rejected') throw artist.reason;
  return { user: user.value, artist: artist.value };
}

/**
 * The subscribed branch's guard: a viewer who is neither subscribed nor that artist goes to
 * /{artist}/subscribe. Returns the user and the artist for the page.
 */
export async function requireSubscriber(api: ApiClient, artistUsername: string | undefined, { allowKept = false } = {}) {
  const { user, artist } = await userAndArtist(api, artistUsername);
  const kept = allowKept && artist.keptPeriod !== null;
  if (!artist.subscribed && !isOwnArtist(user, artist) && !kept) throw redirect(`/${artist.username}/subscribe`);
  return { user, artist };
}

/** The artist's own pages (creation, subscribers, profile): anyone else, a fan or another artist, gets the 404 page. */
export async function requireOwnArtist(api: ApiClient, artistUsername: string | undefined) {
  const { user, artist } = await requireSubscriber(api, artistUsername);
  invariantResponse(isOwnArtist(user, artist), 'Not found', { status: 404 });
  return { user, artist };
}

/**
 * The unsubscribed-only branch's guard: an artist user goes to their own page, a fan already subscribed
 * to this artist to the artist's page.
 */
export async function requireUnsubscribed(api: ApiClient, artistUsername: string | undefined) {
  const [user, artist] = await Promise.allSettled([requireUser(api), requireArtist(api, artistUsername)]);
  if (user.status === 'rejected') throw user.reason;
  if (user.value.artist) throw redirect(`/${user.value.username}`);
  if (artist.status === 'rejected') throw artist.reason;
  if (artist.value.subscribed) throw redirect(`/${artist.value.username}`);
  return { user: user.value, artist: artist.value };
}

/** Throws a response (the 404 page, a 400) unless the condition holds: a guard in one line. */
export function invariantResponse(condition: unknown, message: string, init: ResponseInit): asserts condition {
  if (!condition) throw new Response(message, init);
}
