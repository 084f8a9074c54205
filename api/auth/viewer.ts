import type { FastifyRequest } from 'fastify';
import { tag } from '../cache/tags.js';
import type { Reads } from '../context.js';
import { one } from '../db/client.js';
import { forbidden, unauthorized } from '../http.js';
import { hashToken } from './tokens.js';
import { notKept } from '../cache/read-cache.js';

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

type SessionRow = Omit<Viewer, 'tokenHash'> & { status: string; expiresAt: Date };

/**
 * The signed-in user behind a token, or undefined for a missing, unknown or expired token. Throws 403 for a
 * forbidden account. Every api call asks this first, so the answer is cached until the session or the account
 * changes (log-out, password change, account edits invalidate it) or the session expires.
 */
export async function viewerForToken(reads: Reads, token: string | undefined): Promise<Viewer | undefined> {
  if (!token || token.length > 200) return undefined;
  const tokenHash = hashToken(token);
  const row = await reads.cache.read(`session:${tokenHash}`, async () => {
    const found = await one<SessionRow>(
      reads.db,
      `SELECT u.id, u.username, u.email, u.name, u.avatar, u.is_performer AS "isPerformer", u.status, s.expires_at AS "expiresAt"
         FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.token_hash = $1 AND s.expires_at > now()`,
      [tokenHash],
    );
    if (!found) return notKept(undefined);
    return { value: found, tags: [tag.session(tokenHash), tag.user(found.id)], until: new Date(found.expiresAt).getTime() };
  });
  if (!row) return undefined;
  if (row.status !== 'active') throw forbidden();
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    name: row.name,
    avatar: row.avatar,
    isPerformer: row.isPerformer,
    tokenHash,
  };
}

/** Guard for endpoints that need a signed-in user: 401 without a valid token, 403 for a forbidden account. */
export async function requireViewer(reads: Reads, request: FastifyRequest): Promise<Viewer> {
  const viewer = await viewerForToken(reads, bearerToken(request));
  if (!viewer) throw unauthorized();
  return viewer;
}

/** For public endpoints that show more to a signed-in viewer; a bad token is treated as anonymous. */
export async function optionalViewer(reads: Reads, request: FastifyRequest): Promise<Viewer | undefined> {
  try {
    return await viewerForToken(reads, bearerToken(request));
  } catch {
    return undefined;
  }
}
