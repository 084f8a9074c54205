import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { apiBase, expectNoA11yViolations, registerFan, signIn, signInAs, uniqueName, webBase } from './helpers';

/**
 * Subscribing, in Chromium against the built app with the test gateway (no Stripe keys): a new fan's paid journey
 * from the join page to the artist's home, declined and authentication cards, a free artist, a promo code,
 * discover's redirect, the whole journey without JavaScript and on a 375 px phone, and the account page.
 */

const CARD = {
  success: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  authenticate: '4000 0027 6000 3184',
};
const PASSWORD = 'Front-Row-2026!';

/** From the join page through register, as a new fan; ends on the payment step. */
async function joinAndRegister(page: Page, artist: { username: string; price: string }, scan = true) {
  await page.goto(`/${artist.username}/join`);
  if (scan) await expectNoA11yViolations(page);
  await page
    .getByRole('link', { name: `Join for ${artist.price} a year` })
    .first()
    .click();
  await expect(page).toHaveURL(`/${artist.username}/subscribe/register`);
  const username = uniqueName('payer');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email address').fill(`${username}@example.com`);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page).toHaveURL(`/${artist.username}/subscribe/payment`);
  return username;
}

async function fillCard(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry date').fill('12/34');
  await page.getByLabel('Security code').fill('123');
}

const NOVA = { username: 'novaricci', name: 'Nova Ricci', price: '$49.99' };
const LATE = { username: 'thelatenights', name: 'The Late Nights', price: '£29.99' };

async function expectOnArtistHome(page: Page, artist: { username: string; name: string }) {
  await expect(page).toHaveURL(`/${artist.username}`);
  await expect(page.getByRole('heading', { level: 1, name: artist.name })).toBeVisible();
}

test('a new fan joins from the join page, pays with 4242 4242 4242 4242, sees the success page, then the artist’s home', async ({
  page,
}) => {
  await joinAndRegister(page, NOVA);
  await expect(page.getByRole('heading', { level: 1, name: 'Pay securely' })).toBeVisible();
  await expect(page.getByText('Test payment: nothing is charged.')).toBeVisible();
  await expectNoA11yViolations(page);

  await fillCard(page, CARD.success);
  await page.getByRole('button', { name: 'Pay $49.99' }).click();
  await expect(page).toHaveURL('/novaricci/subscribe/success');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome to the Inner Circle' })).toBeVisible();
  await expect(page.getByText('Your membership is active. Everything in the vault is yours to play now.')).toBeVisible();
  await expect(page.getByText('Start with the first voice note: it is where Neon Vespers began.')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Yellow and white confetti on violet around the words Welcome backstage' })).toBeVisible();
  await expectNoA11yViolations(page);

  await page.getByRole('link', { name: 'Go to Nova Ricci’s page' }).click();
  await expectOnArtistHome(page, NOVA);
  // A member is sent from the payment step to the artist's page.
  await page.goto('/novaricci/subscribe/payment');
  await expectOnArtistHome(page, NOVA);
});

test('a declined card says so on the payment page, keeps the input, and another card then pays', async ({ page }) => {
  await joinAndRegister(page, LATE, false);
  await fillCard(page, CARD.declined);
  await page.getByRole('button', { name: 'Pay £29.99' }).click();
  await expect(page.getByRole('alert')).toHaveText('Your card was declined. Please use a different card, or contact your bank.');
  await expect(page.getByLabel('Card number')).toHaveValue(CARD.declined);
  await expect(page.getByLabel('Expiry date')).toHaveValue('12/34');
  await expectNoA11yViolations(page);
  // Not subscribed: the artist's page still sends the fan to subscribe.
  await page.goto('/thelatenights');
  await expect(page).toHaveURL('/thelatenights/subscribe');

  await page.goto('/thelatenights/subscribe/payment');
  await fillCard(page, CARD.success);
  await page.getByRole('button', { name: 'Pay £29.99' }).click();
  await expect(page).toHaveURL('/thelatenights/subscribe/success');
});

test('on a phone the fan types digits only: the number is grouped and the expiry gets its slash, and it pays', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await joinAndRegister(page, LATE, false);
  // As a numeric keypad types: digits, no spaces, no slash.
  await page.getByLabel('Card number').pressSequentially('4242424242424242');
  await expect(page.getByLabel('Card number')).toHaveValue('4242 4242 4242 4242');
  await page.getByLabel('Expiry date').pressSequentially('1234');
  await expect(page.getByLabel('Expiry date')).toHaveValue('12/34');
  // A digit corrected in the middle (the fifth, deleted and typed again) keeps the caret where it was.
  await page.getByLabel('Card number').press('Home');
  for (let i = 0; i < 6; i++) await page.getByLabel('Card number').press('ArrowRight');
  await page.getByLabel('Card number').press('Backspace');
  await expect(page.getByLabel('Card number')).toHaveValue('4242 2424 2424 242');
  await page.getByLabel('Card number').press('4');
  await expect(page.getByLabel('Card number')).toHaveValue('4242 4242 4242 4242');
  await page.getByLabel('Security code').pressSequentially('123');
  await page.getByRole('button', { name: 'Pay £29.99' }).click();
  await expect(page).toHaveURL('/thelatenights/subscribe/success');
  await context.close();
});

