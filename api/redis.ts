import type { FastifyBaseLogger } from 'fastify';

export type Redis = Awaited<ReturnType<typeof connectRedis>>;

/**
 * The api's Redis client (the realtime adapter, the rate limits). Start-up fails with a clear error when Redis
 * does not answer, rather than waiting forever; once running, a lost connection is retried without end, backing
 * off to 5 s.
 */
export async function connectRedis(url: string, log: FastifyBaseLogger) {
  // Loaded only when REDIS_URL is set: one server without Redis keeps its memory (about 5 MB) for pages.
  const { createClient } = await import('redis');
  let started = false;
  const redis = createClient({
    url,
    socket: {
      reconnectStrategy: (retries, cause) => (!started && retries >= 5 ? cause : Math.min(100 * 2 ** retries, 5000)),
    },
  });
  // Without a listener a lost Redis connection would crash the process.
  redis.on('error', (error: Error) => log.warn({ err: error }, 'redis error'));
  try {
    await redis.connect();
  } catch (error) {
    throw new Error(`Cannot reach Redis at REDIS_URL: ${(error as Error).message}`);
  }
  started = true;
  return redis;
}
