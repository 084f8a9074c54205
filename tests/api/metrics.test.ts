import type { ServerBuild } from '@remix-run/node';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../app/utils/api.server';
import { httpTransport } from '../../app/utils/api-transport.server';
import { webApiTransport } from '../../server/api-transport';
import { createWebLog } from '../../server/log';
import { createWebServer } from '../../server/web';
import {
  call,
  clientAddress,
  describeEachDatabase,
  registerFan,
  startTestApi,
  waitForMail,
  whenJobsIdle,
  type TestApi,
} from '../helpers/api';
import { connectClient, connected } from './messages-fixtures';

/**
 * /metrics (prom-client's text format) for the operator's scraper, behind a token or on a port of its own, and one
 * request id from the web tier's call through the api's log lines into the jobs the call sends.
 */
const TOKEN = 'metrics-token-for-the-scraper-0123456789';

const scrape = (base: string, token?: string) =>
  fetch(`${base}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} }).then(async (response) => ({
    status: response.status,
    type: response.headers.get('content-type'),
    text: await response.text(),
  }));

/** The value of one sample (`name{labels} value`), or undefined when the text has no such line. */
function sample(text: string, name: string, labels: Record<string, string> = {}) {
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map(([, key, value]) => [key, value]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

/** Every label value in the text. */
const labelValues = (text: string) => [...text.matchAll(/\w+="([^"]*)"/g)].map(([, value]) => value);

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

describeEachDatabase('/metrics with METRICS_TOKEN', (database) => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ database: database.name, env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await whenJobsIdle(t, 10_000);
    await t?.close();
  });

  it('is refused without the token, or with another', async () => {
    const none = await scrape(t.url);
    expect(none.status).toBe(401);
    expect(none.text).not.toContain('stagedoor_');
    expect((await scrape(t.url, `${TOKEN}x`)).status).toBe(401);
    const basic = await fetch(`${t.url}/metrics`, { headers: { authorization: `Basic ${btoa(`x:${TOKEN}`)}` } });
    expect(basic.status).toBe(401);
  });

  it('shows requests by route pattern, jobs, mails, realtime connections, the pool and memory, with no ids', async () => {
    const fan = await registerFan(t);
    for (let i = 0; i < 3; i++) expect((await call(t.url, 'GET', '/users/me', { token: fan.token })).status).toBe(200);
    expect((await call(t.url, 'GET', `/performers/${fan.username}`)).status).toBe(404);
    expect((await call(t.url, 'GET', `/no-such-route/${fan.id}`)).status).toBe(404);
    // A job that runs at once: the password-reset mail.
    const forgot = await call(t.url, 'POST', '/auth/users/forgot', {
      body: { email: fan.email },
      headers: { 'x-forwarded-for': clientAddress() },
    });
    expect(forgot.status).toBe(200);
    await waitForMail(t, fan.email);
    const socket = connectClient(t.url, fan.token);
    try {
      await connected(socket);
      // The job's run is counted once its handler has returned, a moment after the mail is written.
      let text = '';
      await expect
        .poll(
          async () => {
            const answer = await scrape(t.url, TOKEN);
            expect(answer.status).toBe(200);
            expect(answer.type).toMatch(/^text\/plain; version=0\.0\.4/);
            text = answer.text;
            return sample(text, 'stagedoor_job_runs_total', { queue: 'mail', outcome: 'done' });
          },
          { timeout: 10_000 },
        )
        .toBeGreaterThanOrEqual(1);

      expect(sample(text, 'stagedoor_http_request_duration_seconds_count', { route: '/users/me', method: 'GET', status: '2xx' })).toBe(3);
      expect(
        sample(text, 'stagedoor_http_request_duration_seconds_bucket', { route: '/users/me', method: 'GET', status: '2xx', le: '+Inf' }),
      ).toBe(3);
      expect(
        sample(text, 'stagedoor_http_request_duration_seconds_count', { route: '/performers/:username', method: 'GET', status: '4xx' }),
      ).toBe(1);
      expect(sample(text, 'stagedoor_http_request_duration_seconds_count', { route: 'unmatched', method: 'GET', status: '4xx' })).toBe(1);
      expect(
        sample(text, 'stagedoor_http_request_duration_seconds_count', { route: '/auth/users/forgot', method: 'POST', status: '2xx' }),
      ).toBe(1);
      expect(sample(text, 'stagedoor_mails_sent_total')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'stagedoor_mails_failed_total')).toBe(0);
      expect(sample(text, 'stagedoor_pushes_sent_total')).toBe(0);
      expect(sample(text, 'stagedoor_job_runs_total', { queue: 'mail', outcome: 'failed' })).toBeUndefined();
      expect(sample(text, 'stagedoor_jobs_waiting', { queue: 'mail' })).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'stagedoor_jobs_dead', { queue: 'mail' })).toBe(0);
      expect(sample(text, 'stagedoor_jobs_oldest_waiting_seconds', { queue: 'media.process' })).toBe(0);
      expect(sample(text, 'stagedoor_realtime_connections')).toBe(1);
      expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
      expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
      if (database.name === 'PostgreSQL') {
        expect(sample(text, 'stagedoor_db_pool_clients', { state: 'total' })).toBeGreaterThanOrEqual(1);
        expect(sample(text, 'stagedoor_db_pool_waiting')).toBe(0);
      } else expect(sample(text, 'stagedoor_db_pool_clients', { state: 'total' })).toBeUndefined();

      // One series per route, never per fan: no username, no id, no address in any label.
      for (const value of labelValues(text)) {
        expect(value).not.toContain(fan.username);
        expect(value).not.toMatch(UUID);
        expect(value).not.toMatch(/^\/.*\d{2,}/);
      }
    } finally {
      socket.disconnect();
    }
    await expect.poll(async () => sample((await scrape(t.url, TOKEN)).text, 'stagedoor_realtime_connections')).toBe(0);
  });
});

describe('/metrics on METRICS_PORT, and off when neither is set', () => {
  let apart: TestApi;
  let off: TestApi;
  let metricsUrl: string;
  beforeAll(async () => {
    // TRUSTED_PROXIES leaves out loopback: this test's own calls are a stranger's.
    apart = await startTestApi({ env: { METRICS_PORT: '9', TRUSTED_PROXIES: '10.9.0.0/16' } });
    metricsUrl = `http://127.0.0.1:${await apart.api.listenMetrics(0, '127.0.0.1')}`;
    off = await startTestApi();
  });
  afterAll(async () => {
    await apart?.close();
    await off?.close();
  });

  it('serves /metrics on its own port only, without a token when none is set', async () => {
    expect((await call(apart.url, 'GET', '/healthz')).status).toBe(200);
    expect((await scrape(apart.url)).status).toBe(404);
    const answer = await scrape(metricsUrl);
    expect(answer.status).toBe(200);
    expect(sample(answer.text, 'stagedoor_http_request_duration_seconds_count', { route: '/healthz', method: 'GET', status: '2xx' })).toBe(
      1,
    );
    expect((await fetch(`${metricsUrl}/healthz`)).status).toBe(404);
  });

  it('is not served at all with neither a token nor a port', async () => {
    expect((await scrape(off.url)).status).toBe(404);
    expect((await scrape(off.url, TOKEN)).status).toBe(404);
  });

  it('makes its own request id when the caller is not a trusted proxy', async () => {
    const answer = await call(apart.url, 'GET', '/healthz', { headers: { 'x-request-id': 'chosen-by-a-stranger' } });
    expect(answer.headers.get('x-request-id')).toMatch(UUID);
  });
});

