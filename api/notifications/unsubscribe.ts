import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { one, type Queryable } from '../db/client.js';

/**
 * The signed token of a one-click unsubscribe link (RFC 8058): it names a fan and an artist and needs no login,
 * so it is an HMAC under a secret every api node shares (server_secrets). It does not expire: an unsubscribe link
 * in an old mail must still work.
 */
export async function loadUnsubscribeSecret(db: Queryable): Promise<Buffer> {
  await db.query(`INSERT INTO server_secrets (name, value) VALUES ('unsubscribe-links', $1) ON CONFLICT (name) DO NOTHING`, [
    randomBytes(32).toString('hex'),
  ]);
  const row = await one<{ value: string }>(db, `SELECT value FROM server_secrets WHERE name = 'unsubscribe-links'`);
  if (!row) throw new Error('unsubscribe secret missing');
  return Buffer.from(row.value, 'hex');
}

const sign = (secret: Buffer, subject: string) => createHmac('sha256', secret).update(`unsubscribe\n${subject}`).digest('base64url');

export function unsubscribeToken(secret: Buffer, userId: string, artistId: string) {
  const subject = Buffer.from(`${userId}\n${artistId}`).toString('base64url');
  return `${subject}.${sign(secret, subject)}`;
}

/** The fan and artist a token names, or undefined for a token we did not sign. */
export function readUnsubscribeToken(secret: Buffer, token: string | undefined): { userId: string; artistId: string } | undefined {
  if (!token || token.length > 400) return undefined;
  const [subject, signature, extra] = token.split('.');
  if (!subject || !signature || extra !== undefined) return undefined;
  const expected = Buffer.from(sign(secret, subject));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const [userId, artistId] = Buffer.from(subject, 'base64url').toString().split('\n');
  return userId && artistId ? { userId, artistId } : undefined;
}
