import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SetupAccountSchema, SetupClubSchema, setupMessages, type SetupStatus, type SetupStep } from '#contract/setup';
import { hashPassword } from '../auth/passwords.js';
import { conflictError } from '../auth/routes.js';
import { consume } from '../auth/rate-limits.js';
import { createSession } from '../auth/sessions.js';
import { bearerToken, requireViewer, viewerForToken } from '../auth/viewer.js';
import { tag } from '../cache/tags.js';
import type { ApiContext } from '../context.js';
import { one, type Queryable } from '../db/client.js';
import { forbidden, notFound, ok, parse } from '../http.js';
import { conflictFromUniqueViolation, findConflict, isOperator } from '../users/queries.js';

/**
 * The first-run setup (docs/operations.md "First run"): on an install with no account at all, whoever comes first
 * makes the owner's account, an operator; that account then opens the first club on itself. Once any account exists
 * the first step answers 404, so nobody can take an installed site over; two first steps at once: one wins.
 */
export function setupRoutes(app: FastifyInstance, ctx: ApiContext) {
  const { db, config, limiters } = ctx;

  async function stepFor(request: FastifyRequest): Promise<SetupStep> {
    if (!(await hasAccounts(db))) return 'account';
    const viewer = await viewerForToken(ctx, bearerToken(request)).catch(() => undefined);
    if (!viewer || viewer.isPerformer) return 'done';
    return (await awaitsClub(db, viewer.id)) ? 'club' : 'done';
  }

  app.get('/setup', async (request) => ok<SetupStatus>({ step: await stepFor(request) }));

  app.post('/setup/account', async (request) => {
    await consume(limiters.registerPerAddress, request.ip);
    const body = parse(SetupAccountSchema, request.body);
    // Hashed before the lock: the lock is held for two statements, not for the seconds argon2 takes.
    const passwordHash = await hashPassword(body.password);
    try {
      const token = await db.transaction(async (tx) => {
        // The lock makes concurrent first steps (and sign-ups) wait for each other, so exactly one sees an empty table.
        await tx.query('LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE');
        if (await hasAccounts(tx)) throw notFound(setupMessages.installed);
        const user = await one<{ id: string }>(
          tx,
          `INSERT INTO users (username, email, name, password_hash, is_operator) VALUES ($1, $2, $3, $4, true) RETURNING id`,
          [body.username, body.email, body.name, passwordHash],
        );
        return createSession(tx, user!.id, config.sessionTtlDays);
      });
      return ok({ token });
    } catch (error) {
      const raced = conflictFromUniqueViolation(error);
      if (raced) throw conflictError(raced);
      throw error;
    }
  });

  app.post('/setup/club', async (request) => {
    const viewer = await requireViewer(ctx, request);
    // Anyone but the operator learns nothing here, not even what the step would accept.
    if (!(await isOperator(db, viewer.id))) throw notFound(setupMessages.installed);
    const body = parse(SetupClubSchema, request.body);
    const conflict = await findConflict(db, body.username, viewer.email, viewer.id);
    if (conflict === 'username') throw conflictError(conflict);
    try {
      await db.transaction(async (tx) => {
        // Row locks on the owner's account: a second submit of this step waits, then finds the club made.
        const owner = await one<{ isOperator: boolean; isPerformer: boolean }>(
          tx,
          'SELECT is_operator AS "isOperator", is_performer AS "isPerformer" FROM users WHERE id = $1 FOR UPDATE',
          [viewer.id],
        );
        if (!owner?.isOperator) throw notFound(setupMessages.installed);
        if (owner.isPerformer || !(await awaitsClub(tx, viewer.id))) throw forbidden(setupMessages.installed);
        await tx.query('UPDATE users SET is_performer = true, name = $2, username = $3 WHERE id = $1', [
          viewer.id,
          body.name,
          body.username,
        ]);
        await tx.query('INSERT INTO artist_profiles (user_id, yearly_price_cents, currency) VALUES ($1, $2, $3)', [
          viewer.id,
          Math.round(body.yearlyPrice * 100),
          body.currency,
        ]);
      });
    } catch (error) {
      const raced = conflictFromUniqueViolation(error);
      if (raced) throw conflictError(raced);
      throw error;
    }
    await ctx.cache.invalidate(tag.user(viewer.id), tag.artists());
    return ok({ username: body.username });
  });
}

async function hasAccounts(db: Queryable) {
  return (await one<{ found: boolean }>(db, 'SELECT EXISTS (SELECT 1 FROM users) AS found'))!.found;
}

/** The owner's club is still to make: the account is an operator, not yet an artist, and no artist exists yet. */
async function awaitsClub(db: Queryable, userId: string) {
  const row = await one<{ waiting: boolean }>(
    db,
    `SELECT EXISTS (SELECT 1 FROM users WHERE id = $1 AND is_operator AND NOT is_performer)
        AND NOT EXISTS (SELECT 1 FROM users WHERE is_performer) AS waiting`,
    [userId],
  );
  return row!.waiting;
}
