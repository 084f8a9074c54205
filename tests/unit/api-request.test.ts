import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { registerApiDispatch, type ApiDispatch } from '../../app/utils/api-dispatch.server';
import { apiRequest, HttpError, isHttpError } from '../../app/utils/api.server';

/**
 * The request helper of spec §7 against a small local HTTP server that records what it receives and answers
 * what each test scripts. The helper reads the api base from API_URL (contract/config.ts), set before its first call.
 */

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Script = (request: Received, response: http.ServerResponse, count: number) => void;

let server: http.Server;
let received: Received[] = [];
let script: Script;

const json = (response: http.ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const request = { method: req.method!, url: req.url!, headers: req.headers, body };
      received.push(request);
      script(request, res, received.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.API_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  received = [];
  script = (_request, response) => json(response, 200, { status: 0, data: { ok: true } });
});

/** Short backoff so the retry tests take milliseconds, not the production seconds. */
const fast = { backoffMs: 5 };

describe('apiRequest', () => {
  it('returns the parsed body', async () => {
    script = (_request, response) => json(response, 200, { status: 0, data: { token: 'abc' } });
    await expect(apiRequest({ path: '/auth/login', method: 'POST', body: { username: 'fan' } })).resolves.toEqual({
      status: 0,
      data: { token: 'abc' },
    });
  });

  it('sends the Authorization header only when there is a token', async () => {
    await apiRequest({ path: '/users/me', token: 'secret-token' });
    await apiRequest({ path: '/users/me' });
    await apiRequest({ path: '/users/me', token: '' });
    expect(received.map((r) => r.headers.authorization)).toEqual(['Bearer secret-token', undefined, undefined]);
  });

  it('sends the method, a JSON body with its content type, and nothing for a bodiless call', async () => {
    await apiRequest({ method: 'PUT', path: 'users', body: { username: 'nightowl', remember: true } });
    await apiRequest({ path: '/users/me' });
    expect(received[0]).toMatchObject({ method: 'PUT', url: '/users', body: '{"username":"nightowl","remember":true}' });
    expect(received[0].headers['content-type']).toBe('application/json');
    expect(received[1]).toMatchObject({ method: 'GET', body: '' });
    expect(received[1].headers['content-type']).toBeUndefined();
  });

  it('adds query params: strings, numbers, booleans and lists, skipping empty values', async () => {
    await apiRequest({
      path: '/performers/user/search',
      params: { q: 'late nights', limit: Number.MAX_SAFE_INTEGER, edit: true, filters: ['demo', 'live'], offset: undefined, sort: null },
    });
    const url = new URL(received[0].url, 'http://x');
    expect(url.pathname).toBe('/performers/user/search');
    expect(url.searchParams.get('q')).toBe('late nights');
    expect(url.searchParams.get('limit')).toBe('9007199254740991');
    expect(url.searchParams.get('edit')).toBe('true');
    expect(url.searchParams.getAll('filters')).toEqual(['demo', 'live']);
    expect(url.searchParams.has('offset')).toBe(false);
    expect(url.searchParams.has('sort')).toBe(false);
  });

  it('treats any status below 400 as success by default, with no body as undefined', async () => {
    script = (_request, response) => json(response, 201, { status: 0, data: 'created' });
    await expect(apiRequest({ method: 'POST', path: '/x' })).resolves.toEqual({ status: 0, data: 'created' });
    script = (_request, response) => {
      response.writeHead(204);
      response.end();
    };
    await expect(apiRequest({ method: 'DELETE', path: '/x' })).resolves.toBeUndefined();
  });

  it('throws an HttpError with the status and the body for 400 and above', async () => {
    const body = { status: 422, message: 'The details you entered are incorrect.', errors: { email: ['taken'] } };
    script = (_request, response) => json(response, 422, body);
    const error = await apiRequest({ method: 'POST', path: '/auth/login' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 422, body, message: body.message });
    expect((error as HttpError).fieldErrors).toEqual({ email: ['taken'] });
    expect(isHttpError(error)).toBe(true);
    expect(isHttpError(error, 404, 422)).toBe(true);
    expect(isHttpError(error, 401)).toBe(false);
    expect(isHttpError(new Error('x'))).toBe(false);
  });

  it('keeps a body that is not JSON as its text', async () => {
    script = (_request, response) => {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('no such thing');
    };
    const error = (await apiRequest({ path: '/nothing' }).catch((e: unknown) => e)) as HttpError;
    expect(error.status).toBe(404);
    expect(error.body).toEqual({ status: 404, message: 'no such thing' });
  });

  it('accepts the statuses a custom validateStatus allows (sign-up: 200, 400 and 422)', async () => {
    const validateStatus = (status: number) => [200, 400, 422].includes(status);
    script = (_request, response) => json(response, 400, { status: 400, message: 'username taken' });
    await expect(apiRequest({ method: 'POST', path: '/auth/users/register', validateStatus })).resolves.toEqual({
      status: 400,
      message: 'username taken',
    });
    script = (_request, response) => json(response, 500, { status: 500, message: 'boom' });
    await expect(apiRequest({ method: 'POST', path: '/auth/users/register', validateStatus })).rejects.toMatchObject({ status: 500 });
    script = (_request, response) => json(response, 201, { status: 0 });
    await expect(apiRequest({ method: 'POST', path: '/auth/users/register', validateStatus })).rejects.toMatchObject({ status: 201 });
  });

  it('retries a GET answered 503, then returns the answer that succeeds', async () => {
    script = (_request, response, count) =>
      count < 3 ? json(response, 503, { status: 503, message: 'busy' }) : json(response, 200, { status: 0, data: 'third time' });
    await expect(apiRequest({ path: '/performers/novaricci', ...fast })).resolves.toEqual({ status: 0, data: 'third time' });
    expect(received).toHaveLength(3);
  });

  it('does not retry while the api says its database is out of reach, and throws a 503 response for the 503 page', async () => {
    script = (_request, response) =>
      json(response, 503, { status: 503, code: 'database_unavailable', message: "We can't reach our database right now. Please try again in a moment." });
    const error = await apiRequest({ path: '/performers/novaricci', ...fast }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Response);
    expect((error as Response).status).toBe(503);
    expect(await (error as Response).text()).toBe("We can't reach our database right now. Please try again in a moment.");
    expect(received).toHaveLength(1);
  });

  it('retries a GET 3 times at most, then throws the last answer', async () => {
    script = (_request, response) => json(response, 502, { status: 502, message: 'bad gateway' });
    await expect(apiRequest({ path: '/x', ...fast })).rejects.toMatchObject({ status: 502 });
    expect(received).toHaveLength(4);
  });

  it('retries a GET whose connection fails', async () => {
    script = (request, response, count) => {
      if (count === 1) response.socket?.destroy();
      else json(response, 200, { status: 0, data: 'after a reset' });
    };
    await expect(apiRequest({ path: '/x', ...fast })).resolves.toEqual({ status: 0, data: 'after a reset' });
    expect(received).toHaveLength(2);
  });

  it('never retries a write, nor a GET answered 500', async () => {
    script = (_request, response) => json(response, 503, { status: 503, message: 'busy' });
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      received = [];
      await expect(apiRequest({ method, path: '/x', ...fast })).rejects.toMatchObject({ status: 503 });
      expect(received, method).toHaveLength(1);
    }
    received = [];
    script = (_request, response) => json(response, 500, { status: 500, message: 'boom' });
    await expect(apiRequest({ path: '/x', ...fast })).rejects.toMatchObject({ status: 500 });
    expect(received).toHaveLength(1);
  });

  it('stops when its abort signal fires, without retrying', async () => {
    const controller = new AbortController();
    script = () => controller.abort();
    await expect(apiRequest({ path: '/slow', signal: controller.signal, ...fast })).rejects.toThrow();
    expect(received).toHaveLength(1);
  });
});

