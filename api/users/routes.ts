import type { FastifyInstance } from 'fastify';
import { RegisterSchema } from '#contract/accounts';
import { hashPassword } from '../auth/passwords.js';
import { revokeUserSessions } from '../auth/sessions.js';
import { tag } from '../cache/tags.js';
import { conflictError } from '../auth/routes.js';
import { requireViewer, type Viewer } from '../auth/viewer.js';
import type { ApiContext } from '../context.js';
import { one } from '../db/client.js';
import { ok, parse } from '../http.js';
import { conflictFromUniqueViolation, findConflict } from './queries.js';

/** The current user as spec §3 shows it (me response). */
export function serializeMe(viewer: Pick<Viewer, 'id' | 'name' | 'avatar' | 'username' | 'email' | 'isPerformer'>) {
  return {
    _id: viewer.id,
    name: viewer.name,
    avatar: viewer.avatar,
    username: viewer.username,
    email: viewer.email,
    isPerformer: viewer.isPerformer,
  };
}

export function userRoutes(app: FastifyInstance, ctx: ApiContext) {
  const { db } = ctx;

  app.get('/users/me', async (request) => {
    const viewer = await requireViewer(ctx, request);
    return ok(serializeMe(viewer));
  });

  /** Changes the signed-in user's sign-up details (the register step's edit mode). */
  app.put('/users', async (request) => {
    const viewer = await requireViewer(ctx, request);
    const body = parse(RegisterSchema, request.body);
    const conflict = await findConflict(db, body.username, body.email, viewer.id);
    if (conflict) throw conflictError(conflict);
    const passwordHash = await hashPassword(body.password);
    try {
      const updated = await db.transaction(async (tx) => {
        const row = await one<Omit<Viewer, 'tokenHash'>>(
          tx,
          `UPDATE users SET username = $1, email = $2, password_hash = $3,
                  name = CASE WHEN name = '' OR name = username THEN $1 ELSE name END, updated_at = now()
            WHERE id = $4
            RETURNING id, name, avatar, username, email, is_performer AS "isPerformer"`,
          [body.username, body.email, passwordHash, viewer.id],
        );
        // The password may have changed: other devices sign in again; this one keeps its session.
        await revokeUserSessions(tx, viewer.id, viewer.tokenHash);
        return row!;
      });
      await ctx.cache.invalidate(tag.user(viewer.id));
      return ok(serializeMe(updated));
    } catch (error) {
      const raced = conflictFromUniqueViolation(error);
      if (raced) throw conflictError(raced);
      throw error;
    }
  });
}
