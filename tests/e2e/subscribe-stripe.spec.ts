import { expect, test } from '@playwright/test';
import { startStripeStandIn, type StripeStandIn } from '../helpers/stripe-stand-in';
import { expectNoA11yViolations, uniqueName } from './helpers';
import { startOwnApp, type OwnApp } from './own-app';

/**
 * The Stripe path in the browser, JavaScript off: the payment step falls back to Stripe Checkout. The built app runs
 * a second time here, configured with Stripe keys and with the SDK pointed at the local stand-in for Stripe's API;
 * the Checkout page itself (Stripe's) is stood in for by completing the session and sending the browser back to
 * its success URL from another site, as Stripe does.
 */

const WEB = `http://localhost:${Number(process.env.E2E_WEB_PORT ?? 3100) + 50}`;

let stand: StripeStandIn;
let app: OwnApp | undefined;

test.beforeAll(async () => {
  stand = await startStripeStandIn();
  app = await startOwnApp({
    offset: 50,
    name: 'stripe',
    env: {
      STRIPE_SECRET_KEY: 'sk_test_standin',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_standin',
      STRIPE_WEBHOOK_SECRET: 'whsec_standin',
      STRIPE_API_URL: stand.url,
    },
  });
});

test.afterAll(async () => {
  await app?.stop();
  await stand?.close();
});

test('without JavaScript a Stripe payment goes through Checkout and comes back, cross-site, to the success page', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: WEB });
  try {
    const page = await context.newPage();
    // Stripe's Checkout page: the fan pays there, and Stripe sends the browser back to the success URL.
    await page.route('https://checkout.stripe.test/**', async (route) => {
      const sessionId = new URL(route.request().url()).pathname.split('/').pop()!;
      stand.completeCheckout(sessionId);
      await route.fulfill({ status: 303, headers: { location: stand.successUrl(sessionId)! } });
    });

    await page.goto('/novaricci/subscribe/register');
    const username = uniqueName('checkout');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Email address').fill(`${username}@example.com`);
    await page.getByLabel('Password', { exact: true }).fill('Front-Row-2026!');
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await expect(page).toHaveURL('/novaricci/subscribe/payment');
    await expect(page.getByText('You will enter your card on Stripe’s secure page and come back here.')).toBeVisible();
    await expect(page.getByText('Test payment')).toHaveCount(0);
    await expectNoA11yViolations(page);

    await page.getByRole('button', { name: 'Continue to secure checkout · $49.99' }).click();
    await expect(page).toHaveURL('/novaricci/subscribe/success');
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to the Inner Circle' })).toBeVisible();

    const session = stand.calls.find((c) => c.path === '/v1/checkout/sessions' && c.method === 'POST')!;
    expect(session.body).toMatchObject({
      mode: 'subscription',
      line_items: [{ price_data: { unit_amount: '4999', recurring: { interval: 'year' } } }],
    });
    await page.goto('/novaricci/account');
    await expect(page.getByText('$49.99 a year', { exact: true })).toBeVisible();
  } finally {
    await context.close();
  }
});
