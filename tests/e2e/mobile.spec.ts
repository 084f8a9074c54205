import { expect, test, type Page } from '@playwright/test';
import { expectNoA11yViolations, uniqueName } from './helpers';

/** Fans on phones: the register journey at a 375 px wide viewport, with touch. */
test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });

/** Nothing on the page is wider than the screen (no sideways scrolling). */
async function expectNoHorizontalScroll(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `page ${page.url()} is ${width}px wide`).toBeLessThanOrEqual(375);
}

test('on a 375 px phone a fan registers through join and the register form', async ({ page }) => {
  await page.goto('/novaricci/join');
  await expectNoHorizontalScroll(page);
  await expectNoA11yViolations(page);
  const cta = page.getByRole('link', { name: 'Join for $49.99 a year' }).first();
  await expect(cta).toBeInViewport();
  await cta.tap();

  await expect(page).toHaveURL('/novaricci/subscribe/register');
  await expectNoHorizontalScroll(page);
  const submit = page.getByRole('button', { name: 'Continue to payment' });
  await submit.tap();
  await expect(page.getByText('Username must be at least 3 characters')).toBeVisible();
  await expectNoHorizontalScroll(page);
  await expectNoA11yViolations(page);

  const name = uniqueName('phone');
  await page.getByLabel('Username').fill(name);
  await page.getByLabel('Email address').fill(`${name}@example.com`);
  await page.getByLabel('Password', { exact: true }).fill('Pocket-Gig-2026!');
  await submit.tap();
  await expect(page).toHaveURL('/novaricci/subscribe/payment');
});
