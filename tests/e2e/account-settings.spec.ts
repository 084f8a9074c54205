import { expect, test as base, type BrowserContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { apiBase, expectNoA11yViolations, registerFan, signIn, type Fan } from './helpers';
import { linkFromOutbox } from './outbox';

/**
 * Account settings (docs/pages-content.md "Account settings"): reached from the account menu of any page,
 * every field changes with JavaScript on (at 375 px) and off (at 1280 px), and the account can be downloaded and
 * deleted.
 */
const MODES = [
  { js: true, width: 375 },
  { js: false, width: 1280 },
] as const;

/**
 * Each mode's page comes from a context of its own (JavaScript on or off, at its width), so the browser's other
 * contexts (the accessibility scan's) keep JavaScript, as in no-js.spec.ts.
 */
const test = base.extend<{ js: boolean; width: number; context: BrowserContext; page: Page }>({
  js: [true, { option: true }],
  width: [1280, { option: true }],
  context: async ({ browser, baseURL, js, width }, use) => {
    const context = await browser.newContext({ javaScriptEnabled: js, baseURL, viewport: { width, height: 850 }, acceptDownloads: true });
    await use(context);
    await context.close();
  },
  page: async ({ context }, use) => {
    await use(await context.newPage());
  },
});

async function openMenu(page: Page, js: boolean) {
  if (js) await page.getByRole('button', { name: /Logged in as/ }).click();
  else await page.locator('summary').filter({ hasText: 'Logged in as' }).click();
}

for (const { js, width } of MODES) {
  test.describe(`JavaScript ${js ? 'on' : 'off'}, ${width} px`, () => {
    test.use({ js, width });

    async function signedIn(page: Page, fan: Fan) {
      await signIn(page.context(), fan.token);
    }

    test('a user changes name, picture, email and password from the account menu', async ({ page, request }) => {
      const fan = await registerFan(request, apiBase, js ? 'setjs' : 'setnojs');
      await signedIn(page, fan);
      await page.goto('/discover');
      await openMenu(page, js);
      await page.getByRole(js ? 'menuitem' : 'link', { name: 'Account settings' }).click();
      await expect(page).toHaveURL('/account');
      await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toBeVisible();
      await expectNoA11yViolations(page);

      // Name: refused empty with its message, then saved.
      const name = page.getByRole('textbox', { name: 'Name', exact: true });
      await name.fill('');
      await page.getByRole('button', { name: 'Save name' }).click();
      await expect(name).toHaveAccessibleDescription('Please enter your name.');
      await name.fill('Robin Vale');
      await page.getByRole('button', { name: 'Save name' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Your name is saved.' })).toBeVisible();
      await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Robin Vale');

      // Picture.
      const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#3355aa' } })
        .png()
        .toBuffer();
      await page.getByLabel('New picture').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
      await page.getByRole('button', { name: 'Upload picture' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Your new picture is saved.' })).toBeVisible();
      await expect(page.getByRole('img', { name: 'You, as others see you' })).toHaveAttribute('src', /\/users\/avatars\/[0-9a-f-]{36}$/);
      await expect
        .poll(() => page.getByRole('img', { name: 'You, as others see you' }).evaluate((img: HTMLImageElement) => img.naturalWidth))
        .toBe(256);

      // Email: a wrong password is refused on its field; the right one sends a link to the new address.
      const newEmail = `new-${fan.email}`;
      const emailSection = page.getByRole('region', { name: 'Email address' });
      await emailSection.getByLabel('New email address').fill(newEmail);
      await emailSection.getByLabel('Current password').fill('Not-My-Password-1!');
      await emailSection.getByRole('button', { name: 'Send confirmation link' }).click();
      await expect(page.getByRole('region', { name: 'Email address' }).getByLabel('Current password')).toHaveAccessibleDescription(
        'Your current password is not correct.',
      );
      const askedAt = Date.now() - 1000;
      await page.getByRole('region', { name: 'Email address' }).getByLabel('Current password').fill(fan.password);
      await page.getByRole('region', { name: 'Email address' }).getByRole('button', { name: 'Send confirmation link' }).click();
      await expect(page.getByRole('status').filter({ hasText: `We sent a link to ${newEmail}` })).toBeVisible();
      const link = await linkFromOutbox(
        newEmail,
        /https?:\/\/\S+\/account\/email\/confirm\?token=[\w-]+/,
        askedAt,
        'an email confirmation',
      );
      await page.goto(new URL(link).pathname + new URL(link).search);
      await expectNoA11yViolations(page);
      await page.getByRole('button', { name: 'Confirm my new email address' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Your email address is changed' })).toBeVisible();
      await page.goto('/account');
      await expect(page.getByRole('region', { name: 'Email address' })).toContainText(`Now ${newEmail}`);

      // Password.
      const passwordSection = page.getByRole('region', { name: 'Password' });
      const newPassword = 'Encore-Please-22!';
      await passwordSection.getByLabel('Current password').fill(fan.password);
      await passwordSection.getByLabel('New password', { exact: true }).fill(newPassword);
      await passwordSection.getByLabel('Confirm new password').fill('Something-Else-3!');
      await passwordSection.getByRole('button', { name: 'Change password' }).click();
      await expect(page.getByRole('region', { name: 'Password' }).getByLabel('Confirm new password')).toHaveAccessibleDescription(
        'Passwords do not match',
      );
      await page.getByRole('region', { name: 'Password' }).getByLabel('Current password').fill(fan.password);
      await page.getByRole('region', { name: 'Password' }).getByLabel('New password', { exact: true }).fill(newPassword);
      await page.getByRole('region', { name: 'Password' }).getByLabel('Confirm new password').fill(newPassword);
      await page.getByRole('region', { name: 'Password' }).getByRole('button', { name: 'Change password' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Your password is changed.' })).toBeVisible();
      const login = await request.post(`${apiBase}/auth/login`, { data: { username: newEmail, password: newPassword, remember: true } });
      expect(login.status()).toBe(200);
      await expectNoA11yViolations(page);
    });

    test('a fan downloads their data, then deletes the account after confirming', async ({ page, request }) => {
      const fan = await registerFan(request, apiBase, js ? 'deljs' : 'delnojs');
      await signedIn(page, fan);
      await page.goto('/account');
      const downloading = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Download my data' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe(`stagedoor-${fan.username}.json`);
      const file = await download.path();
      const data = JSON.parse(await (await import('node:fs/promises')).readFile(file, 'utf8')) as { account: { username: string } };
      expect(data.account.username).toBe(fan.username);

      const section = page.getByRole('region', { name: 'Delete account' });
      await section.getByLabel('Current password').fill(fan.password);
      await section.getByRole('button', { name: 'Delete my account' }).click();
      await expect(page.getByRole('region', { name: 'Delete account' }).getByRole('checkbox')).toHaveAccessibleDescription(
        'Please tick the box to confirm that you want to delete your account.',
      );
      await page.getByRole('region', { name: 'Delete account' }).getByLabel('Current password').fill(fan.password);
      await page.getByRole('region', { name: 'Delete account' }).getByRole('checkbox').check();
      await page.getByRole('region', { name: 'Delete account' }).getByRole('button', { name: 'Delete my account' }).click();
      await expect(page).toHaveURL('/account/deleted');
      await expect(page.getByRole('heading', { level: 1, name: 'Your account is deleted' })).toBeVisible();
      await expectNoA11yViolations(page);
      // Signed out: the cookie is cleared (Max-Age 1, so it may linger empty for a second).
      expect((await page.context().cookies()).find((c) => c.name === 'stagedoor')?.value ?? '').toBe('');
      const login = await request.post(`${apiBase}/auth/login`, { data: { username: fan.email, password: fan.password, remember: true } });
      expect(login.status()).toBe(422);
    });
  });
}
