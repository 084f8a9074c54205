import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { httpTransport, type ApiCall, type ApiTransport } from '../../app/utils/api-transport.server';
import { ApiClient, apiFor, HttpError, isHttpError } from '../../app/utils/api.server';
import { webApiTransport } from '../../server/api-transport';

/**
 * The web tier's api client (the request helper) against a small local HTTP server that records what it
 * receives and answers what each test scripts, and against a transport in this process.
 */

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Script = (request: Received, response: http.ServerResponse, count: number) => void;

let server: http.Server;
let baseUrl: string;
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
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      received.push(request);
      script(request, res, received.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  received = [];
  script = (_request, response) => json(response, 200, { status: 0, data: { ok: true } });
});

/** A page request to /novaricci/vault, signed in with `token` unless it is null. */
function pageRequest(token: string | null = 'secret-token', signal?: AbortSignal) {
  return new Request('http://localhost:3000/novaricci/vault?sort=asc', {
    headers: token ? { Cookie: `stagedoor=${token}` } : {},
    signal,
  });
}

/** A client over HTTP to the scripted server, with short backoff so the retry tests take milliseconds. */
function client(token: string | null = 'secret-token', options: { signal?: AbortSignal; clientIp?: string } = {}) {
  return new ApiClient(httpTransport(baseUrl), {
    request: pageRequest(token, options.signal),
    clientIp: options.clientIp,
    artistUsername: 'novaricci',
    backoffMs: 5,
  });
}

/** What a call threw: a Response (a redirect, a page) or an error. */
async function thrown(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    return error;
  }
  throw new Error('the call did not throw');
}

describe('the api client over HTTP', () => {
  it('returns the parsed body', async () => {
    script = (_request, response) => json(response, 200, { status: 0, data: { token: 'abc' } });
    await expect(client().post('/auth/login', { username: 'fan' })).resolves.toEqual({ status: 0, data: { token: 'abc' } });
  });

  it('sends the session cookie as the Authorization header, the browser address as X-Forwarded-For, and no header without them', async () => {
    await client('secret-token', { clientIp: '203.0.113.9' }).get('/users/me');
    await client(null).get('/users/me');
    expect(received[0].headers.authorization).toBe('Bearer secret-token');
    expect(received[0].headers['x-forwarded-for']).toBe('203.0.113.9');
    expect(received[1].headers.authorization).toBeUndefined();
    expect(received[1].headers['x-forwarded-for']).toBeUndefined();
  });

  it('sends the method, a JSON body with its content type, and nothing for a bodiless call', async () => {
    const api = client();
    await api.put('users', { username: 'nightowl', remember: true });
    await api.get('/users/me');
    await api.post('/messages/read-all/c1');
    expect(received[0]).toMatchObject({ method: 'PUT', url: '/users', body: '{"username":"nightowl","remember":true}' });
    expect(received[0].headers['content-type']).toBe('application/json');
    expect(received[1]).toMatchObject({ method: 'GET', body: '' });
    expect(received[1].headers['content-type']).toBeUndefined();
    expect(received[2]).toMatchObject({ method: 'POST', body: '' });
    expect(received[2].headers['content-type']).toBeUndefined();
  });

  it('adds query params: strings, numbers, booleans and lists, skipping empty values', async () => {
    await client().get('/performers/nova/content', {
      params: { q: 'a b', limit: 20, draft: false, types: ['demo', 'live'], none: undefined, nil: null },
    });
    expect(received[0].url).toBe('/performers/nova/content?q=a+b&limit=20&draft=false&types=demo&types=live');
  });

  it('streams an upload with its content type', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('part one, '));
        controller.enqueue(new TextEncoder().encode('part two'));
        controller.close();
      },
    });
    await client().upload('/media', body, 'multipart/form-data; boundary=x', { params: { kind: 'image' } });
    expect(received[0]).toMatchObject({ method: 'POST', url: '/media?kind=image', body: 'part one, part two' });
    expect(received[0].headers['content-type']).toBe('multipart/form-data; boundary=x');
  });
});

