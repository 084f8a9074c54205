import { expect, test, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';
import { messages } from '#contract/accounts';
import { profileMessages } from '#contract/artist-profile';
import { expectNoA11yViolations, uniqueName } from './helpers';
import { startOwnApp, type OwnApp } from './own-app';

/**
 * The first-run setup in the browser: the built app started as an owner starts it, with SEED_DEMO=false on an empty
 * data directory (its own, on ports beside the suite's), for each journey, so every test meets a site nobody has set up.
 */

const PASSWORD = 'Own-The-Stage-2026!';
const WEB = `http://localhost:${Number(process.env.E2E_WEB_PORT ?? 3100) + 57}`;

// Each journey starts an app of its own from an empty data directory, which takes a minute on a busy machine.
test.describe.configure({ timeout: 240_000 });

let app: OwnApp | undefined;

test.beforeEach(async () => {
  app = await startOwnApp({ offset: 57, name: 'setup', env: { SEED_DEMO: 'false' }, timeoutMs: 150_000 });
  expect(app.web).toBe(WEB);
});

test.afterEach(async () => {
  await app?.stop();
});

async function newPage(browser: Browser, options: { javaScriptEnabled: boolean; width: number }) {
  const context = await browser.newContext({
    baseURL: WEB,
    javaScriptEnabled: options.javaScriptEnabled,
    viewport: { width: options.width, height: 900 },
  });
  return context.newPage();
}

async function fillAccount(page: Page, fields: { name: string; username: string; email: string; password: string }) {
  await page.getByLabel('Your name').fill(fields.name);
  await page.getByLabel('Username').fill(fields.username);
  await page.getByLabel('Email address').fill(fields.email);
  await page.getByLabel('Password', { exact: true }).fill(fields.password);
}

/** The page at both widths the app is drawn for, kept with the test's results to look at. */
async function shot(page: Page, name: string) {
  const size = page.viewportSize()!;
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(size);
}

for (const { javaScriptEnabled, width } of [
  { javaScriptEnabled: true, width: 1280 },
  { javaScriptEnabled: false, width: 375 },
]) {
  const how = `JavaScript ${javaScriptEnabled ? 'on' : 'off'}, ${width} px`;

  test(`an empty install leads its first visitor from / through the setup into the studio (${how})`, async ({ browser }) => {
    const page = await newPage(browser, { javaScriptEnabled, width });
    const owner = uniqueName('owner');
    const club = uniqueName('club');

    // Someone else has the first step open too, and sends it after the owner: the page is gone, as on any set-up site.
    const rival = await newPage(browser, { javaScriptEnabled, width });
    await rival.goto('/setup');
    const other = uniqueName('rival');
    await fillAccount(rival, { name: 'Rival', username: other, email: `${other}@example.com`, password: PASSWORD });

    await page.goto('/');
    await expect(page).toHaveURL(`${WEB}/setup`);
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Stagedoor' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Steps to set up' }).getByRole('listitem').first()).toHaveAttribute('aria-current', 'step');
    await expectNoA11yViolations(page);
    await shot(page, 'account');

    // The sign-up rules, with their words, in the browser or from the action.
    await page.getByRole('button', { name: 'Create your account' }).click();
    await expect(page.getByText('Please enter your name.')).toBeVisible();
    await expect(page.getByText(messages.usernameTooShort)).toBeVisible();
    await fillAccount(page, { name: 'Nova Reyes', username: 'setup', email: `${owner}@example.com`, password: 'weakpassword' });
    await page.getByRole('button', { name: 'Create your account' }).click();
    await expect(page.getByText(messages.usernameReserved)).toBeVisible();
    await expect(page.getByText(messages.passwordComplexity)).toBeVisible();
    await shot(page, 'account-errors');

    await fillAccount(page, { name: 'Nova Reyes', username: owner, email: `${owner}@example.com`, password: PASSWORD });
    await page.getByRole('button', { name: 'Create your account' }).click();
    await expect(page).toHaveURL(`${WEB}/setup/club`);
    await expect(page.getByRole('heading', { level: 1, name: 'Open your fan club' })).toBeVisible();

    await rival.getByRole('button', { name: 'Create your account' }).click();
    await expect(rival.getByRole('heading', { level: 1, name: "Uh, oh, This page doesn't seem to exist." })).toBeVisible();
    // The rival has no session: the club step is not theirs.
    expect((await rival.goto('/setup/club'))?.status()).toBe(404);
    await rival.context().close();

    // The club opens on the account just made: its name and username are the starting point.
    await expect(page.getByLabel('Artist name')).toHaveValue('Nova Reyes');
    await expect(page.getByLabel('Club address')).toHaveValue(owner);
    await expectNoA11yViolations(page);
    await shot(page, 'club');

    await page.getByLabel('Artist name').fill('Nova and the Reyes');
    await page.getByLabel('Club address').fill(club);
    await page.getByLabel('Yearly price').fill('49.999');
    await page.getByRole('button', { name: 'Open your club' }).click();
    await expect(page.getByText(profileMessages.price)).toBeVisible();
    await page.getByLabel('Yearly price').fill('49.99');
    await page.getByLabel('Currency').selectOption('eur');
    await page.getByRole('button', { name: 'Open your club' }).click();

    // The art: a picture and a cover, each optional. The api reads the file, not its name.
    await expect(page).toHaveURL(`${WEB}/setup/art`);
    await expect(page.getByRole('heading', { level: 1, name: 'Give your club a face' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Steps to set up' }).getByRole('listitem').nth(2)).toHaveAttribute('aria-current', 'step');
    await expectNoA11yViolations(page);
    await shot(page, 'art');
    if (javaScriptEnabled) {
      await page.getByLabel('Cover').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
      await page.getByRole('button', { name: 'Save and continue' }).click();
      await expect(page.getByText("This file type isn't supported. Upload a JPEG, PNG, WebP or GIF image.")).toBeVisible();
      await expect(page).toHaveURL(`${WEB}/setup/art`);
      await shot(page, 'art-errors');
      // The owner puts a real cover in its place.
      const cover = await sharp({ create: { width: 1200, height: 400, channels: 3, background: '#224466' } })
        .png()
        .toBuffer();
      await page.getByLabel('Cover').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: cover });
    }
    const picture = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#aa3355' } })
      .png()
      .toBuffer();
    await page.getByLabel('Picture').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: picture });
    await page.getByRole('button', { name: 'Save and continue' }).click();

    await expect(page).toHaveURL(`${WEB}/setup/payouts`);
    await expect(page.getByRole('heading', { level: 1, name: 'Your club is open' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Set up payouts on your earnings page' })).toHaveAttribute(
      'href',
      `/${club}/account/earnings`,
    );
    await expectNoA11yViolations(page);
    await shot(page, 'payouts');

    await page.getByRole('link', { name: 'Go to your studio' }).click();
    await expect(page).toHaveURL(`${WEB}/${club}/account`);
    await expect(page.getByRole('heading', { level: 1, name: 'Your fan club' })).toBeVisible();
    await expect(page.getByText('Nova and the Reyes').first()).toBeVisible();
    // The picture chosen in the setup is the club's: the studio's images form shows it.
    await expect(page.locator('img[src*="/performers/images/"]').first()).toBeVisible();

    // Set up: the setup pages exist for nobody now, and the front door is the site's own.
    for (const step of ['/setup', '/setup/club']) {
      const answer = await page.goto(step);
      expect(answer?.status(), step).toBe(404);
    }
    const visitor = await newPage(browser, { javaScriptEnabled, width });
    expect((await visitor.goto('/setup'))?.status()).toBe(404);
    await visitor.goto('/');
    await expect(visitor).toHaveURL(`${WEB}/`);
    await expect(visitor.getByText('Nova and the Reyes').first()).toBeVisible();
    await visitor.context().close();
    await page.context().close();
  });
}
