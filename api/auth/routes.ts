import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { EmailSchema, LoginBodySchema, PasswordSchema, RegisterSchema } from '#contract/accounts';
import type { ApiContext } from '../context.js';
import { one } from '../db/client.js';
import { ApiError, badRequest, forbidden, ok, parse, unprocessable } from '../http.js';
import { conflictFromUniqueViolation, findConflict, findUserByLogin, type Conflict } from '../users/queries.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.js';
import { consume, ensureNotBlocked } from './rate-limits.js';
import { tag } from '../cache/tags.js';
import { createSession, revokeSession, revokeUserSessions } from './sessions.js';
import { hashToken, newToken } from './tokens.js';
import { requireViewer } from './viewer.js';
import { queueMail } from '../mail/queue.js';
import { moderationMessages } from '#contract/moderation';

export const INCORRECT_DETAILS = 'The details you entered are incorrect.';
export const USERNAME_TAKEN = 'That username is already taken. Please choose another.';
export const EMAIL_TAKEN = 'An account with this email address already exists. Log in instead.';
const RESET_TOKEN_INVALID = 'This password reset link is invalid or has expired. Please request a new one.';
const RESET_TTL_MINUTES = 60;

export function conflictError(conflict: Exclude<Conflict, undefined>) {
  return conflict === 'username'
    ? new ApiError(400, USERNAME_TAKEN, { username: [USERNAME_TAKEN] })
    : new ApiError(422, EMAIL_TAKEN, { email: [EMAIL_TAKEN] });
}

export function authRoutes(app: FastifyInstance, ctx: ApiContext) {
  const { db, config, limiters } = ctx;

  app.post('/auth/login', async (request) => {
    const body = parse(LoginBodySchema, request.body);
    await consume(limiters.loginPerAddress, request.ip);
    const user = await findUserByLogin(db, body.username);
    // Counted per account, whether it is named by email or by username; an unknown name has a count of its own.
    const accountKey = user ? `user:${user.id}` : `name:${body.username.toLowerCase()}`;
    await ensureNotBlocked(limiters.loginPerAccount, accountKey);
    // Verify against a dummy hash for unknown users, so "no such user" and "wrong password" look and time alike.
    const valid = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), body.password);
    if (!user || !valid) {
      await consume(limiters.loginPerAccount, accountKey);
      throw unprocessable(INCORRECT_DETAILS);
    }
    await limiters.loginPerAccount.delete(accountKey);
    // Told only to whoever knows the password: a suspended account's owner learns why they cannot sign in.
    if (user.status !== 'active') throw forbidden(moderationMessages.suspended);
    const token = await createSession(db, user.id, config.sessionTtlDays);
    return ok({ token });
  });

  app.post('/auth/users/register', async (request, reply) => {
    await consume(limiters.registerPerAddress, request.ip);
    const body = parse(RegisterSchema, request.body);
    const conflict = await findConflict(db, body.username, body.email);
    if (conflict) throw conflictError(conflict);
    const passwordHash = await hashPassword(body.password);
    try {
      const token = await db.transaction(async (tx) => {
        const user = await one<{ id: string }>(
          tx,
          `INSERT INTO users (username, email, name, password_hash) VALUES ($1, $2, $1, $3) RETURNING id`,
          [body.username, body.email, passwordHash],
        );
        return createSession(tx, user!.id, config.sessionTtlDays);
      });
      reply.status(200);
      return ok({ token });
    } catch (error) {
      const raced = conflictFromUniqueViolation(error);
      if (raced) throw conflictError(raced);
      throw error;
    }
  });

  app.post('/auth/logout', async (request) => {
    const viewer = await requireViewer(ctx, request);
    await revokeSession(db, viewer.tokenHash);
    await ctx.cache.invalidate(tag.session(viewer.tokenHash));
    return ok({ success: true });
  });

  app.post('/auth/users/forgot', async (request) => {
    const body = parse(z.object({ email: EmailSchema, artist: z.string().max(60).optional() }), request.body);
    await consume(limiters.forgotPerAddress, request.ip);
    await consume(limiters.forgotPerEmail, body.email);
    const user = await findUserByLogin(db, body.email);
    // The answer is the same whether or not the account exists; the mail goes out after the reply.
    if (user && user.status === 'active' && user.email.toLowerCase() === body.email) {
      const { token, hash } = newToken();
      const link = new URL('/password/reset', config.publicWebUrl);
      link.searchParams.set('token', token);
      if (body.artist) link.searchParams.set('artist', body.artist);
      // The reset and its mail are recorded together; the mail goes out from the queue, after the reply.
      await db.transaction(async (tx) => {
        await tx.query(`INSERT INTO password_resets (token_hash, user_id, expires_at) VALUES ($1, $2, now() + make_interval(mins => $3))`, [
          hash,
          user.id,
          RESET_TTL_MINUTES,
        ]);
        await queueMail(ctx.jobs, { kind: 'passwordReset', userId: user.id, link: link.href }, { key: `password-reset:${hash}`, tx });
      });
    }
    return ok({ success: true });
  });

  app.post('/auth/password-change', async (request) => {
    await consume(limiters.passwordChangePerAddress, request.ip);
    const query = parse(
      z.object({ token: z.string({ error: RESET_TOKEN_INVALID }).min(1, RESET_TOKEN_INVALID).max(200, RESET_TOKEN_INVALID) }),
      request.query,
    );
    const body = parse(z.object({ password: PasswordSchema }), request.body);
    const tokenHash = hashToken(query.token);
    const invalid = () => badRequest(RESET_TOKEN_INVALID, { token: [RESET_TOKEN_INVALID] });
    // The token is checked before the password is hashed: a junk token must not cost an argon2 hash.
    const usable = `token_hash = $1 AND used_at IS NULL AND expires_at > now()`;
    if (!(await one(db, `SELECT 1 FROM password_resets WHERE ${usable}`, [tokenHash]))) throw invalid();
    const passwordHash = await hashPassword(body.password);
    const userId = await db.transaction(async (tx) => {
      // Spending the token and changing the password happen together: a token works once (asked again here, as
      // another request may have spent it while this one hashed).
      const reset = await one<{ userId: string }>(
        tx,
        `UPDATE password_resets SET used_at = now() WHERE ${usable} RETURNING user_id AS "userId"`,
        [tokenHash],
      );
      if (!reset) throw invalid();
      await tx.query('UPDATE users SET password_hash = $1, updated_at = now() WHERE id = $2', [passwordHash, reset.userId]);
      await tx.query('UPDATE password_resets SET used_at = now() WHERE user_id = $1 AND used_at IS NULL', [reset.userId]);
      await revokeUserSessions(tx, reset.userId);
      await queueMail(
        ctx.jobs,
        { kind: 'passwordChanged', userId: reset.userId, at: new Date().toISOString() },
        { key: `password-changed:${hashToken(query.token)}`, tx },
      );
      return reset.userId;
    });
    await ctx.cache.invalidate(tag.user(userId));
    return ok({ success: true });
  });
}
