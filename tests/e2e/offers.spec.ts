import { expect, test } from '@playwright/test';
import { giftMessages } from '../../contract/gifts';
import { expectNoA11yViolations, registerFan, uniqueName } from './helpers';
import { apiCall, mailFromOutbox, newArtist, payingFan, signedIn, type MoneyArtist } from './money-world';

/**
 * The artist's offers and money in Chromium against the built app (test gateway): the currency chosen in the
 * profile and a GBP price on the join, payment and success pages and in the receipt; the promo codes page; a free
 * trial on the payment page; a gift bought, mailed and opened by someone without an account; payout onboarding.
 */

const PASSWORD = 'Front-Row-2026!';

async function fillCard(page: import('@playwright/test').Page) {
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry date').fill('12/34');
  await page.getByLabel('Security code').fill('123');
}

test('the artist chooses pounds before the first payment; a new fan sees £ on the join, payment and success pages and in the receipt', async ({
  browser,
  request,
}) => {
  const band = await newArtist(request, '20.00', 'usd');
  const artistContext = await signedIn(browser, band.token);
  const studio = await artistContext.newPage();
  await studio.goto(`/${band.username}/account`);
  await studio.getByLabel('Currency').selectOption('gbp');
  await studio.getByRole('button', { name: 'Save changes' }).click();
  await expect(studio.getByRole('status')).toHaveText('Saved. Fans see the changes now.');
  await expect(studio.getByLabel('Yearly price (GBP)')).toHaveValue('20.00');

  const fanContext = await browser.newContext();
  const page = await fanContext.newPage();
  await page.goto(`/${band.username}/join`);
  await page.getByRole('link', { name: 'Join for £20.00 a year' }).first().click();
  const username = uniqueName('pounds');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email address').fill(`${username}@example.com`);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.getByRole('region', { name: 'Your order' })).toContainText('£20.00');
  await fillCard(page);
  await page.getByRole('button', { name: 'Pay £20.00' }).click();
  await expect(page).toHaveURL(`/${band.username}/subscribe/success`);
  await expect(page.getByText(/^You paid £20\.00 · renews on /)).toBeVisible();
  const receipt = await mailFromOutbox(`${username}@example.com`, /receipt/);
  expect(receipt.text).toContain('£20.00');
  expect(receipt.text).not.toContain('$');

  // Once a fan has paid, the currency stays: the profile shows it, not a choice.
  await studio.reload();
  await expect(studio.getByLabel('Currency')).toHaveCount(0);
  await expect(studio.getByText('Fans have paid in it, so it stays')).toBeVisible();
  await artistContext.close();
  await fanContext.close();
});

