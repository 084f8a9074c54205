import { one, type Queryable } from '../db/client.js';

export interface UserRow {
  id: string;
  username: string;
  email: string;
  name: string;
  avatar: string;
  isPerformer: boolean;
  status: 'active' | 'forbidden';
  passwordHash: string;
}

const USER_COLUMNS = `id, username, email, name, avatar, is_performer AS "isPerformer", status, password_hash AS "passwordHash"`;

/** Finds a user by username or email, case-insensitively. */
export function findUserByLogin(db: Queryable, usernameOrEmail: string) {
  const key = usernameOrEmail.trim().toLowerCase();
  return one<UserRow>(db, `SELECT ${USER_COLUMNS} FROM users WHERE lower(username) = $1 OR lower(email) = $1 LIMIT 1`, [key]);
}

export function findUserById(db: Queryable, id: string) {
  return one<UserRow>(db, `SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]);
}

/** How long after registering a fan counts as signing up, if they have neither paid nor joined a club. */
export const SIGN_UP_MINUTES = 60;

/**
 * A fan still in the sign-up funnel: registered within SIGN_UP_MINUTES, no payment made, no subscription. Such a
 * fan may correct the details just given (the register step's edit) without the password they just chose.
 */
export async function isSigningUp(db: Queryable, userId: string) {
  const row = await one(
    db,
    `SELECT 1 FROM users u
      WHERE u.id = $1 AND NOT u.is_performer AND u.created_at > now() - make_interval(mins => $2)
        AND NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.user_id = u.id)
        AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.user_id = u.id AND p.status = 'succeeded')`,
    [userId, SIGN_UP_MINUTES],
  );
  return row !== undefined;
}

export type Conflict = 'username' | 'email' | undefined;

/**
 * Which unique field another user already holds: the username is checked first, so a taken username answers 400
 * before a taken email answers 422.
 */
export async function findConflict(db: Queryable, username: string, email: string, exceptUserId?: string): Promise<Conflict> {
  const rows = await db.query<{ username: string; email: string }>(
    `SELECT lower(username) AS username, lower(email) AS email FROM users
      WHERE (lower(username) = lower($1) OR lower(email) = lower($2)) AND id IS DISTINCT FROM $3`,
    [username, email, exceptUserId ?? null],
  );
  if (rows.some((r) => r.username === username.toLowerCase())) return 'username';
  if (rows.some((r) => r.email === email.toLowerCase())) return 'email';
  return undefined;
}

/** Maps a unique-index violation raised by a race between two sign-ups onto the same conflict answer. */
export function conflictFromUniqueViolation(error: unknown): Conflict {
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e?.code !== '23505') return undefined;
  const where = `${e.constraint ?? ''} ${e.message ?? ''}`;
  if (where.includes('users_username_key')) return 'username';
  if (where.includes('users_email_key')) return 'email';
  return undefined;
}

/** Whether the account may use the operator's pages and steps (granted by the first-run setup or the CLI). */
export async function isOperator(db: Queryable, userId: string) {
  return (await one<{ found: boolean }>(db, 'SELECT EXISTS (SELECT 1 FROM users WHERE id = $1 AND is_operator) AS found', [userId]))!.found;
}
