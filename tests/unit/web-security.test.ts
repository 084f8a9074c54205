import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, type AppEnv } from '#contract/config';
import { cspNonce, refuseCrossSiteWrites, securityHeaders } from '../../server/security';
import { listenLocal } from '../helpers/listen';

/** The web tier's security middleware on a real express server, as server/web.ts mounts it. */
async function serve(appEnv: AppEnv) {
  const config = parseConfig({
    APP_ENV: appEnv,
    PUBLIC_WEB_URL: 'https://app.example.test',
    PUBLIC_API_URL: 'https://api.example.test',
  } as unknown as NodeJS.ProcessEnv);
  const app = express();
  app.use(cspNonce, securityHeaders(config), refuseCrossSiteWrites(config));
  app.all('/form', (_req, res) => res.json({ ran: true }));
  return listenLocal(app);
}

describe('security headers', () => {
  let local: Awaited<ReturnType<typeof serve>>;
  let production: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    [local, production] = await Promise.all([serve('local'), serve('production')]);
  });
  afterAll(() => {
    local?.close();
    production?.close();
  });

  it('sends a CSP with a fresh nonce per response that lets Stripe and the api in, and nothing frame the page', async () => {
    const [a, b] = await Promise.all([fetch(`${production.url}/form`), fetch(`${production.url}/form`)]);
    const csp = a.headers.get('content-security-policy') ?? '';
    const nonce = csp.match(/'nonce-([^']+)'/)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/=]{20,}$/);
    expect(b.headers.get('content-security-policy')).not.toContain(nonce);
    const directives = Object.fromEntries(csp.split(';').map((d) => [d.trim().split(' ')[0], d.trim().split(' ').slice(1)]));
    expect(directives['script-src']).toEqual(["'self'", `'nonce-${nonce}'`, 'https://js.stripe.com']);
    expect(directives['script-src']).not.toContain("'unsafe-inline'");
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['frame-src']).toContain('https://js.stripe.com');
    expect(directives['connect-src']).toEqual(
      expect.arrayContaining(['https://api.example.test', 'wss://api.example.test', 'https://api.stripe.com']),
    );
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(a.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(a.headers.get('x-frame-options')).toBe('DENY');
    expect(a.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('sends HSTS outside local only', async () => {
    expect((await fetch(`${production.url}/form`)).headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect((await fetch(`${local.url}/form`)).headers.get('strict-transport-security')).toBeNull();
  });
});

describe('cross-site form posts (CSRF)', () => {
  let app: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    app = await serve('production');
  });
  afterAll(() => app?.close());

  const post = (headers: Record<string, string>) =>
    fetch(`${app.url}/form`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers }, body: 'a=1' });

  it('refuses a post whose Origin is another site, or opaque, before the action runs', async () => {
    for (const origin of ['https://evil.example', 'null', 'https://app.example.test.evil.example', 'http://app.example.test']) {
      const response = await post({ Origin: origin });
      expect(response.status, origin).toBe(403);
      expect(await response.text()).toContain('This form came from another site');
    }
    expect((await post({ 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
  });

  it('lets our own pages post (by the public origin or the host they were served from), and reads', async () => {
    expect(await (await post({ Origin: 'https://app.example.test', 'Sec-Fetch-Site': 'same-origin' })).json()).toEqual({ ran: true });
    expect((await post({ Origin: app.url })).status).toBe(200);
    expect((await post({ 'Sec-Fetch-Site': 'same-origin' })).status).toBe(200);
    expect((await post({})).status).toBe(200);
    expect((await fetch(`${app.url}/form`, { headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' } })).status).toBe(
      200,
    );
  });
});
