import type { FastifyInstance } from 'fastify';
import { AccountChangesSchema, messages } from '#contract/accounts';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { consume, ensureNotBlocked } from '../auth/rate-limits.js';
import { revokeUserSessions } from '../auth/sessions.js';
import { accountTags } from '../cache/tags.js';
import { conflictError } from '../auth/routes.js';
import { requireViewer, type Viewer } from '../auth/viewer.js';
import type { ApiContext } from '../context.js';
import { one } from '../db/client.js';
import { badRequest, ok, parse, unprocessable } from '../http.js';
import { queueMail } from '../mail/queue.js';
import { cachedUnreadTotal } from '../conversations/queries.js';
import { cachedUnreadCount } from '../notifications/queries.js';
import { conflictFromUniqueViolation, findConflict, findUserById, isSigningUp } from './queries.js';

/** The current user as every client receives it (MeResponse, contract/users.ts). */
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
  const { db, limiters } = ctx;

  app.get('/users/me', async (request) => {
    const viewer = await requireViewer(ctx, request);
    return ok(serializeMe(viewer));
  });

  /**
   * The top bar's two counts in one call (the web asks on every signed-in page, and each call it makes costs CPU):
   * unread messages (as GET /messages/total-unread-messages) and unread notifications (GET
   * /notifications/unread-count). Both come from the read cache.
   */
  app.get('/users/me/unread', async (request) => {
    const viewer = await requireViewer(ctx, request);
    const [messages, notifications] = await Promise.all([cachedUnreadTotal(ctx, viewer.id), cachedUnreadCount(ctx, viewer.id)]);
    return ok({ messages, notifications });
  });

  /**
   * Changes the signed-in user's sign-up details (the register step's edit mode). Changing the email address or the
   * password takes the current password, except for a fan still signing up; the old address is told of either.
   */
  app.put('/users', async (request) => {
    const viewer = await requireViewer(ctx, request);
    const body = parse(AccountChangesSchema, request.body);
    const conflict = await findConflict(db, body.username, body.email, viewer.id);
    if (conflict) throw conflictError(conflict);
    const user = (await findUserById(db, viewer.id))!;
    // Each way of trying a password here counts as a failed log-in of the account (stolen sessions must not guess).
    const accountKey = `user:${user.id}`;
    await ensureNotBlocked(limiters.loginPerAccount, accountKey);
    // Sending the password the account already has is itself proof of it.
    const keepsPassword = await verifyPassword(user.passwordHash, body.password);
    const changesEmail = body.email !== user.email.toLowerCase();
    if (!keepsPassword && !(await isSigningUp(db, user.id))) {
      if (!body.currentPassword) {
        await consume(limiters.loginPerAccount, accountKey);
        throw badRequest(messages.currentPasswordRequired, { currentPassword: [messages.currentPasswordRequired] });
      }
      if (!(await verifyPassword(user.passwordHash, body.currentPassword))) {
        await consume(limiters.loginPerAccount, accountKey);
        throw unprocessable(messages.currentPasswordIncorrect, { currentPassword: [messages.currentPasswordIncorrect] });
      }
    }
    const passwordHash = keepsPassword ? user.passwordHash : await hashPassword(body.password);
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
        // The address the account had is told (a thief with a session alone is then found out): of the new email,
        // or of the new password.
        const at = new Date().toISOString();
        if (changesEmail) {
          await queueMail(
            ctx.jobs,
            { kind: 'emailChanged', userId: user.id, oldEmail: user.email, newEmail: body.email, at },
            { key: `email-changed:${user.id}:${at}`, tx },
          );
        } else if (!keepsPassword) {
          await queueMail(ctx.jobs, { kind: 'passwordChanged', userId: user.id, at }, { key: `password-changed:${user.id}:${at}`, tx });
        }
        return row!;
      });
      await ctx.cache.invalidate(...accountTags(viewer.id, updated.isPerformer));
      return ok(serializeMe(updated));
    } catch (error) {
      const raced = conflictFromUniqueViolation(error);
      if (raced) throw conflictError(raced);
      throw error;
    }
  });
}
