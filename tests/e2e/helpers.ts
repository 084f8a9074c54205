import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';

/** Where the tests reach the api and the web app (the same defaults as playwright.config.ts). */
export const apiBase = `http://localhost:${process.env.E2E_API_PORT ?? 8180}`;
export const webBase = `http://localhost:${process.env.E2E_WEB_PORT ?? 3100}`;

/**
 * Every page a browser test visits is scanned with axe-core; serious and critical violations fail the test
 * The message lists each rule with the first offending elements, so a failure
 * says what to fix. Works in contexts with JavaScript disabled too (see scanSnapshot).
 */
export async function expectNoA11yViolations(page: Page) {
  const results = (await timersRun(page)) ? await scanLive(page) : await scanSnapshot(page);
  const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = blocking
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help}\n${v.nodes
          .slice(0, 3)
          .map((n) => `  ${n.target.join(' ')}`)
          .join('\n')}`,
    )
    .join('\n');
  expect(blocking, `axe violations on ${page.url()}:\n${report}`).toEqual([]);
}

/**
 * Scans the page once its finite CSS transitions and animations are over: text caught mid-fade (a dialog
 * opening, a button coming back from its disabled opacity) would fail the contrast rule for a moment.
 */
async function scanLive(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  return new AxeBuilder({ page }).analyze();
}

/** False in a context with JavaScript disabled: evaluate still works there, but timers never fire. */
async function timersRun(page: Page) {
  const probe = page.evaluate(() => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 0)));
  return Promise.race([probe, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 500))]);
}

/**
 * axe needs timers, which a JavaScript-disabled page does not run. So the page's current DOM is loaded, at the
 * same URL and viewport, into a scratch page that runs inline scripts but fetches no script files (nothing
 * hydrates), and scanned there: the same markup and styles the fan without JavaScript sees.
 */
async function scanSnapshot(page: Page) {
  const html = await page.content();
  const url = page.url();
  const context = await page.context().browser()!.newContext({ viewport: page.viewportSize() });
  try {
    const scratch = await context.newPage();
    await scratch.route('**/*', (route) => {
      const request = route.request();
      if (request.resourceType() === 'document' && request.url() === url) {
        return route.fulfill({ body: html, contentType: 'text/html; charset=utf-8' });
      }
      return request.resourceType() === 'script' ? route.abort() : route.continue();
    });
    await scratch.goto(url);
    return await new AxeBuilder({ page: scratch }).analyze();
  } finally {
    await context.close();
  }
}

export interface Fan {
  username: string;
  email: string;
  password: string;
  token: string;
}

let counter = 0;

/** A random address in 10.0.0.0/8, as a fan behind the web tier would have. */
export function privateAddress() {
  const octet = () => Math.floor(Math.random() * 254) + 1;
  return `10.${octet()}.${octet()}.${octet()}`;
}

/**
 * A session token for the account (its email or its username), from POST /auth/login with "remember me", asked from
 * an address of its own (the suite's many logins must not use up the per-address limit).
 */
export async function logIn(request: APIRequestContext, username: string, password: string) {
  const response = await request.post(`${apiBase}/auth/login`, {
    data: { username, password, remember: true },
    headers: { 'X-Forwarded-For': privateAddress() },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { data: { token: string } }).data.token;
}

/** Signs a browser in: the session token in the cookie the web app reads. */
export async function signIn(context: BrowserContext, token: string) {
  await context.addCookies([{ name: 'stagedoor', value: token, url: webBase, httpOnly: true, sameSite: 'Strict' }]);
}

/** Logs the account in through the api and signs the browser in with its token, which it returns. */
export async function signInAs(context: BrowserContext, request: APIRequestContext, account: { email: string; password: string }) {
  const token = await logIn(request, account.email, account.password);
  await signIn(context, token);
  return token;
}

/** A name no other test run has used: letters and digits only, as usernames must be. */
export function uniqueName(prefix = 'fan') {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}`.toLowerCase();
}

/** Registers a new fan through the API (POST /auth/users/register) and returns the credentials and token. */
export async function registerFan(request: APIRequestContext, base = apiBase, prefix = 'fan'): Promise<Fan> {
  const username = uniqueName(prefix);
  const fan = { username, email: `${username}@example.com`, password: 'Backstage-Pass-1' };
  // Each fan registers from an address of its own (the api trusts X-Forwarded-For from loopback, as from the web
  // tier): the suite's many sign-ups must not use up the per-address limit the browser journeys register under.
  const response = await request.post(`${base}/auth/users/register`, { data: fan, headers: { 'X-Forwarded-For': privateAddress() } });
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as { status: number; data: { token: string } };
  expect(body.status).toBe(0);
  return { ...fan, token: body.data.token };
}

/**
 * The page route modules of app/routes: every file but the pathless layouts (_auth.tsx, _unauth.tsx, …); a route
 * that is a folder is its `route.tsx`.
 */
export function routeFiles() {
  const layout = (name: string) =>
    name
      .replace(/\.tsx$/, '')
      .split('.')
      .every((s) => s.startsWith('_') && s !== '_index');
  return fs
    .readdirSync(path.resolve('app/routes'), { withFileTypes: true })
    .filter((entry) => !layout(entry.name))
    .map((entry) => (entry.isDirectory() ? `${entry.name}/route.tsx` : entry.name));
}

/** The URL pattern of a flat-routes file (or folder) name, e.g. `/:artistUsername/vault/:id`. */
export function routePattern(file: string) {
  const segments = file
    .replace(/(\/route)?\.tsx$/, '')
    // An escaped dot ("earnings[.]csv") is part of its segment.
    .replace(/\[\.\]/g, '[dot]')
    .split('.')
    .filter((s) => !s.startsWith('_') || s === '_index')
    .filter((s) => s !== '_index')
    .map((s) => (s === '$' ? '*' : s.startsWith('$') ? `:${s.slice(1)}` : s.replace(/_$/, '')).replace('[dot]', '.'));
  return `/${segments.join('/')}`;
}

/**
 * Waits until an item's audio or video has been processed (docs/media.md): fans see such an item, and are told of
 * it, only once its file is ready. Asks as the item's artist, who sees it all along.
 */
export async function untilMediaProcessed(request: APIRequestContext, artistToken: string, itemId: string, timeoutMs = 60_000) {
  await expect
    .poll(
      async () => {
        const answer = await request.get(`${apiBase}/content/${itemId}`, { headers: { Authorization: `Bearer ${artistToken}` } });
        return ((await answer.json()) as { data: { media: { status: string } | null } }).data.media?.status;
      },
      { timeout: timeoutMs, message: `the file of item ${itemId} to be processed` },
    )
    .not.toBe('processing');
}
