import { expect, test as base, type BrowserContext, type Page } from '@playwright/test';
import { apiBase, expectNoA11yViolations, registerFan, signIn, uniqueName } from './helpers';

/**
 * The shorter join: the join page leads straight to register (payment when signed in), the register step
 * says which offer it is for, the payment step what is charged and when it renews, and the success page the amount,
 * the renewal date, a receipt link and a link to the item the artist's message promises. With JavaScript on (375 px)
 * and off (1280 px).
 */
const test = base.extend<{ js: boolean; width: number; context: BrowserContext; page: Page }>({
  js: [true, { option: true }],
  width: [1280, { option: true }],
  context: async ({ browser, baseURL, js, width }, use) => {
    const context = await browser.newContext({ javaScriptEnabled: js, baseURL, viewport: { width, height: 850 } });
    await use(context);
    await context.close();
  },
  page: async ({ context }, use) => {
    await use(await context.newPage());
  },
});

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });
const inAYear = () => {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() + 1);
  return dateFormat.format(date);
};

for (const { js, width } of [
  { js: true, width: 375 },
  { js: false, width: 1280 },
]) {
  test.describe(`JavaScript ${js ? 'on' : 'off'}, ${width} px`, () => {
    test.use({ js, width });

    test('join → register → payment → success, each step saying what it is for', async ({ page }) => {
      await page.goto('/novaricci/join');
      await page.getByRole('link', { name: 'Join for $49.99 a year' }).first().click();
      await expect(page).toHaveURL('/novaricci/subscribe/register');
      const offer = page.getByRole('region', { name: 'Your membership' });
      await expect(offer).toContainText('Nova Ricci');
      await expect(offer).toContainText('$49.99 a year');
      await expect(offer).toContainText('Billed once a year.');
      await expectNoA11yViolations(page);

      const username = uniqueName(js ? 'shortjs' : 'shortnojs');
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Email address').fill(`${username}@example.com`);
      await page.getByLabel('Password', { exact: true }).fill('Front-Row-2026!');
      await page.getByRole('button', { name: 'Continue to payment' }).click();
      await expect(page).toHaveURL('/novaricci/subscribe/payment');
      const order = page.getByRole('region', { name: 'Your order' });
      await expect(order.getByText('Charged today')).toBeVisible();
      await expect(order).toContainText(`Renews on ${inAYear()}`);
      await expectNoA11yViolations(page);

      await page.getByLabel('Card number').fill('4242 4242 4242 4242');
      await page.getByLabel('Expiry date').fill('12/34');
      await page.getByLabel('Security code').fill('123');
      await page.getByRole('button', { name: 'Pay $49.99' }).click();
      await expect(page).toHaveURL('/novaricci/subscribe/success');
      const membership = page.getByRole('region', { name: 'Your membership' });
      await expect(membership).toContainText(`You paid $49.99 · renews on ${inAYear()}`);
      // The artist's closing promise is a link to the item it names.
      const promise = page.getByRole('link', { name: 'Start with the first voice note: it is where Neon Vespers began.' });
      await expect(promise).toBeVisible();
      await expectNoA11yViolations(page);

      await membership.getByRole('link', { name: 'View your receipt' }).click();
      await expect(page).toHaveURL(/\/account\/memberships#receipt-/);
      const receiptId = new URL(page.url()).hash.slice(1);
      await expect(page.locator(`[id="${receiptId}"]`)).toContainText('$49.99');
      await page.goBack();
      await page.getByRole('link', { name: 'Start with the first voice note: it is where Neon Vespers began.' }).click();
      await expect(page).toHaveURL(/\/novaricci\/vault\//);
      await expect(page.getByRole('heading', { level: 1, name: 'The first voice note' })).toBeVisible();
    });

    test('a free club: join leads to register, and success has no payment card and nothing aimed at a sign-up', async ({
      page,
      request,
    }) => {
      await page.goto('/juniperlane/join');
      await page.getByRole('link', { name: 'Join for free' }).first().click();
      await expect(page).toHaveURL('/juniperlane/subscribe/register');
      await expect(page.getByRole('region', { name: 'Your membership' })).toContainText('Free to join, no card needed.');
      const username = uniqueName('shortfree');
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Email address').fill(`${username}@example.com`);
      await page.getByLabel('Password', { exact: true }).fill('Front-Row-2026!');
      await page.getByRole('button', { name: 'Join for free' }).click();
      await expect(page).toHaveURL('/juniperlane/subscribe/success');
      await expect(page.getByRole('region', { name: 'Your membership' })).toHaveCount(0);
      await expect(page.getByText('Wrong details?')).toHaveCount(0);
      await expectNoA11yViolations(page);

      // A fan who already has an account joins a free club in one step, with nothing about correcting a sign-up.
      const fan = await registerFan(request, apiBase, 'shortfreesigned');
      await page.context().clearCookies();
      await signIn(page.context(), fan.token);
      await page.goto('/juniperlane/join');
      await page.getByRole('link', { name: 'Join for free' }).first().click();
      await expect(page).toHaveURL('/juniperlane/subscribe/payment');
      await expect(page.getByText('Wrong details?')).toHaveCount(0);
    });

    test('/login without an artist offers a way to sign up', async ({ page }) => {
      await page.goto('/login');
      await page.getByRole('link', { name: 'Find a fan club and sign up' }).click();
      await expect(page).toHaveURL('/');
      // The front page lists clubs, each leading to its join page (which ones depends on what other tests made).
      await expect(page.locator('main a[href$="/join"]').first()).toBeVisible();
    });
  });
}
