import { expect, test, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { apiBase, expectNoA11yViolations, registerFan, type Fan } from './helpers';

const INCORRECT = 'The details you entered are incorrect. Please check your email and password and try again.';

/** The session cookie; a deleted one (Max-Age 1, empty) counts as none. */
async function sessionCookie(context: BrowserContext) {
  return (await context.cookies()).find((cookie) => cookie.name === 'stagedoor' && cookie.value);
}

/**
 * Waits until the panel's enter transition is over, so scans and measurements see the settled panel. Headless
 * UI's data attributes alone are not enough: on a busy machine it may find no running CSS transition yet and
 * drop them while the scale-in is still under way, so the panel's own animations are waited for too.
 */
async function settled(panel: Locator) {
  await expect(panel).toBeVisible();
  await expect(panel).not.toHaveAttribute('data-enter');
  await expect(panel).not.toHaveAttribute('data-transition');
  await expect.poll(() => panel.evaluate((element) => element.getAnimations().length)).toBe(0);
}

async function logInThroughDialog(page: Page, fan: Pick<Fan, 'email' | 'password'>) {
  await page.getByRole('banner').getByRole('button', { name: 'Log in' }).click();
  const dialog = page.getByRole('dialog', { name: 'Log in to your account' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Email address').fill(fan.email);
  await dialog.getByLabel('Password', { exact: true }).fill(fan.password);
  await dialog.getByRole('button', { name: 'Log In', exact: true }).click();
  return dialog;
}

test.describe('page shell', () => {
  test('a fan logs in through the dialog, sees the account menu and logs out', async ({ page, context, request }) => {
    const fan = await registerFan(request);
    await page.goto('/');
    await expectNoA11yViolations(page);

    await page.getByRole('banner').getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('dialog', { name: 'Log in to your account' })).toBeVisible();
    await settled(page.getByTestId('login-dialog-panel'));
    await expectNoA11yViolations(page);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();

    await logInThroughDialog(page, fan);
    // Success reloads the page: the top bar now shows the user badge.
    const badge = page.getByRole('button', { name: `Logged in as ${fan.username}` });
    await expect(badge).toBeVisible();
    await expect(page).toHaveURL('/');
    const cookie = await sessionCookie(context);
    expect(cookie).toMatchObject({ path: '/', sameSite: 'Strict', httpOnly: true });
    // One year, give or take the test's own run time.
    expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(31_536_000 - 120);

    await badge.click();
    const menu = page.getByRole('menu');
    await settled(menu);
    await expect(menu.getByText('Account details')).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: `Username ${fan.username}` })).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: `Email ${fan.email}` })).toBeVisible();
    expect(Math.round((await menu.boundingBox())!.width)).toBe(250);
    await expectNoA11yViolations(page);

    await menu.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page.getByRole('banner').getByRole('button', { name: 'Log in' })).toBeVisible();
    await expect(page).toHaveURL('/');
    expect(await sessionCookie(context)).toBeUndefined();
    // The token was revoked on the API, not only forgotten by the browser.
    const me = await request.get(`${apiBase}/users/me`, { headers: { Authorization: `Bearer ${cookie!.value}` } });
    expect(me.status()).toBe(401);
  });

  test('a wrong password shows the incorrect-details alert with both inputs in the error style', async ({ page, request }) => {
    const fan = await registerFan(request);
    await page.goto('/');
    const dialog = await logInThroughDialog(page, { email: fan.email, password: 'Not-The-Password-1' });
    await expect(dialog.getByRole('alert')).toHaveText(INCORRECT);
    await expect(dialog.getByLabel('Email address')).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.getByLabel('Password', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expectNoA11yViolations(page);
  });

  test('an unknown path answers 404 with the not-found page', async ({ page }) => {
    const response = await page.goto('/this/does/not/exist');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText("Uh, oh, This page doesn't seem to exist.");
    await expect(page.getByRole('link', { name: 'Head back to the homepage.' })).toHaveAttribute('href', '/');
    await expect(page.getByText('That definitely exists.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to homepage' })).toHaveAttribute('href', '/');
    await expectNoA11yViolations(page);

    await page.getByRole('link', { name: 'Back to homepage' }).click();
    await expect(page).toHaveURL('/');
  });

  test.describe('the loading bar', () => {
    // Without the offline worker: once it controls the page, the page's data requests go through it, where the test's
    // route (which holds them back) does not see them, and the navigation ends before the bar can be looked at (it
    // failed so in CI whenever the worker had taken over in time).
    test.use({ serviceWorkers: 'block' });

    test('the loading bar stands at 20 % while a navigation loads, then completes and goes away', async ({ page }) => {
      await page.goto('/login');
      await page.waitForFunction(() => (window as { __remixRouter?: unknown }).__remixRouter !== undefined);
      let release!: () => void;
      const loaded = new Promise<void>((resolve) => (release = resolve));
      await page.route(
        (url) => url.searchParams.has('_data'),
        async (route) => {
          await loaded;
          await route.continue();
        },
      );
      await page.getByRole('banner').getByRole('link', { name: 'Stagedoor' }).click();
      const bar = page.locator('#nprogress .bar');
      await expect(bar).toBeVisible();
      await expect(bar).toHaveCSS('background-color', 'rgb(249, 239, 30)');
      await expect(bar).toHaveCSS('height', '2px');
      await expect(bar).toHaveAttribute('style', /translate3d\(-80%, 0px, 0px\)/);
      release();
      await expect(page).toHaveURL('/');
      await expect(page.locator('#nprogress')).toHaveCount(0);
    });
  });

  test('the footer links open in a new tab, under a full-height column', async ({ page }) => {
    await page.goto('/login');
    const footer = page.getByRole('contentinfo');
    for (const name of ['Privacy Policy', 'Terms of Service', 'Cookie Policy', 'Customer Support']) {
      const link = footer.getByRole('link', { name: new RegExp(`^${name}`) });
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
      await expect(link).toHaveAttribute('href', /^https?:\/\//);
    }
    await expect(footer.getByRole('img', { name: 'Stagedoor' })).toBeVisible();
    // The footer sits at the bottom of the viewport even when the content is short.
    await page.setViewportSize({ width: 1280, height: 1600 });
    const box = (await footer.boundingBox())!;
    expect(Math.round(box.y + box.height)).toBeGreaterThanOrEqual(1600);
  });

  test('/login shows the password-reset notice, and a signed-in fan is sent on', async ({ page, request }) => {
    await page.goto('/login?pwResetSuccess=true&artist=nosuchartist');
    // An unknown artist falls back on the generic hero rather than a 404.
    await expect(page.getByRole('heading', { level: 1, name: 'Log in to your account' })).toBeVisible();
    await expect(page.getByRole('status')).toHaveText('Your password has been reset. Log in with your new password.');
    await expectNoA11yViolations(page);

    // A seeded artist (api/db/seed.ts) brings their own hero image and alt text, and the reset link keeps them.
    await page.goto('/login?artist=novaricci');
    await expect(page.getByRole('img', { name: /^Nova Ricci/ })).toHaveAttribute('src', /novaricci/);
    await expect(page.getByRole('link', { name: 'Forgot your password' })).toHaveAttribute(
      'href',
      '/password/reset/request?artist=novaricci',
    );
    await expectNoA11yViolations(page);

    const fan = await registerFan(request);
    const redirected = await request.get('/login?artist=novaricci', {
      headers: { Cookie: `stagedoor=${fan.token}` },
      maxRedirects: 0,
    });
    expect(redirected.headers().location).toBe('/novaricci');
    const toNext = await request.get('/login?next=%2Fsomewhere%3Fx%3D1', {
      headers: { Cookie: `stagedoor=${fan.token}` },
      maxRedirects: 0,
    });
    expect(toNext.headers().location).toBe('/somewhere?x=1');
    const toDiscover = await request.get('/login', { headers: { Cookie: `stagedoor=${fan.token}` }, maxRedirects: 0 });
    expect(toDiscover.headers().location).toBe('/discover');
  });

  test('/logout clears the session and keeps the search; from a payment step it returns to register', async ({ request }) => {
    const fan = await registerFan(request);
    const viaGet = await request.get('/logout?artist=novaricci&next=%2Fnovaricci%2Fvault', {
      headers: { Cookie: `stagedoor=${fan.token}` },
      maxRedirects: 0,
    });
    expect(viaGet.status()).toBe(302);
    expect(viaGet.headers().location).toBe('/login?artist=novaricci&next=%2Fnovaricci%2Fvault');
    expect(viaGet.headers()['set-cookie']).toMatch(/^stagedoor=; Max-Age=1; Path=\/;/);
    expect((await request.get(`${apiBase}/users/me`, { headers: { Authorization: `Bearer ${fan.token}` } })).status()).toBe(401);

    const other = await registerFan(request);
    const fromPayment = await request.post('/logout', {
      headers: { Cookie: `stagedoor=${other.token}` },
      form: { redirectTo: '/novaricci/subscribe/payment' },
      maxRedirects: 0,
    });
    expect(fromPayment.headers().location).toBe('/novaricci/subscribe/register');
    const fromElsewhere = await request.post('/logout', { form: { redirectTo: '/novaricci/vault?sort=asc' }, maxRedirects: 0 });
    expect(fromElsewhere.headers().location).toBe('/novaricci/vault?sort=asc');
    const offSite = await request.post('/logout', { form: { redirectTo: '//evil.example' }, maxRedirects: 0 });
    expect(offSite.headers().location).toBe('/');
  });

  test('the log-in dialog is a bottom drawer at 375 px that drags shut, and a centred dialog at 1280 px', async ({ browser }) => {
    const mobile = await browser.newContext({ viewport: { width: 375, height: 812 }, hasTouch: true });
    const page = await mobile.newPage();
    await page.goto('/');
    await page.getByRole('banner').getByRole('button', { name: 'Log in' }).click();
    const panel = page.getByTestId('login-dialog-panel');
    await settled(panel);
    await expect(page.getByRole('dialog', { name: 'Log in to your account' })).toBeVisible();
    let box = (await panel.boundingBox())!;
    expect(Math.round(box.x)).toBe(0);
    expect(Math.round(box.width)).toBe(375);
    expect(Math.round(box.y + box.height)).toBe(812);
    expect(box.y).toBeGreaterThan(100);
    await expectNoA11yViolations(page);

    // A short drag springs back; a long one closes the drawer.
    const handle = page.getByTestId('drawer-handle');
    const grip = (await handle.boundingBox())!;
    const x = grip.x + grip.width / 2;
    const y = grip.y + grip.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x, y + 40, { steps: 4 });
    await page.mouse.up();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expect.poll(async () => Math.round((await handle.boundingBox())!.y)).toBe(Math.round(grip.y));
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x, y + 250, { steps: 8 });
    await page.mouse.up();
    await expect(page.getByRole('dialog')).toBeHidden();
    await mobile.close();

    const desktop = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const wide = await desktop.newPage();
    await wide.goto('/');
    await wide.getByRole('banner').getByRole('button', { name: 'Log in' }).click();
    const centred = wide.getByTestId('login-dialog-panel');
    await settled(centred);
    await expect(wide.getByTestId('drawer-handle')).toBeHidden();
    box = (await centred.boundingBox())!;
    expect(Math.abs(box.x + box.width / 2 - 640)).toBeLessThanOrEqual(1);
    expect(Math.abs(box.y + box.height / 2 - 450)).toBeLessThanOrEqual(1);
    expect(box.width).toBeLessThan(500);
    await wide.mouse.click(40, 450); // the backdrop
    await expect(wide.getByRole('dialog')).toBeHidden();
    await desktop.close();
  });
});