test('the payment form checks the card before sending it: number, expiry in the past, security code', async ({ page }) => {
  await joinAndRegister(page, LATE, false);
  await page.getByLabel('Card number').fill('4242 4242 4242 4241');
  await page.getByLabel('Expiry date').fill('01/20');
  await page.getByLabel('Security code').fill('1');
  await page.getByRole('button', { name: 'Pay £29.99' }).click();
  await expect(page.getByLabel('Card number')).toHaveAccessibleDescription('Please enter a valid card number.');
  await expect(page.getByLabel('Expiry date')).toHaveAccessibleDescription('Your card’s expiry date is in the past.');
  await expect(page.getByLabel('Security code')).toHaveAccessibleDescription('Please enter the 3 or 4 digit security code.');
  await expect(page).toHaveURL('/thelatenights/subscribe/payment');
});

test('the authentication card: the fan approves on the authentication page and comes back from another site still signed in', async ({
  page,
  context,
}) => {
  await joinAndRegister(page, NOVA, false);
  const cookie = (await context.cookies(webBase)).find((c) => c.name === 'stagedoor');
  await fillCard(page, CARD.authenticate);
  await page.getByRole('button', { name: 'Pay $49.99' }).click();
  await expect(page).toHaveURL(/\/payment\/test-gateway\/authenticate\//);
  await expect(page.getByRole('heading', { name: 'Authenticate your payment' })).toBeVisible();
  await expect(page.getByText('Nothing is charged.')).toBeVisible();
  await expectNoA11yViolations(page);

  // The bank's page is another site (127.0.0.1 is not localhost): its return to us arrives without the
  // SameSite=Strict cookie, as a real 3-D Secure return does.
  const crossSite = page.url().replace('//localhost:', '//127.0.0.1:');
  await page.goto(crossSite);
  await page.getByRole('button', { name: 'Approve payment' }).click();
  await expect(page).toHaveURL('/novaricci/subscribe/success');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome to the Inner Circle' })).toBeVisible();
  expect((await context.cookies(webBase)).find((c) => c.name === 'stagedoor')?.value).toBe(cookie?.value);
});

test('failing authentication brings the fan back to the payment page with the reason', async ({ page }) => {
  await joinAndRegister(page, LATE, false);
  await fillCard(page, CARD.authenticate);
  await page.getByRole('button', { name: 'Pay £29.99' }).click();
  await page.getByRole('button', { name: 'Fail authentication' }).click();
  await expect(page).toHaveURL(/\/thelatenights\/subscribe\/payment\?payment=/);
  await expect(page.getByRole('alert')).toHaveText(
    'Your bank could not confirm this payment, so you have not been charged. Please try again or use a different card.',
  );
  await expectNoA11yViolations(page);
});

test('a free artist: the register step completes the subscription and shows the success page', async ({ page }) => {
  await page.goto('/juniperlane/subscribe');
  await expect(page).toHaveURL('/juniperlane/subscribe/register');
  const username = uniqueName('freefan');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email address').fill(`${username}@example.com`);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Join for free' }).click();
  await expect(page).toHaveURL('/juniperlane/subscribe/success');
  await expectNoA11yViolations(page);
  await page.goto('/juniperlane');
  await expect(page).toHaveURL('/juniperlane');

  // The account page shows the free membership.
  await page.goto('/juniperlane/account');
  await expect(page.getByRole('heading', { level: 1, name: 'Your membership' })).toBeVisible();
  await expect(page.getByText('Free', { exact: true })).toBeVisible();
});

