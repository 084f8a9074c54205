import type { Queryable } from '../db/client.js';
import { newToken } from './tokens.js';

/** Starts a new session (a new token on every login, so a planted token is never promoted). */
export async function createSession(db: Queryable, userId: string, ttlDays: number) {
  const { token, hash } = newToken();
  await db.query(`INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + make_interval(days => $3))`, [
    hash,
    userId,
    ttlDays,
  ]);
  return token;
}

/**
 * The read cache holds sessions: whoever revokes one must invalidate `tag.session` (or `tag.user` for all of a
 * user's) once the change has committed, as the auth and users routes do.
 */
export async function revokeSession(db: Queryable, tokenHash: string) {
  await db.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash]);
}

/** Revokes every session of a user, except the one given (a password change keeps the device that made it). */
export async function revokeUserSessions(db: Queryable, userId: string, exceptTokenHash?: string) {
  await db.query('DELETE FROM sessions WHERE user_id = $1 AND token_hash IS DISTINCT FROM $2', [userId, exceptTokenHash ?? null]);
}
