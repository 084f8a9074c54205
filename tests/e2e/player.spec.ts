import { expect, test } from '@playwright/test';
import { expectNoA11yViolations } from './helpers';
import { createItem, uploadAudio, type Item } from './listening-world';
import { newArtist, payingFan, signedIn, type MoneyArtist } from './money-world';

/**
 * The player in the layout, in Chromium against the built app: "Play all" in the vault queues the tracks, the music
 * keeps playing across client-side navigations (posts, bookmarks, messages) with the mini-player at the foot of the
 * page, the queue moves on to the next track, the lock screen is told what plays (Media Session), and a track opens
 * again where the fan left it.
 */

let artist: MoneyArtist;
let first: Item;
let second: Item;

test.beforeAll(async ({ request }) => {
  artist = await newArtist(request, '4.99', 'usd');
  const [short, long] = await Promise.all([uploadAudio(request, artist, 4), uploadAudio(request, artist, 60)]);
  second = await createItem(request, artist, { title: 'Second: the long take', tags: 'demo', mediaId: long });
  first = await createItem(request, artist, { title: 'First: a short sketch', tags: 'voicenote', mediaId: short });
});

test('Play all keeps playing across three client-side navigations, and the queue moves on', async ({ browser, request }) => {
  const fan = await payingFan(request, artist);
  const context = await signedIn(browser, fan.token);
  const page = await context.newPage();
  await page.goto(`/${artist.username}/vault`);
  await expect(page.getByRole('banner').locator('details')).toHaveCount(0);
  const documents: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documents.push(request.url());
  });

  await page.getByRole('button', { name: 'Play all (2 tracks)' }).click();
  const player = page.getByRole('region', { name: 'Player' });
  await expect(player.getByRole('link', { name: first.title })).toBeVisible();
  await expect(player).toContainText('1 of 2');
  await expect(player.getByRole('button', { name: `Pause ${first.title}` })).toBeVisible();
  // The lock screen and the headset are told what plays.
  expect(await page.evaluate(() => navigator.mediaSession.metadata?.title)).toBe(first.title);
  await expectNoA11yViolations(page);

  const nav = page.getByRole('navigation', { name: 'Fan club' });
  await nav.getByRole('link', { name: 'Posts' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Posts' })).toBeVisible();
  await expect(player).toBeVisible();
  await nav.getByRole('link', { name: 'Bookmarks' }).click();
  await expect(page).toHaveURL(`/${artist.username}/account/bookmarks`);
  await expect(player).toBeVisible();
  await page
    .getByRole('banner')
    .getByRole('link', { name: /^Messages/ })
    .click();
  await expect(page).toHaveURL(/\/messages/);

  // Still playing, and on to the second track when the first ends.
  await expect(player.getByRole('link', { name: second.title })).toBeVisible({ timeout: 15_000 });
  await expect(player).toContainText('2 of 2');
  await expect(player.getByRole('button', { name: `Pause ${second.title}` })).toBeVisible();
  const slider = player.getByRole('slider', { name: `Seek in ${second.title}` });
  await expect.poll(async () => Number(await slider.inputValue())).toBeGreaterThan(0);
  expect(await page.evaluate(() => navigator.mediaSession.metadata?.title)).toBe(second.title);
  expect(documents).toEqual([]);

  // Space pauses when nothing has the focus.
  await page.locator('body').focus();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Space');
  await expect(player.getByRole('button', { name: `Play ${second.title}` })).toBeVisible();
  await context.close();
});

test('a track opens again where the fan left it', async ({ browser, request }) => {
  const fan = await payingFan(request, artist);
  const context = await signedIn(browser, fan.token);
  const page = await context.newPage();
  await page.goto(`/${artist.username}/vault/${second._id}?type=audio`);
  await page.getByRole('button', { name: `Play ${second.title}` }).click();
  const player = page.getByRole('region', { name: 'Player' });
  const slider = player.getByRole('slider', { name: `Seek in ${second.title}` });
  await slider.fill('30');
  await expect.poll(async () => Number(await slider.inputValue())).toBeGreaterThanOrEqual(30);
  await player.getByRole('button', { name: `Pause ${second.title}` }).click();

  await page.reload();
  await page.getByRole('button', { name: `Play ${second.title}` }).click();
  await expect.poll(async () => Number(await slider.inputValue())).toBeGreaterThanOrEqual(30);
  await context.close();
});
