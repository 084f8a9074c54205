import { describe, expect, it } from 'vitest';
import { oncePerRequest, requestScope } from '~/utils/request-scope.server';

describe('oncePerRequest', () => {
  it('runs the work once per key within one request scope, and shares its result', async () => {
    let calls = 0;
    const work = async () => ++calls;
    const results = await requestScope.run(new Map(), () =>
      Promise.all([oncePerRequest('me:a', work), oncePerRequest('me:a', work), oncePerRequest('me:b', work)]),
    );
    expect(results).toEqual([1, 1, 2]);
    expect(calls).toBe(2);
  });

  it('does not share between requests, nor outside a request scope', async () => {
    let calls = 0;
    const work = async () => ++calls;
    await requestScope.run(new Map(), () => oncePerRequest('me:a', work));
    await requestScope.run(new Map(), () => oncePerRequest('me:a', work));
    await oncePerRequest('me:a', work);
    await oncePerRequest('me:a', work);
    expect(calls).toBe(4);
  });

  it('shares a failure too, so every loader sees the same refusal', async () => {
    let calls = 0;
    const work = async () => {
      calls += 1;
      throw new Error('401');
    };
    const outcomes = await requestScope.run(new Map(), () =>
      Promise.allSettled([oncePerRequest('me:x', work), oncePerRequest('me:x', work)]),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toBe(1);
  });
});
