import { expect, test } from '@playwright/test';
import { expectNoA11yViolations, registerFan, signIn, webBase } from './helpers';

/** Lite mode: no client scripts for a fan who asks to save data; everything still works by forms and links. */

const scriptsOf = (html: string) => ({
  scripts: (html.match(/<script\b/g) ?? []).length,
  preloads: (html.match(/rel="modulepreload"/g) ?? []).length,
});

test('a browser that asks to save data gets pages without scripts, and one that does not gets them', async ({ request }) => {
  const lite = await request.get(`${webBase}/login`, { headers: { 'Save-Data': 'on' } });
  expect(scriptsOf(await lite.text())).toEqual({ scripts: 0, preloads: 0 });
  const normal = await request.get(`${webBase}/login`);
  expect(scriptsOf(await normal.text()).scripts).toBeGreaterThan(0);
});

test('a fan turns lite mode on in the footer, browses and posts a form without scripts, and turns it off again', async ({
  page,
  context,
  request,
}) => {
  const fan = await registerFan(request);
  await signIn(context, fan.token);
  const loadedScripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') loadedScripts.push(r.url());
  });

  await page.goto('/discover');
  await page.getByRole('button', { name: 'Use lite mode to save data' }).click();
  await expect(page).toHaveURL('/discover');
  await expect(page.getByText('Lite mode is on: pages load without scripts.')).toBeVisible();
  loadedScripts.length = 0;

  // Log out through the account menu's plain form, and back in: both work with no script at all.
  await page.locator('summary').filter({ hasText: fan.username }).click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto('/login');
  await page.getByLabel('Email address').fill(fan.email);
  await page.getByLabel('Password', { exact: true }).fill(fan.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL('/discover');
  await expectNoA11yViolations(page);
  expect(loadedScripts).toEqual([]);

  await page.getByRole('button', { name: 'Turn lite mode off' }).click();
  await expect(page.getByRole('button', { name: 'Use lite mode to save data' })).toBeVisible();
  expect(loadedScripts.length).toBeGreaterThan(0);
});
