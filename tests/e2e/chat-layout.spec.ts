import { expect, test } from '@playwright/test';
import { expectNoA11yViolations, registerFan } from './helpers';
import { apiCall, newArtist, signedIn } from './money-world';

/**
 * The conversation page's layout: the composer stays pinned at the foot of the window while the messages
 * scroll, no site footer sits under the conversation, and the header shows the artist's whole name, at 375 and 1280 px.
 */
const LONG_NAME = 'The Extraordinarily Long Named Midnight Orchestra';

for (const width of [375, 1280]) {
  test(`at ${width} px the composer is pinned, there is no footer, and the name is whole`, async ({ browser, request }) => {
    const artist = await newArtist(request, '0.00');
    await apiCall(request, 'PUT', '/performers/me', { token: artist.token, data: { name: LONG_NAME, yearlyPrice: '0.00' } });
    const fan = await registerFan(request);
    await apiCall(request, 'POST', '/payment/subscribe/performers', { token: fan.token, data: { type: 'free', performerId: artist.id } });
    const conversation = await apiCall<{ _id: string }>(request, 'POST', '/conversations', {
      token: fan.token,
      data: { source: 'performer', sourceId: artist.id },
    });
    for (let i = 1; i <= 12; i++) {
      await apiCall(request, 'POST', `/messages/conversations/${conversation._id}`, {
        token: fan.token,
        data: { text: `Message ${i}: a long enough line to fill the screen with a few of them, one after another.` },
      });
    }
    const context = await signedIn(browser, fan.token, { width });
    const page = await context.newPage();
    await page.goto(`/${artist.username}/account/messages/${conversation._id}?username=${artist.username}`);

    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toHaveText(LONG_NAME);
    // Whole: not cut off with an ellipsis, nor wider than its box.
    expect(await heading.evaluate((h) => h.scrollWidth <= h.clientWidth && getComputedStyle(h).textOverflow !== 'ellipsis')).toBe(true);
    const box = (await heading.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(width);

    await expect(page.getByRole('contentinfo')).toHaveCount(0);
    const composer = page.getByRole('textbox', { name: 'Message' });
    await expect(composer).toBeInViewport();
    // Scrolled to the oldest message, the composer is still at the foot of the window.
    await page.getByText('Message 1:').scrollIntoViewIfNeeded();
    await expect(composer).toBeInViewport();
    const viewport = page.viewportSize()!;
    const send = (await page.getByRole('button', { name: 'Send' }).boundingBox())!;
    expect(send.y + send.height).toBeLessThanOrEqual(viewport.height);
    await expectNoA11yViolations(page);
    await context.close();
  });
}