test('a signed-in fan joins a free artist from the subscribe page with one button', async ({ page, context, request }) => {
  const fan = await registerFan(request, apiBase, 'freesigned');
  await signIn(context, fan.token);
  await page.goto('/juniperlane/subscribe');
  // Free: on to register, and signed in: on to the payment step, which is a single "Join for free" button.
  await expect(page).toHaveURL('/juniperlane/subscribe/payment');
  await expect(page.getByRole('heading', { level: 1, name: 'Join for free' })).toBeVisible();
  await expect(page.getByLabel('Card number')).toHaveCount(0);
  await expectNoA11yViolations(page);
  await page.getByRole('button', { name: 'Join for free' }).click();
  await expect(page).toHaveURL('/juniperlane/subscribe/success');
});

test('discover sends a fan with exactly one subscription to that artist', async ({ page, context, request }) => {
  const fan = await registerFan(request, apiBase, 'onesub');
  const performer = await request.get(`${apiBase}/performers/juniperlane`);
  const { data } = (await performer.json()) as { data: { _id: string } };
  const joined = await request.post(`${apiBase}/payment/subscribe/performers`, {
    data: { type: 'free', performerId: data._id },
    headers: { Authorization: `Bearer ${fan.token}` },
  });
  expect(joined.status()).toBe(200);
  await signIn(context, fan.token);
  await page.goto('/discover');
  await expect(page).toHaveURL('/juniperlane');
});

test('a promo code made with the CLI shows the discounted price and is what the fan pays', async ({ page }) => {
  const code = `E2E${Date.now().toString(36).toUpperCase()}`;
  // The CLI talks to the running server (it holds the embedded database).
  const { stdout } = await promisify(execFile)(
    'node',
    ['build/server/cli.js', 'create-promo', '--artist', 'novaricci', '--code', code, '--percent-off', '20'],
    {
      env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, PUBLIC_WEB_URL: webBase },
    },
  );
  expect(stdout).toContain(`Created promo code ${code} for novaricci: 20% off the first year`);

  await joinAndRegister(page, NOVA, false);
  await page.getByLabel('Promo code (optional)').fill('NOPE-NOPE');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByLabel('Promo code (optional)')).toHaveAccessibleDescription('This promo code is not valid.');

  await page.getByLabel('Promo code (optional)').fill(code.toLowerCase());
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText(`Promo code ${code.toLowerCase()} applied.`)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Your order' })).toContainText('$39.99');
  await expect(page.getByRole('region', { name: 'Your order' })).toContainText('20% off');
  await expectNoA11yViolations(page);
  await fillCard(page, CARD.success);
  await page.getByRole('button', { name: 'Pay $39.99' }).click();
  await expect(page).toHaveURL('/novaricci/subscribe/success');
  await page.goto('/novaricci/account');
  await expect(page.getByText('$39.99 a year')).toBeVisible();
});