describe('apiRequest with shared: true (a list many viewers read alike)', () => {
  it('hands out one parsed, frozen answer for identical answers, and a new one when the answer changes', async () => {
    let title = 'Demo: Lighthouse';
    script = (_request, response) => json(response, 200, { status: 0, data: { data: [{ title, stats: { comments: 1 } }], total: 1 } });
    const read = () => apiRequest<{ data: { data: { title: string; stats: { comments: number } }[] } }>({ path: '/performers/a/content', shared: true });
    const first = await read();
    const again = await read();
    expect(again).toBe(first);
    expect(Object.isFrozen(first.data.data[0].stats)).toBe(true);
    expect(() => {
      'use strict';
      first.data.data[0].title = 'changed';
    }).toThrow(TypeError);
    title = 'Demo: Lighthouse (take 2)';
    const changed = await read();
    expect(changed).not.toBe(first);
    expect(changed.data.data[0].title).toBe('Demo: Lighthouse (take 2)');
  });

  it('keeps nothing of a failure, and nothing of a read that does not ask', async () => {
    script = (_request, response) => json(response, 404, { status: 404, message: 'Artist not found' });
    await expect(apiRequest({ path: '/performers/nobody/content', shared: true })).rejects.toBeInstanceOf(HttpError);
    script = (_request, response) => json(response, 200, { status: 0, data: { n: 1 } });
    const a = await apiRequest<object>({ path: '/x' });
    const b = await apiRequest<object>({ path: '/x' });
    expect(b).not.toBe(a);
    expect(Object.isFrozen(a)).toBe(false);
  });
});

