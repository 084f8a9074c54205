import { createHash, randomBytes } from 'node:crypto';

/** An opaque random token (256 bits, base64url) and the hash that is the only thing stored. */
export function newToken() {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string) {
  return createHash('sha256').update(token).digest('hex');
}
