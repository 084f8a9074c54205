import { moderationMessages } from '#contract/moderation-messages';
import { isHttpError, type ApiClient } from './api.server';

/** What a failed log-in tells the user. */
export const LOGIN_INCORRECT_DETAILS = 'The details you entered are incorrect. Please check your email and password and try again.';
export const LOGIN_TECHNICAL_DIFFICULTIES = "Sorry, we're currently experiencing technical difficulties. Please try again later.";

export type LoginOutcome = { ok: true; token: string } | { ok: false; status: number; message: string };

/**
 * POST /auth/login: `remember` is always true; the answer must carry data.token as a string.
 * An HTTP 404 or 422 means bad credentials, any other HTTP error (or a malformed answer) is "technical
 * difficulties"; anything that is not an HTTP error is rethrown.
 */
export async function logIn(api: ApiClient, usernameOrEmail: string, password: string): Promise<LoginOutcome> {
  try {
    const body = await api.post<{ data?: { token?: unknown } }>(
      '/auth/login',
      { username: usernameOrEmail, password, remember: true },
      { handle: [401, 403, 404] },
    );
    const token = body?.data?.token;
    if (typeof token !== 'string' || !token) return { ok: false, status: 502, message: LOGIN_TECHNICAL_DIFFICULTIES };
    return { ok: true, token };
  } catch (error) {
    if (isHttpError(error, 404, 422)) return { ok: false, status: 400, message: LOGIN_INCORRECT_DETAILS };
    // A suspended account, told so by the api only once the password was right: the reason, not "difficulties".
    if (isHttpError(error, 403)) return { ok: false, status: 403, message: moderationMessages.suspended };
    if (isHttpError(error)) return { ok: false, status: 503, message: LOGIN_TECHNICAL_DIFFICULTIES };
    throw error;
  }
}

/** POST /auth/logout revokes the token; a token the API no longer knows (401) is already as good as revoked. */
export async function revokeSession(api: ApiClient) {
  try {
    await api.post('/auth/logout', undefined, { handle: [401, 403, 404] });
  } catch (error) {
    if (isHttpError(error, 401)) return;
    // Logging out must always work for the user: the cookie is cleared whatever the API says.
    console.error('Could not revoke the session token', error);
  }
}
