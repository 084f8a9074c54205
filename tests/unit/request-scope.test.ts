import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { SCOPE_HEADER, oncePerRequest, openRequestScope, openScopes } from '~/utils/request-scope.server';

/**
 * A page request as server/web.ts sees it (method, headers, an answer that closes), and the `Request` a loader gets:
 * Remix copies the Express request's headers into each loader's own `Request`.
 */
function pageRequest(method = 'GET', headers: Record<string, string> = {}) {
  const req = { method, headers: { ...headers } } as unknown as IncomingMessage;
  const res = new EventEmitter() as unknown as ServerResponse;
  openRequestScope(req, res);
  const loaderRequest = () => new Request('http://localhost/thelatenights', { method, headers: req.headers as Record<string, string> });
  return { req, loaderRequest, close: () => res.emit('close') };
}

describe('oncePerRequest', () => {
  it('runs the work once per key within one page request, and shares its result between its loaders', async () => {
    let calls = 0;
    const work = async () => ++calls;
    const page = pageRequest();
    const results = await Promise.all([
      oncePerRequest(page.loaderRequest(), 'me:a', work),
      oncePerRequest(page.loaderRequest(), 'me:a', work),
      oncePerRequest(page.loaderRequest(), 'me:b', work),
    ]);
    expect(results).toEqual([1, 1, 2]);
    expect(calls).toBe(2);
    page.close();
  });

  it('does not share between requests, nor outside a request scope', async () => {
    let calls = 0;
    const work = async () => ++calls;
    const first = pageRequest();
    const second = pageRequest();
    await oncePerRequest(first.loaderRequest(), 'me:a', work);
    await oncePerRequest(second.loaderRequest(), 'me:a', work);
    await oncePerRequest(new Request('http://localhost/'), 'me:a', work);
    await oncePerRequest(new Request('http://localhost/'), 'me:a', work);
    expect(calls).toBe(4);
    first.close();
    second.close();
  });

  it('ignores a scope id sent by the client: a request cannot join another request’s scope', async () => {
    let calls = 0;
    const work = async () => `user ${++calls}`;
    const victim = pageRequest();
    const victimId = victim.req.headers[SCOPE_HEADER] as string;
    expect(victimId).toMatch(/^[0-9a-f-]{36}$/);
    await oncePerRequest(victim.loaderRequest(), 'me:token', work);

    const attacker = pageRequest('GET', { [SCOPE_HEADER]: victimId });
    expect(attacker.req.headers[SCOPE_HEADER]).not.toBe(victimId);
    expect(await oncePerRequest(attacker.loaderRequest(), 'me:token', work)).toBe('user 2');

    const write = pageRequest('POST', { [SCOPE_HEADER]: victimId });
    expect(write.req.headers[SCOPE_HEADER]).toBeUndefined();
    expect(await oncePerRequest(write.loaderRequest(), 'me:token', work)).toBe('user 3');
    victim.close();
    attacker.close();
    write.close();
  });

  it('gives writes no scope, so an action sees fresh data', async () => {
    let calls = 0;
    const work = async () => ++calls;
    const write = pageRequest('POST');
    await Promise.all([oncePerRequest(write.loaderRequest(), 'me:a', work), oncePerRequest(write.loaderRequest(), 'me:a', work)]);
    expect(calls).toBe(2);
  });

  it('closes each scope with its answer', () => {
    const before = openScopes();
    const pages = Array.from({ length: 5 }, () => pageRequest());
    expect(openScopes()).toBe(before + 5);
    for (const page of pages) page.close();
    expect(openScopes()).toBe(before);
  });

  it('shares a failure too, so every loader sees the same refusal', async () => {
    let calls = 0;
    const work = async () => {
      calls += 1;
      throw new Error('401');
    };
    const page = pageRequest();
    const outcomes = await Promise.allSettled([oncePerRequest(page.loaderRequest(), 'me:x', work), oncePerRequest(page.loaderRequest(), 'me:x', work)]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toBe(1);
    page.close();
  });
});