describe('apiRequest to the api in the same process (app/utils/api-dispatch.server)', () => {
  type Call = Parameters<ApiDispatch>[0];
  let calls: Call[] = [];
  const use = (answer: (call: Call) => Promise<{ status: number; body: string }>) =>
    registerApiDispatch(async (call) => {
      calls.push(call);
      return answer(call);
    });
  beforeEach(() => {
    calls = [];
  });
  afterAll(() => registerApiDispatch(undefined));

  it('hands the call over whole (method, path and query, headers, body) and reads the answer as over HTTP', async () => {
    use(async () => ({ status: 201, body: JSON.stringify({ data: { ok: true } }) }));
    const body = await apiRequest({ method: 'POST', path: '/content', params: { limit: 3 }, body: { title: 'x' }, token: 't0k', clientIp: '203.0.113.9' });
    expect(body).toEqual({ data: { ok: true } });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'POST', url: '/content?limit=3', body: '{"title":"x"}' });
    expect(calls[0].headers).toMatchObject({ Authorization: 'Bearer t0k', 'X-Forwarded-For': '203.0.113.9', 'Content-Type': 'application/json' });
    expect(received).toEqual([]);
  });

  it('throws an HttpError for a failure status, and a 503 response for a database outage without retrying', async () => {
    use(async () => ({ status: 422, body: JSON.stringify({ status: 422, message: 'Nope' }) }));
    await expect(apiRequest({ path: '/x' })).rejects.toSatisfy((error) => isHttpError(error, 422) && error.message === 'Nope');
    use(async () => ({ status: 503, body: JSON.stringify({ status: 503, code: 'database_unavailable', message: 'Down' }) }));
    await expect(apiRequest({ path: '/x', backoffMs: 5 })).rejects.toSatisfy((error) => error instanceof Response && error.status === 503);
    expect(calls).toHaveLength(2);
  });

  it('gives up at the deadline, and when the page’s request is aborted', async () => {
    use(() => new Promise(() => {}));
    const started = Date.now();
    await expect(apiRequest({ path: '/slow', method: 'POST', deadlineMs: 100 })).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - started).toBeLessThan(1000);
    const page = new AbortController();
    const pending = apiRequest({ path: '/slow', method: 'POST', signal: page.signal });
    page.abort(new Error('the fan left'));
    await expect(pending).rejects.toThrow('the fan left');
  });
});
