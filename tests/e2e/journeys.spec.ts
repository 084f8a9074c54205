import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { apiBase, expectNoA11yViolations, registerFan, signIn, signInAs, uniqueName, webBase } from './helpers';
import { resetLinkFromOutbox } from './outbox';

/** The seeded accounts (README "Demo logins"). */
const ARTIST = { email: 'nova@stagedoor.test', password: 'Stagedoor-artist-2026!' };
const DEMO_FAN = { email: 'fan@stagedoor.test', password: 'Stagedoor-fan-2026!' };

async function visit(page: Page, path: string) {
  await page.goto(path);
  await expectNoA11yViolations(page);
}

async function sessionCookie(context: BrowserContext) {
  return (await context.cookies(webBase)).find((cookie) => cookie.name === 'stagedoor');
}

test('a new fan joins a paid artist: join, register, then on to payment; logging out clears the session', async ({ page, context }) => {
  await visit(page, '/novaricci/join');
  await expect(page.getByRole('heading', { level: 1, name: 'Nova Ricci' })).toBeVisible();
  await expect(page.getByText('$49.99', { exact: false }).first()).toBeVisible();

  // The subscribe step shows the offer and leads to register; the join page, which shows the same offer,
  // leads to register itself.
  await visit(page, '/novaricci/subscribe');
  await expect(page.getByRole('heading', { level: 1, name: 'Join Nova Ricci’s fan club' })).toBeVisible();
  await expectNoA11yViolations(page);
  await expect(page.getByRole('link', { name: 'Create your account' })).toHaveAttribute('href', '/novaricci/subscribe/register');

  await visit(page, '/novaricci/join');
  await page.getByRole('link', { name: 'Join for $49.99 a year' }).first().click();
  await expect(page).toHaveURL('/novaricci/subscribe/register');
  await expect(page.getByRole('heading', { level: 1, name: 'Create your account' })).toBeVisible();
  await expectNoA11yViolations(page);

  const username = uniqueName('joiner');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email address').fill(`${username}@example.com`);
  await page.getByLabel('Password', { exact: true }).fill('Front-Row-2026!');
  await page.getByRole('button', { name: 'Continue to payment' }).click();

  // The payment step arrives with the subscribe issue; the register step already sends a paid artist's fan there.
  await expect(page).toHaveURL('/novaricci/subscribe/payment');
  const cookie = await sessionCookie(context);
  expect(cookie?.value).toBeTruthy();
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });

  // Signed in, the register step goes straight on to payment, keeping a promo code.
  await page.goto('/novaricci/subscribe/register?promo=SPRING');
  await expect(page).toHaveURL('/novaricci/subscribe/payment?promo=SPRING');

  // Editing the sign-up details: the form is prefilled with what the fan gave.
  await visit(page, '/novaricci/subscribe/register?edit=true');
  await expect(page.getByRole('heading', { level: 1, name: 'Edit your details' })).toBeVisible();
  await expect(page.getByLabel('Username')).toHaveValue(username);
  await expect(page.getByLabel('Email address')).toHaveValue(`${username}@example.com`);
  await page.getByLabel('Email address').fill(`${username}.new@example.com`);
  await page.getByLabel('Password', { exact: true }).fill('Front-Row-2026!');
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await expect(page).toHaveURL('/novaricci/subscribe/payment');
  const me = await page.request.get(`${apiBase}/users/me`, { headers: { Authorization: `Bearer ${cookie!.value}` } });
  expect(((await me.json()) as { data: { email: string } }).data.email).toBe(`${username}.new@example.com`);

  await page.goto('/logout');
  await expect(page).toHaveURL(/\/login(\?|$)/);
  // The cookie is deleted with Max-Age 1 (it may linger, empty, for that second); the token is revoked.
  expect((await sessionCookie(context))?.value ?? '').toBe('');
  const after = await page.request.get(`${apiBase}/users/me`, { headers: { Authorization: `Bearer ${cookie!.value}` } });
  expect(after.status()).toBe(401);
});

test('an anonymous visit to an authenticated page ends on /login, carrying next and the artist', async ({ page }) => {
  await page.goto('/discover');
  await expect(page).toHaveURL(/\/login\?/);
  expect(new URL(page.url()).searchParams.get('next')).toBe('/discover');
  await expectNoA11yViolations(page);

  await page.goto('/novaricci');
  await expect(page).toHaveURL(/\/login\?/);
  const search = new URL(page.url()).searchParams;
  expect(search.get('next')).toBe('/novaricci');
  expect(search.get('artist')).toBe('novaricci');
});

