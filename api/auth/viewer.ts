import type { FastifyRequest } from 'fastify';
import { one, type Queryable } from '../db/client.js';
import { forbidden, unauthorized } from '../http.js';
import { hashToken } from './tokens.js';

export interface Viewer {
  id: string;
  username: string;
  email: string;
  name: string;
  avatar: string;
  isPerformer: boolean;
  tokenHash: string;
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/** The signed-in user behind a token, or undefined for a missing, unknown or expired token. Throws 403 for a forbidden account. */
export async function viewerForToken(db: Queryable, token: string | undefined): Promise<Viewer | undefined> {
  if (!token || token.length > 200) return undefined;
  const tokenHash = hashToken(token);
  const row = await one<Omit<Viewer, 'tokenHash'> & { status: string }>(
    db,
    `SELECT u.id, u.username, u.email, u.name, u.avatar, u.is_performer AS "isPerformer", u.status
       FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.token_hash = $1 AND s.expires_at > now()`,
    [tokenHash],
  );
  if (!row) return undefined;
  if (row.status !== 'active') throw forbidden();
  const { status: _status, ...viewer } = row;
  return { ...viewer, tokenHash };
}

/** Guard for endpoints that need a signed-in user: 401 without a valid token, 403 for a forbidden account. */
export async function requireViewer(db: Queryable, request: FastifyRequest): Promise<Viewer> {
  const viewer = await viewerForToken(db, bearerToken(request));
  if (!viewer) throw unauthorized();
  return viewer;
}

/** For public endpoints that show more to a signed-in viewer; a bad token is treated as anonymous. */
export async function optionalViewer(db: Queryable, request: FastifyRequest): Promise<Viewer | undefined> {
  try {
    return await viewerForToken(db, bearerToken(request));
  } catch {
    return undefined;
  }
}
