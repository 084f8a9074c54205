import { expect, test, type Page } from '@playwright/test';
import { expectNoA11yViolations } from './helpers';
import { apiCall, newArtist, payingFan, signedIn } from './money-world';

/**
 * A fan's memberships across clubs (docs/payments.md "The fan's memberships"): from any page, the account
 * menu's "Memberships" (two taps) shows every club with its renewal date, its price in the club's currency and its
 * receipts, and cancels or resumes the renewal, with JavaScript on (375 px) and off (1280 px).
 */
async function openMenu(page: Page, js: boolean) {
  if (js) await page.getByRole('button', { name: /Logged in as/ }).click();
  else await page.locator('summary').filter({ hasText: 'Logged in as' }).click();
}

for (const { js, width } of [
  { js: true, width: 375 },
  { js: false, width: 1280 },
]) {
  test(`JavaScript ${js ? 'on' : 'off'}, ${width} px: a fan reaches cancel from any page in two taps`, async ({ browser, request }) => {
    const [pounds, euros] = await Promise.all([newArtist(request, '29.99', 'gbp'), newArtist(request, '12.00', 'eur')]);
    const fan = await payingFan(request, pounds);
    const card = await apiCall<{ id: string }>(request, 'POST', '/payment/test-gateway/cards', {
      token: fan.token,
      data: { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' },
    });
    await apiCall(request, 'POST', '/payment/subscribe/performers', {
      token: fan.token,
      data: { type: 'yearly', performerId: euros.id, paymentGateway: 'test', cardId: card.id },
    });
    const context = await signedIn(browser, fan.token, { javaScriptEnabled: js, width });
    const page = await context.newPage();

    for (const start of [`/${euros.username}/vault`, '/notifications']) {
      await page.goto(start);
      await openMenu(page, js);
      await page.getByRole(js ? 'menuitem' : 'link', { name: 'Memberships' }).click();
      await expect(page).toHaveURL('/account/memberships');
      await expect(page.getByRole('button', { name: /Cancel renewal of Band/ })).toHaveCount(2);
    }
    await expectNoA11yViolations(page);

    // Both clubs' names begin alike (made the same moment): each card is found by its own price.
    const club = page.getByRole('region').filter({ hasText: '£29.99 a year' });
    await expect(club.getByText('Renews on', { exact: true })).toBeVisible();
    await expect(club.getByText('£29.99 a year', { exact: true })).toBeVisible();
    await expect(club.getByRole('list', { name: /Receipts for/ })).toContainText('First year');
    await expect(club.getByRole('list', { name: /Receipts for/ })).toContainText('£29.99');
    await expect(
      page
        .getByRole('region')
        .filter({ hasText: '€12.00 a year' })
        .getByRole('button', { name: /Cancel renewal/ }),
    ).toBeVisible();

    await club.getByRole('button', { name: /Cancel renewal/ }).click();
    await expect(club.getByRole('status')).toHaveText('Your membership will not renew.');
    await expect(club.getByText('Ends on', { exact: true })).toBeVisible();
    await expectNoA11yViolations(page);
    await club.getByRole('button', { name: /Resume renewal/ }).click();
    await expect(club.getByRole('status')).toHaveText('Your membership renews again.');
    await expect(club.getByText('Renews on', { exact: true })).toBeVisible();
    await context.close();
  });
}