test('the fan turns auto-renewal off and on again from the account page', async ({ page }) => {
  await joinAndRegister(page, LATE, false);
  await fillCard(page, CARD.success);
  await page.getByRole('button', { name: 'Pay £29.99' }).click();
  await expect(page).toHaveURL('/thelatenights/subscribe/success');
  await page.getByRole('link', { name: 'Your membership details' }).click();
  await expect(page).toHaveURL('/thelatenights/account');
  await expect(page.getByText('Renews on', { exact: true })).toBeVisible();
  await expectNoA11yViolations(page);
  await page.getByRole('button', { name: 'Turn off auto-renewal' }).click();
  await expect(page.getByRole('status')).toHaveText('Auto-renewal is off.');
  await expect(page.getByText('Ends on', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Turn auto-renewal back on' }).click();
  await expect(page.getByRole('status')).toHaveText('Auto-renewal is on again.');

  // Later, from any page of the club: the account menu, then "Your membership" (two taps to cancel).
  await page.goto('/thelatenights/posts');
  await page.getByRole('button', { name: /^Logged in as / }).click();
  await page.getByRole('menuitem', { name: 'Your membership' }).click();
  await expect(page).toHaveURL('/thelatenights/account#membership-title');
  await expect(page.getByRole('button', { name: 'Turn off auto-renewal' })).toBeVisible();
});

test('the artist edits their offer on the account page and sees their subscribers', async ({ page, context, request }) => {
  await signInAs(context, request, { email: 'latenights@stagedoor.test', password: 'Stagedoor-artist-2026!' });
  await page.goto('/thelatenights/account');
  await expect(page.getByRole('heading', { level: 1, name: 'Your fan club' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Subscribers' })).toBeVisible();
  await expectNoA11yViolations(page);

  await page.getByLabel('Yearly price (GBP)').fill('abc');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByLabel('Yearly price (GBP)')).toHaveAccessibleDescription(/Enter the yearly price/);
  await page.getByLabel('Yearly price (GBP)').fill('29.99');
  const title = `After hours ${Date.now()}`;
  await page.getByLabel('Title').fill(title);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status')).toHaveText('Saved. Fans see the changes now.');
  const pub = (await (await request.get(`${apiBase}/performers/thelatenights`)).json()) as {
    data: { successPageTitle: string; yearlyPrice: number };
  };
  expect(pub.data).toMatchObject({ successPageTitle: title, yearlyPrice: 29.99 });

  // A new hero image, through the media upload; it shows with its description.
  const png = await sharp({ create: { width: 320, height: 180, channels: 3, background: { r: 240, g: 200, b: 30 } } })
    .png()
    .toBuffer();
  await page.getByLabel('Hero image', { exact: true }).setInputFiles({ name: 'hero.png', mimeType: 'image/png', buffer: png });
  await page.getByRole('button', { name: 'Upload images' }).click();
  // While the file is sent, its field says so in a status of its own.
  await expect(page.getByRole('status').filter({ hasText: 'Images saved.' })).toHaveText('Images saved.');
  const hero = page.getByRole('img', { name: 'The Late Nights in white over a city skyline under a full moon' });
  await expect(hero).toHaveAttribute('src', /\/performers\/images\/[0-9a-f-]{36}$/);
  expect(await hero.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(320);
  // A text file is refused on its field.
  await page
    .getByLabel('Avatar', { exact: true })
    .setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: Buffer.from('not an image') });
  await page.getByRole('button', { name: 'Upload images' }).click();
  await expect(page.getByLabel('Avatar', { exact: true })).toHaveAttribute('aria-invalid', 'true');
});

/** A browser context with JavaScript off, for the no-JS journey. */
async function noJsPage(browser: Browser, baseURL: string | undefined): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  return { context, page: await context.newPage() };
}

test('without JavaScript the whole paid journey works: register, a declined card, 4242, success, artist home', async ({
  browser,
  baseURL,
}) => {
  const { context, page } = await noJsPage(browser, baseURL);
  try {
    await joinAndRegister(page, NOVA);
    await expectNoA11yViolations(page);
    await fillCard(page, CARD.declined);
    await page.getByRole('button', { name: 'Pay $49.99' }).click();
    await expect(page.getByRole('alert')).toHaveText('Your card was declined. Please use a different card, or contact your bank.');
    await expect(page.getByLabel('Card number')).toHaveValue(CARD.declined);
    await fillCard(page, CARD.success);
    await page.getByRole('button', { name: 'Pay $49.99' }).click();
    await expect(page).toHaveURL('/novaricci/subscribe/success');
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to the Inner Circle' })).toBeVisible();
    await page.getByRole('link', { name: 'Go to Nova Ricci’s page' }).click();
    await expectOnArtistHome(page, NOVA);
  } finally {
    await context.close();
  }
});

test('without JavaScript the authentication card works too, through the approval page', async ({ browser, baseURL }) => {
  const { context, page } = await noJsPage(browser, baseURL);
  try {
    await joinAndRegister(page, LATE, false);
    await fillCard(page, CARD.authenticate);
    await page.getByRole('button', { name: 'Pay £29.99' }).click();
    await page.getByRole('button', { name: 'Approve payment' }).click();
    await expect(page).toHaveURL('/thelatenights/subscribe/success');
  } finally {
    await context.close();
  }
});

test.describe('on a 375 px phone', () => {
  test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });

  async function expectNoHorizontalScroll(page: Page) {
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `page ${page.url()} is ${width}px wide`).toBeLessThanOrEqual(375);
  }

  test('a fan pays and lands on the success page, with nothing wider than the screen; logging out from payment returns to register', async ({
    page,
  }) => {
    await joinAndRegister(page, LATE, false);
    await expectNoHorizontalScroll(page);
    await expectNoA11yViolations(page);
    await expect(page.getByRole('button', { name: 'Pay £29.99' })).toBeVisible();

    // Log out from the payment step: back to the register step.
    await page.getByRole('button', { name: /Logged in as/ }).tap();
    await page.getByRole('menuitem', { name: 'Log out' }).tap();
    await expect(page).toHaveURL('/thelatenights/subscribe/register');

    await joinAndRegister(page, LATE, false);
    await fillCard(page, CARD.success);
    await page.getByRole('button', { name: 'Pay £29.99' }).tap();
    await expect(page).toHaveURL('/thelatenights/subscribe/success');
    await expectNoHorizontalScroll(page);
    await expectNoA11yViolations(page);
    await page.goto('/thelatenights/account');
    await expectNoHorizontalScroll(page);
  });
});
