import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ApiError } from '../http.js';
import type { Redis } from '../redis.js';

interface LimitOptions {
  keyPrefix: string;
  points: number;
  /** Seconds. */
  duration: number;
}

/**
 * Limits on the endpoints worth abusing. The numbers are documented in docs/security.md.
 *
 * With REDIS_URL the counters live in Redis, so every api node counts against the same limit: behind a load
 * balancer, a guesser does not get a fresh allowance from each node. Should Redis stop answering, each node counts
 * for itself in memory until it is back (the insurance limiter): a login is never refused for want of Redis.
 * Without Redis (one node, PGlite) the counters are in memory.
 */
export function createLimiters(redis?: Redis) {
  const limiter = (options: LimitOptions): RateLimiterAbstract => {
    const memory = new RateLimiterMemory(options);
    if (!redis) return memory;
    return new RateLimiterRedis({
      ...options,
      keyPrefix: `stagedoor:limit:${options.keyPrefix}`,
      storeClient: redis,
      useRedisPackage: true,
      rejectIfRedisNotReady: true,
      insuranceLimiter: memory,
    });
  };
  return {
    /** Failed log-ins per account: stops password guessing against one fan. */
    loginPerAccount: limiter({ keyPrefix: 'login-account', points: 10, duration: 15 * 60 }),
    /** Log-in attempts per address: stops one machine spraying many accounts. */
    loginPerAddress: limiter({ keyPrefix: 'login-address', points: 100, duration: 15 * 60 }),
    forgotPerEmail: limiter({ keyPrefix: 'forgot-email', points: 5, duration: 60 * 60 }),
    forgotPerAddress: limiter({ keyPrefix: 'forgot-address', points: 30, duration: 60 * 60 }),
    registerPerAddress: limiter({ keyPrefix: 'register-address', points: 30, duration: 60 * 60 }),
    /** Trying promo codes (the check, or a payment naming one): a fan has a few to type, a guesser many. */
    promoPerUser: limiter({ keyPrefix: 'promo-user', points: 20, duration: 15 * 60 }),
    promoPerAddress: limiter({ keyPrefix: 'promo-address', points: 60, duration: 15 * 60 }),
    /** Setting a password through a reset link hashes it (argon2id): a flood of them would starve other requests. */
    passwordChangePerAddress: limiter({ keyPrefix: 'password-change-address', points: 20, duration: 60 * 60 }),
    /** For the limits a route keeps with its own numbers (comments, messages), in the same store. */
    limiter,
  };
}

export type Limiters = ReturnType<typeof createLimiters>;

export const TOO_MANY = 'Too many attempts. Please wait a few minutes and try again.';

/** Spends a point; past the limit throws 429 with Retry-After in seconds, and `message` (TOO_MANY by default). */
export async function consume(limiter: RateLimiterAbstract, key: string, message = TOO_MANY) {
  try {
    await limiter.consume(key);
  } catch (error) {
    if (error instanceof RateLimiterRes) throw tooMany(error, message);
    throw error;
  }
}

/** Throws 429 when the key has already used its points, without spending one. */
export async function ensureNotBlocked(limiter: RateLimiterAbstract, key: string) {
  const res = await limiter.get(key);
  if (res && res.remainingPoints <= 0 && res.consumedPoints > limiter.points - 1) throw tooMany(res);
}

function tooMany(res: RateLimiterRes, message = TOO_MANY) {
  const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return new ApiError(429, message, undefined, { 'Retry-After': String(seconds) });
}
