import { expect, test as base, type BrowserContext, type Page } from '@playwright/test';
import { apiBase, expectNoA11yViolations, registerFan, uniqueName } from './helpers';
import { resetLinkFromOutbox } from './outbox';

/**
 * Fans on slow connections: every core flow works with JavaScript off. The page
 * comes from a context of its own with JavaScript disabled, so the browser's other contexts (the accessibility
 * scan's) keep theirs.
 */
const test = base.extend<{ context: BrowserContext; page: Page }>({
  context: async ({ browser, baseURL }, use) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    await use(context);
    await context.close();
  },
  page: async ({ context }, use) => {
    await use(await context.newPage());
  },
});

test('without JavaScript a fan registers through join and the register form', async ({ page, context }) => {
  await page.goto('/thelatenights/join');
  await expectNoA11yViolations(page);
  await page.getByRole('link', { name: 'Join for £29.99 a year' }).first().click();
  await expect(page).toHaveURL('/thelatenights/subscribe/register');

  // The server checks the form and answers with the spec's messages, keeping what the fan typed (not the password).
  const username = page.getByLabel('Username');
  const email = page.getByLabel('Email address');
  const password = page.getByLabel('Password', { exact: true });
  await username.fill('no');
  await email.fill('not-an-email');
  await password.fill('weakpassword');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page).toHaveURL('/thelatenights/subscribe/register');
  await expect(username).toHaveAccessibleDescription('Username must be at least 3 characters');
  await expect(email).toHaveAccessibleDescription('Please enter a valid email address');
  await expect(password).toHaveAccessibleDescription(
    'Password must contain at least one uppercase letter, one lowercase letter, one number, and one special character',
  );
  await expect(username).toHaveValue('no');
  await expect(email).toHaveValue('not-an-email');
  await expect(password).toHaveValue('');
  await expectNoA11yViolations(page);

  const name = uniqueName('nojs');
  await username.fill(name);
  await email.fill(`${name}@example.com`);
  await password.fill('Quiet-Room-2026!');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page).toHaveURL('/thelatenights/subscribe/payment');
  expect((await context.cookies()).find((c) => c.name === 'stagedoor')?.value).toBeTruthy();
});

test('without JavaScript a fan asks for a reset link and sets a new password', async ({ page, request }) => {
  const fan = await registerFan(request, apiBase, 'nojsreset');
  const requestedAt = Date.now() - 1000;

  await page.goto('/password/reset/request');
  await expectNoA11yViolations(page);
  const email = page.getByLabel('Email address');
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(email).toHaveAccessibleDescription('Please enter your email address');
  await email.fill('fan@');
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(email).toHaveAccessibleDescription('Please enter a valid email address');
  await expect(email).toHaveValue('fan@');

  await email.fill(fan.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page).toHaveURL('/password/reset/request/success');
  await expect(page.getByRole('heading', { level: 1, name: 'Check your inbox' })).toBeVisible();

  await page.goto(await resetLinkFromOutbox(fan.email, requestedAt));
  await page.getByLabel('New password', { exact: true }).fill('short');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByLabel('New password', { exact: true })).toHaveAccessibleDescription(
    'Password must be at least 10 characters long',
  );
  await expectNoA11yViolations(page);

  await page.getByLabel('New password', { exact: true }).fill('Silent-Disco-2026!');
  await page.getByLabel('Confirm new password').fill('Silent-Disco-2026!');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page).toHaveURL('/login?pwResetSuccess=true');
  const login = await request.post(`${apiBase}/auth/login`, {
    data: { username: fan.email, password: 'Silent-Disco-2026!', remember: true },
  });
  expect(login.status()).toBe(200);
});
