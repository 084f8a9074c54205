import { expect, test } from '@playwright/test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiBase, expectNoA11yViolations, registerFan, webBase } from './helpers';

/**
 * The SameSite=Strict trap (server/same-site-bounce.ts): the session cookie is not sent on a navigation that
 * starts on another site, so a signed-in fan following a link from a mail or a chat app would look signed out.
 * The fan must land on the signed-in page, with the cookie intact.
 */
test('a signed-in fan following a link from another site lands on the signed-in page', async ({ page, context, request }) => {
  const fan = await registerFan(request, apiBase, 'crosssite');

  await page.goto('/login');
  await page.getByLabel('Email address').fill(fan.email);
  await page.getByLabel('Password', { exact: true }).fill(fan.password);
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
  await expect(page).toHaveURL('/discover');
  const before = (await context.cookies(webBase)).find((c) => c.name === 'stagedoor');
  expect(before?.sameSite).toBe('Strict');

  // Another origin (127.0.0.1 is another site than localhost) links to a signed-in page.
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><title>Elsewhere</title></head><body><a href="${webBase}/discover">go</a></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.getByRole('link', { name: 'go' }).click();

    await expect(page).toHaveURL(`${webBase}/discover`);
    await expect(page.getByRole('heading', { level: 1, name: 'Discover' })).toBeVisible();
    await expect(page.getByText('You haven’t joined a fan club yet.')).toBeVisible();
    await expectNoA11yViolations(page);
    const after = (await context.cookies(webBase)).find((c) => c.name === 'stagedoor');
    expect(after?.value).toBe(before?.value);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
