import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiBase, expectNoA11yViolations, registerFan, signIn, webBase } from './helpers';

/**
 * Open redirects (docs/security.md, findings 1 and 2): whatever a link puts in `next`, in the path of a cross-site arrival
 * or in an artist's place in the URL, Chromium ends on a page of ours. A target the browser would read as another
 * host (`/\t/evil.example` is `//evil.example` once the parser drops the tab) is replaced by a page of ours, and
 * odd bytes in `next` never answer 500. The other host is answered here, so a failure shows as a page of it.
 */
const EVIL = 'evil.example';

/** Answers the other host (a navigation there by a page's meta refresh or link shows as its page). */
async function trapOtherHosts(context: BrowserContext) {
  await context.route(`**://${EVIL}/**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Evil</title><h1>Evil</h1>' }),
  );
}

/**
 * Every navigation of the page to the other host, redirects included (Playwright's routes do not see the target of
 * a server's redirect, so such a navigation fails to resolve instead).
 */
function watchDepartures(page: Page) {
  const departures: string[] = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest() && new URL(request.url()).hostname === EVIL) departures.push(request.url());
  });
  return departures;
}

/** Opens a path of ours and fails, naming where it went, if the browser left Stagedoor on the way. */
async function visit(page: Page, departures: string[], path: string) {
  const response = await page.goto(path).catch((error: Error) => error);
  expect(departures, `${path} sent the browser to another host`).toEqual([]);
  if (response instanceof Error) throw response;
  expect(new URL(page.url()).origin, page.url()).toBe(webBase);
  return response;
}

function expectOurs(page: Page, departures: string[]) {
  expect(departures, 'the browser went to another host').toEqual([]);
  expect(new URL(page.url()).origin, page.url()).toBe(webBase);
}

const HOSTILE_NEXT = [
  '/%09/evil.example',
  '/%0a/evil.example',
  '/%5Cevil.example',
  '//evil.example',
  '/..//evil.example/x',
  '/%2e%2e//evil.example',
];

test.beforeEach(async ({ context }) => {
  await trapOtherHosts(context);
});

test('a signed-in fan sent to /login with a hostile next stays on Stagedoor', async ({ page, context, request }) => {
  const departures = watchDepartures(page);
  await signIn(context, (await registerFan(request, apiBase, 'nextin')).token);
  for (const next of HOSTILE_NEXT) {
    await visit(page, departures, `/login?next=${next}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Discover' })).toBeVisible();
  }
  await page.goto('/login?next=%2Fdiscover%3Fq%3Dnova');
  await expect(page).toHaveURL('/discover?q=nova');
});

test('a fan who logs in from /login with a hostile next lands on Stagedoor', async ({ page, request }) => {
  const departures = watchDepartures(page);
  const fan = await registerFan(request, apiBase, 'nextout');
  for (const next of HOSTILE_NEXT.slice(0, 2)) {
    await page.context().clearCookies();
    await visit(page, departures, `/login?next=${next}`);
    await page.getByLabel('Email address').fill(fan.email);
    await page.getByLabel('Password', { exact: true }).fill(fan.password);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Discover' })).toBeVisible();
    expectOurs(page, departures);
  }
});

test('control characters and non-ASCII in next answer a page, not a 500', async ({ page, context, request }) => {
  const departures = watchDepartures(page);
  for (const next of ['/%0d%0aSet-Cookie:%20a=b', '/x%0d', '/%E3%80%82evil.example', '/caf%C3%A9']) {
    const signedOut = await visit(page, departures, `/login?next=${next}`);
    expect(signedOut?.status(), next).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: 'Log in to your account' })).toBeVisible();
  }
  await expectNoA11yViolations(page);
  await signIn(context, (await registerFan(request, apiBase, 'nextbytes')).token);
  for (const next of ['/%0d%0aSet-Cookie:%20a=b', '/%E3%80%82evil.example']) {
    const signedIn = await visit(page, departures, `/login?next=${next}`);
    expect(signedIn?.status(), next).toBeLessThan(500);
  }
});

test('an artist’s place in the URL cannot name another host', async ({ page, context, request }) => {
  const departures = watchDepartures(page);
  await signIn(context, (await registerFan(request, apiBase, 'paramfan')).token);
  for (const path of [
    '/%2F%2Fevil.example/subscribe/confirm',
    '/%2F%2Fevil.example/vault/x?type=collection',
    '/%5Cevil.example/subscribe/confirm',
  ]) {
    await visit(page, departures, path);
  }
});

test('a link from another site to //evil.example/x on Stagedoor does not leave Stagedoor', async ({ page }) => {
  const departures = watchDepartures(page);
  // Another origin (127.0.0.1 is another site than localhost) links to a path that reads as a host.
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><head><title>Elsewhere</title></head><body>` +
        `<a href="${webBase}//${EVIL}/x">slashes</a> <a href="${webBase}/%5C${EVIL}/x">backslash</a></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    for (const name of ['slashes', 'backslash']) {
      await page.goto(`http://127.0.0.1:${port}/`);
      await page.getByRole('link', { name }).click();
      await page.waitForURL((url) => url.port !== String(port));
      // The bounce page refreshes at once; wait for where it leads.
      await page.waitForLoadState('load');
      await expect(page).not.toHaveTitle('Evil');
      expectOurs(page, departures);
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
