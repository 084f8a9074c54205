import { expect, test } from '@playwright/test';
import { apiBase, expectNoA11yViolations, logIn, signIn } from './helpers';

/**
 * The artist's profile and offer form on the account page, without JavaScript: the browser lets it through with
 * the optional fields left as they are (the welcome-video switch off, no perks required), and the perks textarea
 * is read one perk a line. The artist's profile is put back afterwards.
 */
const ARTIST = { email: 'juniper@stagedoor.test', password: 'Stagedoor-artist-2026!', username: 'juniperlane' };

test('an artist saves the profile without JavaScript: one perk a line, the welcome video off', async ({ browser, baseURL, request }) => {
  const token = await logIn(request, ARTIST.email, ARTIST.password);
  const auth = { Authorization: `Bearer ${token}` };
  const readProfile = async () =>
    ((await (await request.get(`${apiBase}/performers/${ARTIST.username}`, { headers: auth })).json()) as { data: Record<string, unknown> })
      .data;
  const before = await readProfile();

  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  await signIn(context, token);
  const page = await context.newPage();
  try {
    await page.goto(`/${ARTIST.username}/account`);
    await expectNoA11yViolations(page);
    await page.getByLabel('Perks, one a line').fill('Early tickets\nDemos before anyone else');
    await page.getByRole('checkbox', { name: 'Show my welcome video to members' }).uncheck();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status')).toHaveText('Saved. Fans see the changes now.');
    await expectNoA11yViolations(page);
    const after = await readProfile();
    expect(after.subscriptionPerks).toEqual(['Early tickets', 'Demos before anyone else']);
    expect(after.activateWelcomeVideo).toBe(false);
  } finally {
    await context.close();
    const put = await request.put(`${apiBase}/performers/me`, {
      headers: auth,
      data: {
        name: before.name,
        bio: before.bio ?? '',
        yearlyPrice: before.yearlyPrice,
        headlineOfferDescription: before.headlineOfferDescription ?? '',
        subscriptionPerks: before.subscriptionPerks ?? [],
        successPageTitle: before.successPageTitle ?? '',
        secondarySuccessMessage: before.secondarySuccessMessage ?? '',
        additionalSuccessMessage: before.additionalSuccessMessage ?? '',
        heroImageAltText: before.heroImageAltText ?? '',
        headlineImageAltText: before.headlineImageAltText ?? '',
        activateWelcomeVideo: before.activateWelcomeVideo ?? false,
      },
    });
    expect(put.status(), await put.text()).toBe(200);
  }
});
