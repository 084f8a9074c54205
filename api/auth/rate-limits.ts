import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ApiError } from '../http.js';

/**
 * Limits on the endpoints worth abusing. The numbers are documented in docs/security.md.
 * In-memory counters: each api node counts for itself (see docs/operations.md for several nodes).
 */
export function createLimiters() {
  return {
    /** Failed log-ins per account: stops password guessing against one fan. */
    loginPerAccount: new RateLimiterMemory({ keyPrefix: 'login-account', points: 10, duration: 15 * 60 }),
    /** Log-in attempts per address: stops one machine spraying many accounts. */
    loginPerAddress: new RateLimiterMemory({ keyPrefix: 'login-address', points: 100, duration: 15 * 60 }),
    forgotPerEmail: new RateLimiterMemory({ keyPrefix: 'forgot-email', points: 5, duration: 60 * 60 }),
    forgotPerAddress: new RateLimiterMemory({ keyPrefix: 'forgot-address', points: 30, duration: 60 * 60 }),
    registerPerAddress: new RateLimiterMemory({ keyPrefix: 'register-address', points: 30, duration: 60 * 60 }),
  };
}

export type Limiters = ReturnType<typeof createLimiters>;

export const TOO_MANY = 'Too many attempts. Please wait a few minutes and try again.';

/** Spends a point; past the limit throws 429 with Retry-After in seconds. */
export async function consume(limiter: RateLimiterAbstract, key: string) {
  try {
    await limiter.consume(key);
  } catch (error) {
    if (error instanceof RateLimiterRes) throw tooMany(error);
    throw error;
  }
}

/** Throws 429 when the key has already used its points, without spending one. */
export async function ensureNotBlocked(limiter: RateLimiterAbstract, key: string) {
  const res = await limiter.get(key);
  if (res && res.remainingPoints <= 0 && res.consumedPoints > limiter.points - 1) throw tooMany(res);
}

function tooMany(res: RateLimiterRes) {
  const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return new ApiError(429, TOO_MANY, undefined, { 'Retry-After': String(seconds) });
}