describe('the api client maps failures in one place', () => {
  it('turns a 401 into the logout redirect, carrying the page and the artist', async () => {
    script = (_request, response) => json(response, 401, { status: 401, message: 'Token expired' });
    const error = await thrown(client().get('/users/me'));
    expect(error).toBeInstanceOf(Response);
    const response = error as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe(
      `/logout?${new URLSearchParams({ next: '/novaricci/vault?sort=asc', artist: 'novaricci' })}`,
    );
  });

  it.each([403, 404])('turns a %i into the not-found page', async (status) => {
    script = (_request, response) => json(response, status, { status, message: 'No' });
    const error = await thrown(client().get('/content/x'));
    expect(error).toBeInstanceOf(Response);
    expect((error as Response).status).toBe(404);
  });

  it('leaves the statuses a caller handles to the caller, as an HttpError with the body', async () => {
    script = (_request, response) => json(response, 404, { status: 404, message: 'No such payment' });
    const error = await thrown(client().get('/payment/p1', { handle: [404] }));
    expect(isHttpError(error, 404)).toBe(true);
    expect((error as HttpError).message).toBe('No such payment');
  });

  it('throws an HttpError with the field errors for a refused write', async () => {
    script = (_request, response) => json(response, 422, { status: 422, message: 'Taken', errors: { email: ['Taken'] } });
    const error = await thrown(client().post('/auth/users/register', {}));
    expect(isHttpError(error, 422)).toBe(true);
    expect((error as HttpError).fieldErrors).toEqual({ email: ['Taken'] });
  });

  it('keeps a body that is not JSON as its text', async () => {
    script = (_request, response) => {
      response.writeHead(400, { 'content-type': 'text/plain' });
      response.end('Bad things');
    };
    const error = await thrown(client().post('/x'));
    expect((error as HttpError).body).toEqual({ status: 400, message: 'Bad things' });
  });

  it('makes a read answered 503 the 503 page, and a write answered 503 an HttpError for its form', async () => {
    script = (_request, response) => json(response, 503, { status: 503, code: 'database_unavailable', message: 'Down' });
    const read = await thrown(client().get('/users/me'));
    expect(read).toBeInstanceOf(Response);
    expect((read as Response).status).toBe(503);
    expect(received).toHaveLength(1);
    const write = await thrown(client().post('/messages/conversations/c1', { text: 'hi' }));
    expect(isHttpError(write, 503)).toBe(true);
  });
});

describe('the api client retries reads, never writes', () => {
  it('retries a GET answered 503, then returns the answer that succeeds', async () => {
    script = (_request, response, count) => (count < 3 ? json(response, 503, { status: 503 }) : json(response, 200, { data: 'fine' }));
    await expect(client().get('/users/me')).resolves.toEqual({ data: 'fine' });
    expect(received).toHaveLength(3);
  });

  it('retries a GET 3 times at most, then throws what the last answer maps to', async () => {
    script = (_request, response) => json(response, 502, { status: 502 });
    const error = await thrown(client().get('/users/me'));
    expect(isHttpError(error, 502)).toBe(true);
    expect(received).toHaveLength(4);
  });

  it('never retries a write, nor a GET answered 500', async () => {
    script = (_request, response) => json(response, 503, { status: 503 });
    await thrown(client().post('/conversations', {}));
    expect(received).toHaveLength(1);
    received = [];
    script = (_request, response) => json(response, 500, { status: 500 });
    await thrown(client().get('/users/me'));
    expect(received).toHaveLength(1);
  });

  it('stops when the page request is aborted, without retrying', async () => {
    const controller = new AbortController();
    script = () => controller.abort();
    await expect(client('t', { signal: controller.signal }).get('/users/me')).rejects.toThrow();
    expect(received).toHaveLength(1);
  });
});

