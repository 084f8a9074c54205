import { expect, test } from '@playwright/test';
import { expectNoA11yViolations } from './helpers';
import { newArtist, newPromo, payingFan, signedIn, type MoneyArtist } from './money-world';

/**
 * The artist's earnings page in Chromium against the built app (test gateway): reached from the studio, its
 * figures against a ledger this test builds (three payments in pounds, one with a 25% promo, then a refund made on
 * the page), the chart's table without JavaScript, a refund keeping access without JavaScript, and the CSV export.
 */

let artist: MoneyArtist;
let promoFan: { email: string; paymentId: string };
let plainFan: { email: string; paymentId: string; token: string };

const month = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date());

test.beforeAll(async ({ request }) => {
  artist = await newArtist(request, '20.00', 'gbp');
  await newPromo(request, artist.username, 'SPRING25', 25);
  plainFan = await payingFan(request, artist);
  promoFan = await payingFan(request, artist, 'SPRING25');
  await payingFan(request, artist);
});

test('the artist reaches the earnings page from the studio and refunds part of a payment; the figures follow the ledger', async ({
  browser,
}) => {
  const context = await signedIn(browser, artist.token);
  const page = await context.newPage();
  await page.goto(`/${artist.username}/account`);
  await page.getByRole('link', { name: /^Earnings/ }).click();
  await expect(page).toHaveURL(`/${artist.username}/account/earnings`);
  await expect(page.getByRole('heading', { level: 1, name: 'Earnings' })).toBeVisible();
  await expectNoA11yViolations(page);

  // Ledger: £20 + £20 + £15 (25% off) = £55 gross; the platform's 10% = £5.50; nothing refunded yet.
  const figures = page.locator('dl').first();
  await expect(figures.getByText('Members now')).toBeVisible();
  await expect(figures).toContainText('3');
  await expect(figures).toContainText('£55.00');
  await expect(figures).toContainText('£49.50');
  const payments = page.locator('section[aria-labelledby="payments-title"]');
  await expect(payments.getByText(`${promoFan.email} · First year`)).toContainText('promo SPRING25');

  // Refund £5 of the first fan's payment, with a reason; the fan keeps access (a partial refund).
  const row = payments.locator('li').filter({ hasText: plainFan.email });
  await row.locator('summary').click();
  await row.getByLabel('Amount (GBP)').fill('5');
  await row.getByLabel('Reason (the fan sees it)').fill('Missed the livestream');
  await row.getByRole('button', { name: 'Refund' }).click();
  await expect(page.getByRole('status')).toHaveText('Refunded £5.00. The fan has been told by mail.');
  await expect(payments.locator('li').filter({ hasText: plainFan.email })).toContainText('Partly refunded (£5.00 back)');

  // This month's row: gross £55, refunds £5, fees £5.50 less the £0.50 the refund gave back, net £45.
  const table = page.getByRole('table');
  await expect(table.getByRole('row', { name: new RegExp(`^${month}`) })).toHaveText(
    new RegExp(`${month}\\s*3\\s*0\\s*.*£55\\.00\\s*−£5\\.00\\s*−£5\\.00\\s*£45\\.00`),
  );
  await expect(figures).toContainText('£45.00');

  // Too much is refused on its field, and nothing changes.
  const again = payments.locator('li').filter({ hasText: plainFan.email });
  await again.locator('summary').click();
  await again.getByLabel('Amount (GBP)').fill('50');
  await again.getByLabel('Reason (the fan sees it)').fill('Too much');
  await again.getByRole('button', { name: 'Refund' }).click();
  await expect(again.getByLabel('Amount (GBP)')).toHaveAccessibleDescription('You can refund at most £15.00 of this payment.');
  await expectNoA11yViolations(page);
  await context.close();
});

test('without JavaScript: the chart is a table of the 12 months, a full refund keeping access works, and the CSV downloads', async ({
  browser,
}) => {
  const context = await signedIn(browser, artist.token, { javaScriptEnabled: false, width: 375 });
  const page = await context.newPage();
  await page.goto(`/${artist.username}/account/earnings`);
  const table = page.getByRole('table');
  await expect(table.getByRole('columnheader')).toHaveText(['Month', 'Joined', 'Left', 'Churn', 'Gross', 'Refunds', 'Fees', 'Net']);
  // Twelve months, this one last.
  await expect(table.getByRole('rowheader')).toHaveCount(12);
  await expect(table.getByRole('rowheader').last()).toHaveText(month);
  await expect(table.getByRole('row').last()).toContainText('£55.00');
  // The drawing itself is hidden from screen readers: the table is what they read.
  await expect(page.locator('figure svg')).toHaveAttribute('aria-hidden', 'true');
  await expectNoA11yViolations(page);

  const row = page.locator('li').filter({ hasText: promoFan.email });
  await row.locator('summary').click();
  await row.getByLabel('Reason (the fan sees it)').fill('On the house');
  await row.getByLabel('Keep the fan’s access after a full refund').check();
  await row.getByRole('button', { name: 'Refund' }).click();
  await expect(page.getByRole('status')).toHaveText('Refunded £15.00. The fan has been told by mail.');
  await expect(page.locator('li').filter({ hasText: promoFan.email })).toContainText('Refunded');

  const csv = await page.request.get(`/${artist.username}/account/earnings.csv`);
  expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8');
  expect(csv.headers()['content-disposition']).toBe(`attachment; filename="${artist.username}-payments.csv"`);
  const lines = (await csv.text()).trim().split('\r\n');
  expect(lines[0]).toBe('date,fan_username,fan_name,fan_email,kind,currency,amount,refunded,fee,net,promo,state,payout');
  expect(lines).toHaveLength(4);
  expect(lines.find((line) => line.includes(promoFan.email))).toMatch(/,subscribe,GBP,15\.00,15\.00,0\.00,0\.00,SPRING25,refunded,held$/);
  await context.close();
});