test('promo codes page: make a code (a bad date refused on its field), pause it (the payment page says so), resume, expire', async ({
  browser,
  request,
}) => {
  const band = await newArtist(request, '20.00', 'gbp');
  const context = await signedIn(browser, band.token, { width: 375 });
  const page = await context.newPage();
  await page.goto(`/${band.username}/account`);
  await page.getByRole('link', { name: /^Promo codes/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Promo codes' })).toBeVisible();
  await expectNoA11yViolations(page);
  await page.getByRole('textbox', { name: 'Code', exact: true }).fill('SUMMER');
  await page.getByLabel('Discount').selectOption('amount');
  await page.getByLabel('How much off').fill('5');
  await page.getByLabel('Last day (optional)').fill('31/02/2030');
  await page.getByRole('button', { name: 'Make the code' }).click();
  await expect(page.getByLabel('Last day (optional)')).toHaveAccessibleDescription('Please enter the date in DD/MM/YYYY format.');
  await page.getByLabel('Last day (optional)').fill('31/12/2099');
  await page.getByLabel('Most uses (optional)').fill('10');
  await page.getByRole('button', { name: 'Make the code' }).click();
  await expect(page.getByRole('status')).toHaveText('SUMMER is ready: share its link.');
  const card = page.getByRole('article', { name: 'SUMMER' });
  await expect(card).toContainText('£5.00 off the first year · until Dec 31, 2099 · used 0 of 10 times');
  await card.getByRole('button', { name: 'Pause SUMMER' }).click();
  await expect(page.getByRole('status')).toHaveText('SUMMER is paused: fans cannot use it until you resume it.');
  await expect(page.getByRole('article', { name: 'SUMMER' })).toContainText('Paused');

  const fan = await registerFan(request);
  const fanContext = await signedIn(browser, fan.token);
  const payment = await fanContext.newPage();
  await payment.goto(`/${band.username}/subscribe/payment?promo=SUMMER`);
  await expect(payment.getByText('This promo code is paused by the artist at the moment.')).toBeVisible();

  await page.getByRole('button', { name: 'Resume SUMMER' }).click();
  await expect(page.getByRole('status')).toHaveText('SUMMER works again.');
  await payment.reload();
  await expect(payment.getByRole('region', { name: 'Your order' })).toContainText('£15.00');
  await page.getByRole('button', { name: 'Expire now SUMMER' }).click();
  await expect(page.getByRole('status')).toHaveText('SUMMER has expired: it no longer works.');
  await expect(page.getByRole('article', { name: 'SUMMER' })).toContainText('Expired');
  await expectNoA11yViolations(page);
  await context.close();
  await fanContext.close();
});

test('a free trial: the payment page offers it, takes the card and charges nothing; the success page says until when', async ({
  browser,
  request,
}) => {
  const band = await newArtist(request, '30.00', 'eur');
  await apiCall(request, 'PUT', '/performers/me', {
    token: band.token,
    data: { name: 'Trial Band', yearlyPrice: '30.00', trialDays: '14' },
  });
  const fan = await registerFan(request);
  const context = await signedIn(browser, fan.token);
  const page = await context.newPage();
  await page.goto(`/${band.username}/subscribe/payment`);
  await expect(page.getByRole('region', { name: 'Your order' })).toContainText('Free for 14 days');
  await expect(page.getByRole('region', { name: 'Your order' })).toContainText('€30.00');
  await expectNoA11yViolations(page);
  await fillCard(page);
  await page.getByRole('button', { name: 'Start your 14-day free trial' }).click();
  await expect(page).toHaveURL(`/${band.username}/subscribe/success`);
  await expect(page.getByText(/^Free until .+, then €30\.00 a year$/)).toBeVisible();
  await page.goto(`/${band.username}/account`);
  await expect(page.getByRole('button', { name: 'Cancel free trial' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel free trial' }).click();
  await expect(page.getByText('You cancelled your free trial')).toBeVisible();
  await context.close();
});

test('an artist cannot buy a gift of another club: the gift page says why instead of a form', async ({ browser, request }) => {
  const band: MoneyArtist = await newArtist(request, '25.00', 'gbp');
  const other: MoneyArtist = await newArtist(request, '10.00', 'gbp');
  const context = await signedIn(browser, other.token);
  const page = await context.newPage();
  await page.goto(`/${band.username}/gift`);
  await expect(page.getByText(giftMessages.artistBuyer)).toBeVisible();
  await expect(page.getByLabel('Their email address')).toHaveCount(0);
  await context.close();
});

test('a gift: a fan buys a year for an email; the mail’s link lets someone without an account make one and be a member', async ({
  browser,
  request,
}) => {
  const band: MoneyArtist = await newArtist(request, '25.00', 'gbp');
  const buyer = await registerFan(request);
  const context = await signedIn(browser, buyer.token);
  const page = await context.newPage();
  await page.goto(`/${band.username}/join`);
  await page.getByRole('link', { name: 'Give a year as a gift' }).click();
  await expect(page).toHaveURL(`/${band.username}/gift`);
  await expectNoA11yViolations(page);
  const friend = uniqueName('friend');
  await page.getByLabel('Their email address').fill(`${friend}@example.com`);
  await page.getByLabel('A message (optional)').fill('See you at the show!');
  await fillCard(page);
  await page.getByRole('button', { name: 'Pay £25.00' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your gift is on its way' })).toBeVisible();
  await expect(page.getByText(`${friend}@example.com gets a mail now`)).toBeVisible();

  const mail = await mailFromOutbox(`${friend}@example.com`, /gave you a year/);
  expect(mail.text).toContain('See you at the show!');
  const link = new URL(/https?:\/\/\S+\/gift\/[\w-]+/.exec(mail.text)![0]);
  const stranger = await browser.newContext({ viewport: { width: 375, height: 800 } });
  const open = await stranger.newPage();
  await open.goto(link.pathname);
  await expect(open.getByRole('heading', { level: 1, name: 'A gift for you' })).toBeVisible();
  await expect(open.getByLabel('Email address')).toHaveValue(`${friend}@example.com`);
  await expectNoA11yViolations(open);
  await open.getByLabel('Username').fill(friend);
  await open.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await open.getByRole('button', { name: 'Create account and open your gift' }).click();
  await expect(open).toHaveURL(`/${band.username}`);
  await open.goto(`/${band.username}/account`);
  await expect(open.getByText(/Your gift membership ends on .+\. It never renews by itself/)).toBeVisible();
  // The link, opened again, says it is theirs.
  await open.goto(link.pathname);
  await expect(open.getByText('You have opened this gift: the year is yours.')).toBeVisible();
  await context.close();
  await stranger.close();
});

test('payouts: the artist sets up a payout account from the earnings page (the test gateway’s onboarding) and comes back to it on', async ({
  browser,
  request,
}) => {
  const band = await newArtist(request, '20.00', 'gbp');
  await payingFan(request, band);
  const context = await signedIn(browser, band.token);
  const page = await context.newPage();
  await page.goto(`/${band.username}/account/earnings`);
  await expect(page.getByText('Held until payouts are set up')).toBeVisible();
  await page.getByRole('button', { name: 'Set up payouts' }).click();
  await expect(page.getByRole('heading', { name: 'Set up payouts' })).toBeVisible();
  await page.getByRole('button', { name: 'Finish setting up payouts' }).click();
  await expect(page).toHaveURL(`/${band.username}/account/earnings?payouts=return`);
  await expect(page.getByRole('status')).toHaveText('Payouts are set up.');
  await expect(page.getByRole('heading', { name: 'Payouts are on' })).toBeVisible();
  // A payment from now on goes to the payout account, less the fee.
  await payingFan(request, band);
  await page.goto(`/${band.username}/account/earnings`);
  await expect(page.getByText('To your payout account', { exact: true })).toHaveCount(1);
  await expect(page.getByText('Held until payouts are set up', { exact: true })).toHaveCount(1);
  await context.close();
});