describe('the api client remembers reads within one request', () => {
  it('asks once for a read several loaders make, and again after a write', async () => {
    const api = client();
    const [a, b] = await Promise.all([api.get('/users/me'), api.get('/users/me')]);
    expect(a).toBe(b);
    await api.get('/users/me');
    expect(received).toHaveLength(1);
    await api.post('/content/i1/bookmark');
    await api.get('/users/me');
    expect(received.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /users/me', 'POST /content/i1/bookmark', 'GET /users/me']);
  });

  it('keeps reads of different queries apart, and forgets a read that did not arrive', async () => {
    const api = client();
    await api.get('/performers/nova/content', { params: { offset: 0 } });
    await api.get('/performers/nova/content', { params: { offset: 24 } });
    expect(received).toHaveLength(2);
    let fail = true;
    const flaky: ApiTransport = async () => {
      if (fail) throw new Error('connection refused');
      return { status: 200, text: '{"data":1}' };
    };
    const once = new ApiClient(flaky, { request: pageRequest(), backoffMs: 5 });
    await expect(once.get('/x', { deadlineMs: 1 })).rejects.toThrow('connection refused');
    fail = false;
    await expect(once.get('/x')).resolves.toEqual({ data: 1 });
  });

  it('gives every loader and action of one request the same client, and another request another', () => {
    const transport: ApiTransport = async () => ({ status: 200, text: '{}' });
    const context = { api: transport };
    const request = pageRequest();
    expect(apiFor({ request, context, params: {} })).toBe(apiFor({ request, context, params: {} }));
    expect(apiFor({ request, context: { api: transport }, params: {} })).not.toBe(apiFor({ request, context, params: {} }));
  });

  it("names the page request's id on each of its calls, reads and writes", async () => {
    const calls: ApiCall[] = [];
    const transport: ApiTransport = async (call) => {
      calls.push(call);
      return { status: 200, text: '{}' };
    };
    const api = apiFor({ request: pageRequest(), context: { api: transport, requestId: 'page-request-0001' }, params: {} });
    await api.get('/users/me');
    await api.post('/auth/users/forgot', { email: 'fan@example.com' });
    expect(calls.map((call) => call.headers['X-Request-Id'])).toEqual(['page-request-0001', 'page-request-0001']);
  });
});

describe('the transport the web tier is given', () => {
  const config = { apiUrl: 'http://127.0.0.1:8080', apiPort: 8080 };

  it('is the api in this process when both run in one and API_URL is left at our own api', async () => {
    const calls: unknown[] = [];
    const api = {
      app: {
        inject: async (options: unknown) => {
          calls.push(options);
          return { statusCode: 201, body: '{"data":"in process"}' };
        },
      },
    };
    const transport = webApiTransport(config, api);
    const call: ApiCall = {
      method: 'POST',
      url: '/x?y=1',
      headers: { Authorization: 'Bearer t' },
      body: '{}',
      signal: new AbortController().signal,
    };
    await expect(transport(call)).resolves.toEqual({ status: 201, text: '{"data":"in process"}' });
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: '/x?y=1',
      headers: { Authorization: 'Bearer t' },
      payload: '{}',
      remoteAddress: '127.0.0.1',
    });
  });

  it('is HTTP when the web tier runs alone, or API_URL points elsewhere', async () => {
    script = (_request, response) => json(response, 200, { data: 'over http' });
    const apart = webApiTransport({ apiUrl: baseUrl, apiPort: 8080 }, undefined);
    const elsewhere = webApiTransport({ apiUrl: baseUrl, apiPort: 8080 }, { app: { inject: async () => ({ statusCode: 500, body: '' }) } });
    const call: ApiCall = { method: 'GET', url: '/users/me', headers: {}, signal: new AbortController().signal };
    await expect(apart(call)).resolves.toEqual({ status: 200, text: '{"data":"over http"}' });
    await expect(elsewhere(call)).resolves.toEqual({ status: 200, text: '{"data":"over http"}' });
    expect(received).toHaveLength(2);
  });

  it('stops waiting for the api in this process when the page request is aborted', async () => {
    const never = { app: { inject: () => new Promise<never>(() => undefined) } };
    const controller = new AbortController();
    const answer = webApiTransport(config, never)({ method: 'GET', url: '/x', headers: {}, signal: controller.signal });
    controller.abort(new Error('the browser went away'));
    await expect(answer).rejects.toThrow('the browser went away');
  });
});