test('a fan resets a forgotten password through the mailed link and logs in with the new one', async ({ page, request }) => {
  const fan = await registerFan(request, apiBase, 'resetter');
  const requestedAt = Date.now() - 1000;

  await visit(page, '/password/reset/request?artist=novaricci');
  await expect(page.getByRole('heading', { level: 1, name: 'Reset your password' })).toBeVisible();
  await page.getByLabel('Email address').fill(fan.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page).toHaveURL('/password/reset/request/success?artist=novaricci');
  await expect(page.getByRole('heading', { level: 1, name: 'Check your inbox' })).toBeVisible();
  await expectNoA11yViolations(page);
  await expect(page.getByRole('link', { name: 'Back to log in' })).toHaveAttribute('href', '/login?artist=novaricci');

  const link = await resetLinkFromOutbox(fan.email, requestedAt);
  expect(new URL(link).searchParams.get('artist')).toBe('novaricci');
  await visit(page, link);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible();

  // The two passwords must match before anything is sent.
  await page.getByLabel('New password', { exact: true }).fill('Encore-Night-2026!');
  await page.getByLabel('Confirm new password').fill('Encore-Night-2026?');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await expect(page).toHaveURL(link);

  await page.getByLabel('Confirm new password').fill('Encore-Night-2026!');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page).toHaveURL('/login?pwResetSuccess=true&artist=novaricci');
  await expectNoA11yViolations(page);

  // The link works once.
  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill('Another-Try-2026!');
  await page.getByLabel('Confirm new password').fill('Another-Try-2026!');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByRole('alert')).toHaveText('This password reset link is invalid or has expired. Please request a new one.');
  await expect(page.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/password/reset/request?artist=novaricci');
  await expectNoA11yViolations(page);

  // The old password no longer works; the new one does, on the log-in page.
  const old = await request.post(`${apiBase}/auth/login`, {
    data: { username: fan.email, password: fan.password, remember: true },
  });
  expect(old.status()).toBe(422);
  await page.goto('/login');
  await page.getByLabel('Email address').fill(fan.email);
  await page.getByLabel('Password', { exact: true }).fill('Encore-Night-2026!');
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
  await expect(page).toHaveURL('/discover');
});

