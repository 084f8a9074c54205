import { z } from 'zod';
import { moderationMessages, type SuspendSchema } from '#contract/moderation';
import { tag } from '../cache/tags.js';
import type { Reads } from '../context.js';
import { one, type Queryable } from '../db/client.js';
import { notFound } from '../http.js';
import { logAction } from './queries.js';

/** The operator CLI, as the audit log names it. */
export const CLI_ACTOR = { id: null, label: 'operator (CLI)' };

export const OperatorSchema = z.object({
  user: z.string({ error: 'user is required.' }).trim().min(1, 'user is required.').max(200),
  revoke: z.boolean().optional().default(false),
});

/** Makes an account an operator (or no longer one): it may then open the operator pages. */
export async function grantOperator(db: Queryable, input: z.output<typeof OperatorSchema>) {
  const user = await one<{ username: string }>(
    db,
    'UPDATE users SET is_operator = $2 WHERE lower(username) = lower($1) OR lower(email) = lower($1) RETURNING username',
    [input.user, !input.revoke],
  );
  if (!user) throw notFound(moderationMessages.userNotFound);
  return { user: user.username, operator: !input.revoke };
}

export interface Suspension {
  user: string;
  suspended: boolean;
  sessionsEnded: number;
}

/**
 * Suspends an account (or lifts a suspension): a suspended account is 'forbidden', so it cannot sign in, and every
 * session it has is deleted in the same transaction, so its tokens stop working on the next request; the read cache's
 * copy of its sessions goes with tag.user. `disconnect` drops its realtime connections where a server holds them.
 */
export async function suspendAccount(
  reads: Reads,
  input: z.output<typeof SuspendSchema>,
  actor: { id: string | null; label: string },
  disconnect?: (userId: string) => void,
): Promise<Suspension> {
  const result = await reads.db.transaction(async (tx) => {
    const user = await one<{ id: string; username: string }>(
      tx,
      'SELECT id, username FROM users WHERE lower(username) = lower($1) OR lower(email) = lower($1)',
      [input.user],
    );
    if (!user) throw notFound(moderationMessages.userNotFound);
    if (input.lift) {
      await tx.query(`UPDATE users SET status = 'active', suspended_at = NULL, suspended_reason = NULL WHERE id = $1`, [user.id]);
      await logAction(tx, {
        artistId: null,
        actorId: actor.id,
        actorLabel: actor.label,
        action: 'lifted suspension',
        subjectUserId: user.id,
        subjectLabel: `@${user.username}`,
        detail: input.reason,
      });
      return { user, sessionsEnded: 0 };
    }
    await tx.query(`UPDATE users SET status = 'forbidden', suspended_at = now(), suspended_reason = $2 WHERE id = $1`, [
      user.id,
      input.reason,
    ]);
    const ended = await tx.query<{ tokenHash: string }>('DELETE FROM sessions WHERE user_id = $1 RETURNING token_hash AS "tokenHash"', [
      user.id,
    ]);
    await logAction(tx, {
      artistId: null,
      actorId: actor.id,
      actorLabel: actor.label,
      action: 'suspended account',
      subjectUserId: user.id,
      subjectLabel: `@${user.username}`,
      detail: input.reason,
    });
    return { user, sessionsEnded: ended.length };
  });
  await reads.cache.invalidate(tag.user(result.user.id));
  if (!input.lift) disconnect?.(result.user.id);
  return { user: result.user.username, suspended: !input.lift, sessionsEnded: result.sessionsEnded };
}
