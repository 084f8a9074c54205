import { expect, test, type Page } from '@playwright/test';
import { expectNoA11yViolations, registerFan } from './helpers';
import { apiCall, newArtist, signedIn } from './money-world';

/**
 * Art and empty states: a vault item without a picture gets artwork drawn from its title and category
 * (different per item, the same each time); the cover never sits under the avatar; the join page shows the artwork
 * and the name once; a small club's subscriber count is not shown. At 375 and 1280 px.
 */
async function artOf(page: Page) {
  const tiles = page.locator('main li').filter({ has: page.locator('svg[aria-hidden="true"] rect[fill^="url("]') });
  return tiles.locator('svg').evaluateAll((svgs) => svgs.map((svg) => svg.innerHTML));
}

for (const width of [375, 1280]) {
  test(`at ${width} px: drawn artwork per item, the cover clear of the avatar, a small club's count hidden`, async ({
    browser,
    request,
  }) => {
    const artist = await newArtist(request, '0.00');
    for (const [title, tags] of [
      ['First voice note', 'voicenote'],
      ['Second voice note', 'voicenote'],
      ['Glasshouse demo', 'demo'],
    ]) {
      await apiCall(request, 'POST', '/content', { token: artist.token, data: { title, content: 'Words', tags } });
    }
    const fan = await registerFan(request);
    await apiCall(request, 'POST', '/payment/subscribe/performers', { token: fan.token, data: { type: 'free', performerId: artist.id } });
    const context = await signedIn(browser, fan.token, { width });
    const page = await context.newPage();

    await page.goto(`/${artist.username}/vault`);
    const art = await artOf(page);
    expect(art).toHaveLength(3);
    expect(new Set(art).size).toBe(3);
    await page.reload();
    expect(await artOf(page)).toEqual(art);
    await expectNoA11yViolations(page);

    await page.goto(`/${artist.username}`);
    const cover = (await page.locator('main header img').first().boundingBox())!;
    const avatar = (await page.locator('main header img').nth(1).boundingBox())!;
    expect(avatar.y).toBeGreaterThanOrEqual(cover.y + cover.height);
    await expect(page.getByText(/subscribers?$/)).toHaveCount(0);
    await context.close();

    const visitor = await browser.newContext({ viewport: { width, height: 900 } });
    const join = await visitor.newPage();
    await join.goto(`/${artist.username}/join`);
    const main = join.getByRole('main');
    await expect(main.getByText(/^Band /)).toHaveCount(1);
    await expect(main.getByText(/subscribers?$/)).toHaveCount(0);
    await expectNoA11yViolations(join);
    await visitor.close();
  });
}

test('a club of ten or more shows its subscriber count', async ({ browser, request }) => {
  const artist = await newArtist(request, '0.00');
  const fans = await Promise.all(Array.from({ length: 10 }, () => registerFan(request)));
  for (const fan of fans) {
    await apiCall(request, 'POST', '/payment/subscribe/performers', { token: fan.token, data: { type: 'free', performerId: artist.id } });
  }
  const context = await signedIn(browser, fans[0].token);
  const page = await context.newPage();
  await page.goto(`/${artist.username}`);
  await expect(page.getByText(/10 subscribers$/)).toBeVisible();
  await context.close();
});