test('a reset link without its token explains itself and offers a new one', async ({ page }) => {
  await visit(page, '/password/reset');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link is incomplete');
  await expect(page.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/password/reset/request');
});

test('sign-up conflicts: a taken username and a taken email are reported on their own fields', async ({ page, request }) => {
  const existing = await registerFan(request, apiBase, 'taken');
  await visit(page, '/novaricci/subscribe/register');

  const username = page.getByLabel('Username');
  const email = page.getByLabel('Email address');
  const password = page.getByLabel('Password', { exact: true });
  await username.fill(existing.username);
  await email.fill(`${uniqueName('other')}@example.com`);
  await password.fill('Front-Row-2026!');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(username).toHaveAttribute('aria-invalid', 'true');
  await expect(username).toHaveAccessibleDescription('That username is already taken. Please choose another.');
  await expect(email).not.toHaveAttribute('aria-invalid', 'true');
  await expect(email).toHaveValue(/@example\.com$/);
  await expectNoA11yViolations(page);

  await username.fill(uniqueName('fresh'));
  await email.fill(existing.email);
  await password.fill('Front-Row-2026!');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toHaveAccessibleDescription('An account with this email address already exists. Log in instead.');
  await expect(username).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL('/novaricci/subscribe/register');
});

test('every registration rule shows its message, first on submit and then while typing', async ({ page }) => {
  await visit(page, '/thelatenights/subscribe/register');
  const username = page.getByLabel('Username');
  const email = page.getByLabel('Email address');
  const password = page.getByLabel('Password', { exact: true });
  const submit = page.getByRole('button', { name: 'Continue to payment' });

  // Nothing is said before the first submit.
  await username.fill('a');
  await expect(page.getByText('Username must be at least 3 characters')).toHaveCount(0);

  await username.fill('');
  await submit.click();
  await expect(username).toHaveAccessibleDescription('Username must be at least 3 characters');
  await expect(email).toHaveAccessibleDescription('Please enter your email address');
  await expect(password).toHaveAccessibleDescription('Password must be at least 10 characters long');
  await expectNoA11yViolations(page);

  // After the first submit, each field is checked as it changes.
  await username.fill('no spaces!');
  await expect(username).toHaveAccessibleDescription('Username must only contain letters and numbers');
  await email.fill('not-an-email');
  await expect(email).toHaveAccessibleDescription('Please enter a valid email address');
  await password.fill('alllowercase-but-long');
  await expect(password).toHaveAccessibleDescription(
    'Password must contain at least one uppercase letter, one lowercase letter, one number, and one special character',
  );
  await password.fill('Short-1!');
  await expect(password).toHaveAccessibleDescription('Password must be at least 10 characters long');

  await username.fill('ValidName42');
  await expect(username).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL('/thelatenights/subscribe/register');
});

test('discover sends an artist to their own page', async ({ page, context, request }) => {
  await signInAs(context, request, ARTIST);
  await page.goto('/discover');
  await expect(page).toHaveURL('/novaricci');
  await expect(page.getByRole('heading', { level: 1, name: 'Nova Ricci' })).toBeVisible();
  await expect(page.getByText('Your fan club', { exact: true })).toBeVisible();
  await expectNoA11yViolations(page);
});

test('the demo fan, a member of two fan clubs, sees them on discover and can open one', async ({ page, context, request }) => {
  await signInAs(context, request, DEMO_FAN);
  await visit(page, '/discover');
  await expect(page).toHaveURL('/discover');
  await expect(page.getByRole('heading', { level: 1, name: 'Discover' })).toBeVisible();
  const clubs = page.getByRole('region', { name: 'Your fan clubs' });
  await expect(clubs.getByRole('link', { name: 'Juniper Lane' })).toHaveAttribute('href', '/juniperlane');
  await expect(clubs.getByRole('link', { name: 'The Late Nights' })).toHaveAttribute('href', '/thelatenights');

  // The search lists every artist; one the fan has not joined links to its join page.
  await page.getByRole('searchbox', { name: 'Artist name' }).fill('nova');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/discover\?q=nova/);
  const results = page.getByRole('region', { name: 'Find an artist' });
  await expect(results.getByRole('link', { name: 'Nova Ricci' })).toHaveAttribute('href', '/novaricci/join');
  await expect(results.getByRole('link')).toHaveCount(1);
  await expectNoA11yViolations(page);

  await clubs.getByRole('link', { name: 'Juniper Lane' }).click();
  await expect(page).toHaveURL('/juniperlane');
  await expect(page.getByRole('heading', { level: 1, name: 'Juniper Lane' })).toBeVisible();
  // The seeded artist's latest posts (api/db/seed-content.ts).
  await expect(page.getByRole('heading', { name: 'Latest posts' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Still free, always', exact: true })).toBeVisible();
  await expectNoA11yViolations(page);

  // A member visiting the join page of their artist goes straight in.
  await page.goto('/juniperlane/join');
  await expect(page).toHaveURL('/juniperlane');
});

test('a fan without a subscription is sent from the artist page to subscribe', async ({ page, context, request }) => {
  const fan = await registerFan(request, apiBase, 'nosub');
  await signIn(context, fan.token);
  await page.goto('/novaricci');
  await expect(page).toHaveURL('/novaricci/subscribe');
  await expect(page.getByRole('link', { name: 'Continue to payment' })).toBeVisible();
  await expectNoA11yViolations(page);

  // With no fan club yet, discover shows the list rather than redirecting.
  await visit(page, '/discover');
  await expect(page.getByText('You haven’t joined a fan club yet.')).toBeVisible();
});

test('an unknown artist is a 404 on the join and subscribe pages', async ({ page }) => {
  for (const path of ['/nosuchartist999/join', '/nosuchartist999/subscribe', '/nosuchartist999/subscribe/register']) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
  }
});

test('the landing introduces Stagedoor and links to each artist’s join page', async ({ page }) => {
  await visit(page, '/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const artists = page.getByRole('region', { name: 'Featured artists' });
  // The first six artists by name: which they are depends on the artists other tests have made, so each is checked
  // for where it leads, not by name.
  const links = artists.getByRole('link');
  await expect(links.first()).toBeVisible();
  const hrefs = await links.evaluateAll((elements) => elements.map((element) => element.getAttribute('href')));
  expect(hrefs.length).toBeGreaterThan(0);
  for (const href of hrefs) expect(href).toMatch(/^\/[^/]+\/join$/);

  await page.goto('/?artistUsername=thelatenights');
  await expect(page).toHaveURL('/thelatenights/join');

  // A free artist has no offer step: subscribe goes straight to the register step.
  await page.goto('/juniperlane/subscribe');
  await expect(page).toHaveURL('/juniperlane/subscribe/register');
  await expect(page.getByRole('button', { name: 'Join for free' })).toBeVisible();
  await expectNoA11yViolations(page);
});

test('the realtime connection opens in the signed-in area and drops on entering the unauthenticated one', async ({
  page,
  context,
  request,
}) => {
  await signInAs(context, request, DEMO_FAN);
  const opened = page.waitForEvent('websocket', (ws) => ws.url().startsWith(`${apiBase.replace('http', 'ws')}/socket.io/`));
  // Found by name: the artists other tests make come before her in the list, A to Z, and would push her off its page.
  await page.goto('/discover?q=Nova');
  const socket = await opened;
  const token = (await context.cookies(webBase)).find((c) => c.name === 'stagedoor')!.value;
  expect(new URL(socket.url()).searchParams.get('token')).toBe(token);
  expect(socket.isClosed()).toBe(false);

  // A client-side navigation into the unauthenticated area (an artist's join page) closes it.
  const closed = socket.waitForEvent('close');
  await page.getByRole('region', { name: 'Find an artist' }).getByRole('link', { name: 'Nova Ricci' }).click();
  await expect(page).toHaveURL('/novaricci/join');
  await closed;
});