describe('one request id from the web tier into the api and its jobs', () => {
  let t: TestApi;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    t = await startTestApi({
      env: { LOG_LEVEL: 'debug' },
      logStream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    });
  });
  afterAll(async () => {
    await whenJobsIdle(t, 10_000);
    await t?.close();
  });

  const transports = {
    'in process': () => webApiTransport({ apiUrl: 'http://127.0.0.1:1', apiPort: 1 }, t.api),
    'over HTTP (from loopback, a trusted proxy)': () => httpTransport(t.url),
  };

  for (const [how, transport] of Object.entries(transports)) {
    it(`is on the api's request line and the mail job's lines, ${how}`, async () => {
      const fan = await registerFan(t);
      const requestId = `page-${crypto.randomUUID()}`;
      const api = new ApiClient(transport(), {
        request: new Request('http://web.test/forgot-password'),
        clientIp: clientAddress(),
        requestId,
      });
      await api.post('/auth/users/forgot', { email: fan.email });
      await waitForMail(t, fan.email);
      await expect
        .poll(() => lines.some((line) => line.msg === 'job done' && line.requestId === requestId), { timeout: 10_000 })
        .toBe(true);

      const ours = lines.filter((line) => line.requestId === requestId);
      expect(ours.find((line) => line.msg === 'request')).toMatchObject({ method: 'POST', url: '/auth/users/forgot', statusCode: 200 });
      expect(ours.find((line) => line.msg === 'job done')).toMatchObject({ queue: 'mail' });
      // The outbox's line is the mail job's own, written by the mailer, which knows nothing of requests.
      expect(ours.some((line) => String(line.msg).startsWith(`mail to ${fan.email}`))).toBe(true);
    });
  }

  it('answers the id it used, and makes one for a call without', async () => {
    const sent = await call(t.url, 'GET', '/healthz', { headers: { 'x-request-id': 'proxy-id-0123456789' } });
    expect(sent.headers.get('x-request-id')).toBe('proxy-id-0123456789');
    const made = await call(t.url, 'GET', '/healthz');
    expect(made.headers.get('x-request-id')).toMatch(UUID);
    const odd = await call(t.url, 'GET', '/healthz', { headers: { 'x-request-id': 'has spaces and "quotes"' } });
    expect(odd.headers.get('x-request-id')).toMatch(UUID);
  });
});