test.describe('page shell without JavaScript', () => {
  test('"Log in" is a link to /login; the form posts, sets the cookie and lands on next; log out works too', async ({
    browser,
    request,
  }) => {
    const fan = await registerFan(request);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();

    await page.goto('/');
    await page.getByRole('banner').getByRole('link', { name: 'Log in' }).click();
    await expect(page).toHaveURL('/login');
    await expectNoA11yViolations(page);

    // A failed attempt is answered by the server with the alert and both inputs marked.
    await page.getByLabel('Email address').fill(fan.email);
    await page.getByLabel('Password', { exact: true }).fill('Not-The-Password-1');
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText(INCORRECT);
    await expect(page.getByLabel('Email address')).toHaveValue(fan.email);
    await expect(page.getByLabel('Email address')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expectNoA11yViolations(page);

    await page.getByLabel('Password', { exact: true }).fill(fan.password);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await expect(page).toHaveURL('/discover');
    expect(await sessionCookie(context)).toBeDefined();

    // With next, the fan comes back to where they were.
    await context.clearCookies();
    await page.goto('/this/does/not/exist');
    await page.goto('/login?next=%2Fthis%2Fdoes%2Fnot%2Fexist');
    await page.getByLabel('Email address').fill(fan.email);
    await page.getByLabel('Password', { exact: true }).fill(fan.password);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await expect(page).toHaveURL('/this/does/not/exist');
    expect(await sessionCookie(context)).toBeDefined();

    // The account menu is a plain disclosure; "Log out" posts a form.
    await page.goto('/');
    await page.getByRole('banner').locator('summary').click();
    await expect(page.getByText(fan.email)).toBeVisible();
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL('/');
    expect(await sessionCookie(context)).toBeUndefined();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Log in' })).toBeVisible();
    await context.close();
  });
});
