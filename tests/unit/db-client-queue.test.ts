import { afterEach, describe, expect, it, vi } from 'vitest';
import { clientQueue } from '../../api/db/client';
import { isDatabaseUnavailable } from '../../api/http';

// The queue in front of the PostgreSQL pool: a crowd waits its turn for a client instead of being told the
// database is down after pg-pool's 5 s connect timeout (found by the bench's load part).
describe('database client queue', () => {
  afterEach(() => vi.useRealTimers());

  it('hands out the free clients at once, then serves the waiting in order as clients come back', async () => {
    const queue = clientQueue(2, 1000);
    await queue.acquire();
    await queue.acquire();
    const order: number[] = [];
    const waits = [1, 2, 3].map((n) => queue.acquire().then(() => order.push(n)));
    expect(queue.waiting).toBe(3);
    queue.release();
    queue.release();
    queue.release();
    await Promise.all(waits);
    expect(order).toEqual([1, 2, 3]);
    expect(queue.waiting).toBe(0);
    // Five taken, three handed back (each straight to a waiter): two still held. Once they are back, two are free.
    queue.release();
    queue.release();
    await queue.acquire();
    await queue.acquire();
    expect(queue.waiting).toBe(0);
    queue.acquire().catch(() => {});
    expect(queue.waiting).toBe(1);
  });

  it('gives up after the wait with an error the api answers as a 503, and does not leak the place', async () => {
    vi.useFakeTimers();
    const queue = clientQueue(1, 15_000);
    await queue.acquire();
    const waiting = queue.acquire();
    const caught = waiting.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(14_999);
    expect(queue.waiting).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    const error = await caught;
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(queue.waiting).toBe(0);
    queue.release();
    await queue.acquire();
  });
});