describe('the web tier, as built (npm run build)', () => {
  let t: TestApi;
  let web: Server;
  let webUrl: string;
  const lines: Record<string, unknown>[] = [];
  const webLines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    t = await startTestApi({
      env: { LOG_LEVEL: 'debug', METRICS_TOKEN: TOKEN },
      logStream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    });
    // As server/index.ts wires it with both tiers in one process.
    const app = await createWebServer(t.config, webApiTransport(t.config, t.api), {
      pageRendered: t.api.ctx.metrics.pageRendered,
      log: createWebLog('debug', { write: (line: string) => void webLines.push(JSON.parse(line) as Record<string, unknown>) }),
    });
    web = await new Promise<Server>((resolve) => {
      const server = app.listen(0, '127.0.0.1', () => resolve(server));
    });
    webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => web?.close(resolve));
    await whenJobsIdle(t, 10_000);
    await t?.close();
  });

  it("keeps a trusted proxy's id and carries it through the page's api call into the mail job", async () => {
    const fan = await registerFan(t);
    const requestId = `proxy-${crypto.randomUUID()}`;
    const posted = await fetch(`${webUrl}/password/reset/request?index`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: webUrl, 'x-request-id': requestId },
      body: new URLSearchParams({ email: fan.email }),
      redirect: 'manual',
    });
    expect(posted.status).toBe(302);
    expect(posted.headers.get('x-request-id')).toBe(requestId);
    await waitForMail(t, fan.email);
    await expect.poll(() => lines.some((line) => line.msg === 'job done' && line.requestId === requestId), { timeout: 10_000 }).toBe(true);
    expect(lines.find((line) => line.msg === 'request' && line.requestId === requestId)).toMatchObject({ url: '/auth/users/forgot' });
    // The web tier's own line for the page names the same id.
    expect(webLines.find((line) => line.msg === 'page' && line.requestId === requestId)).toMatchObject({
      tier: 'web',
      method: 'POST',
      url: '/password/reset/request?index',
      statusCode: 302,
    });
  });

  it('writes one JSON line per page, with its id, status and time, and secrets redacted', async () => {
    const page = await fetch(`${webUrl}/password/reset?token=s3cret-reset-token`, { redirect: 'manual' });
    const requestId = page.headers.get('x-request-id');
    await page.arrayBuffer();
    await expect.poll(() => webLines.find((line) => line.requestId === requestId)).toBeTruthy();
    const line = webLines.find((l) => l.requestId === requestId)!;
    expect(line).toMatchObject({ tier: 'web', level: 20, msg: 'page', method: 'GET', statusCode: page.status });
    expect(line.ms).toEqual(expect.any(Number));
    expect(line.url).toBe('/password/reset?token=[REDACTED]');
    expect(JSON.stringify(webLines)).not.toContain('s3cret-reset-token');
  });

  it('logs a page not found at info, and an error a loader threw with its id', async () => {
    const missing = await fetch(`${webUrl}/this/does/not/exist`, { redirect: 'manual' });
    await missing.arrayBuffer();
    const id = missing.headers.get('x-request-id');
    expect(missing.status).toBe(404);
    await expect.poll(() => webLines.find((line) => line.requestId === id)).toMatchObject({ level: 30, msg: 'page', statusCode: 404 });

    // A loader, action or render that throws: Remix hands the error to the build's handleError with the load context.
    const build = (await import(pathToFileURL(path.resolve('build/web/index.js')).href)) as ServerBuild;
    const thrown: Record<string, unknown>[] = [];
    const log = createWebLog('info', { write: (line: string) => void thrown.push(JSON.parse(line) as Record<string, unknown>) });
    const handleError = build.entry.module.handleError!;
    const request = new Request(`${webUrl}/juniperlane/vault?token=s3cret`);
    handleError(new TypeError('items is undefined'), {
      request,
      params: {},
      context: { api: webApiTransport(t.config, t.api), log, requestId: 'page-12345678' },
    });
    expect(thrown).toEqual([
      expect.objectContaining({
        level: 50,
        msg: 'page error',
        requestId: 'page-12345678',
        url: '/juniperlane/vault',
        err: expect.objectContaining({ type: 'TypeError', message: 'items is undefined', stack: expect.stringContaining('TypeError') }),
      }),
    ]);
    // A request the browser gave up on is not an error.
    const gone = new AbortController();
    gone.abort();
    handleError(new Error('aborted'), {
      request: new Request(request, { signal: gone.signal }),
      params: {},
      context: { api: webApiTransport(t.config, t.api), log },
    });
    expect(thrown).toHaveLength(1);
  });

  it('makes an id for a page asked for without one, and times its render by route id', async () => {
    const page = await fetch(`${webUrl}/login`);
    expect(page.status).toBe(200);
    expect(page.headers.get('x-request-id')).toMatch(UUID);
    const text = (await scrape(t.url, TOKEN)).text;
    expect(sample(text, 'stagedoor_page_render_seconds_count', { route: 'routes/_unauth.login' })).toBe(1);
    expect(sample(text, 'stagedoor_page_render_seconds_bucket', { route: 'routes/_unauth.login', le: '+Inf' })).toBe(1);
  });
});
