import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpTransport } from '../../app/utils/api-transport.server';
import { ApiClient } from '../../app/utils/api.server';
import * as login from '../../app/utils/login.server';

/**
 * The log-in call's errors: a stand-in API answers each status in turn, and logIn (which goes through the
 * real request helper) turns it into what the fan is told.
 */
let answer: { status: number; body?: unknown } = { status: 200 };
let lastBody: unknown;
const api = http.createServer((request, response) => {
  let raw = '';
  request.on('data', (chunk) => (raw += chunk));
  request.on('end', () => {
    lastBody = raw ? JSON.parse(raw) : undefined;
    response.writeHead(answer.status, { 'Content-Type': 'application/json' });
    response.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  });
});

let baseUrl: string;
/** The web tier's client for one log-in request, over HTTP to the stand-in. */
const client = (signal?: AbortSignal) =>
  new ApiClient(httpTransport(baseUrl), { request: new Request('http://localhost/login', { signal }) });

beforeAll(async () => {
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => api.close(() => resolve())));

const INCORRECT = 'The details you entered are incorrect. Please check your email and password and try again.';
const TECHNICAL = "Sorry, we're currently experiencing technical difficulties. Please try again later.";

describe('logIn', () => {
  it('posts username, password and remember: true, and reads data.token', async () => {
    answer = { status: 200, body: { status: 0, data: { token: 'tok-123' } } };
    await expect(login.logIn(client(), 'fan@example.com', 'secret')).resolves.toEqual({ ok: true, token: 'tok-123' });
    expect(lastBody).toEqual({ username: 'fan@example.com', password: 'secret', remember: true });
  });

  it.each([404, 422])('tells the fan the details are incorrect on HTTP %i', async (status) => {
    answer = { status, body: { status, message: 'The details you entered are incorrect.' } };
    await expect(login.logIn(client(), 'fan@example.com', 'wrong')).resolves.toEqual({ ok: false, status: 400, message: INCORRECT });
  });

  it.each([400, 401, 429, 500, 503])('speaks of technical difficulties on any other HTTP error (%i)', async (status) => {
    answer = { status, body: { status } };
    const outcome = await login.logIn(client(), 'fan@example.com', 'secret');
    expect(outcome).toMatchObject({ ok: false, message: TECHNICAL });
  });

  it('tells a suspended account so (HTTP 403, which the api answers only after the right password)', async () => {
    answer = { status: 403, body: { status: 403, message: 'suspended' } };
    await expect(login.logIn(client(), 'fan@example.com', 'secret')).resolves.toEqual({
      ok: false,
      status: 403,
      message: 'This account has been suspended. If you think this is a mistake, contact Stagedoor support.',
    });
  });

  it('treats an answer without a string token as technical difficulties', async () => {
    for (const body of [{ data: {} }, { data: { token: 42 } }, undefined]) {
      answer = { status: 200, body };
      await expect(login.logIn(client(), 'fan@example.com', 'secret')).resolves.toMatchObject({ ok: false, message: TECHNICAL });
    }
  });

  it('rethrows a failure that is not an HTTP error', async () => {
    const controller = new AbortController();
    controller.abort();
    answer = { status: 200, body: { data: { token: 'tok' } } };
    await expect(login.logIn(client(controller.signal), 'fan@example.com', 'secret')).rejects.toThrow();
  });
});
