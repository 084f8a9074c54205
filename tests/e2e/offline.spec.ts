import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { expectNoA11yViolations, webBase } from './helpers';
import { createItem, endMembership, uploadAudio, type Item } from './listening-world';
import { apiCall, newArtist, payingFan, signedIn, type MoneyArtist } from './money-world';

/**
 * Offline listening (issue 21, docs/listening.md "Offline"), in Chromium against the built app: the service worker
 * installs, a saved track plays with the network off from the page shown instead of the browser's error, and a track
 * the fan lost access to (a refund; a membership that ended, for an item published before they paid) is gone once the
 * app is online again, while one that is theirs to keep stays.
 */

let artist: MoneyArtist;

test.beforeAll(async ({ request }) => {
  artist = await newArtist(request, '4.99', 'usd');
});

async function newTrack(request: Parameters<typeof uploadAudio>[0], title: string) {
  const audio = await uploadAudio(request, artist, 12);
  return createItem(request, artist, { title, tags: 'demo', mediaId: audio });
}

/**
 * The service worker of the whole site, installed and running this page. Its `clients.claim()` takes the pages open
 * when it activates: a page whose request left before the worker was active and whose document arrived after the
 * claim is not among them, and stays uncontrolled until it loads again (as a fan's next page would be controlled).
 */
async function untilWorkerControls(page: Page) {
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration('/'))?.active?.state ?? 'none'))
    .toBe('activated');
  const controller = () => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null);
  if (!(await controller())) await page.reload();
  await expect.poll(controller).toBe(`${webBase}/sw.js`);
}

async function saveForOffline(page: Page, item: Item) {
  await page.goto(`/${artist.username}/vault/${item._id}?type=audio`);
  await expect(page.getByRole('heading', { level: 1, name: item.title })).toBeVisible();
  await untilWorkerControls(page);
  await page.getByRole('button', { name: 'Save for offline' }).click();
  await expect(page.getByText('Saved for offline', { exact: true })).toBeVisible();
}

/** The saved tracks the offline page lists, by their titles. */
const savedTitles = (page: Page) => page.getByRole('list', { name: 'Saved tracks' }).getByRole('heading', { level: 2 });

/** Plays a saved track from the offline page and waits until its time moves. */
async function playsFromTheOfflinePage(page: Page, item: Item) {
  // A click on the page is the user's gesture that lets it play sound.
  await page.getByRole('heading', { level: 1, name: 'Saved for offline' }).click();
  const audio = page.getByLabel(`Play ${item.title}`);
  await audio.evaluate((element: HTMLAudioElement) => element.play());
  await expect.poll(() => audio.evaluate((element: HTMLAudioElement) => element.currentTime)).toBeGreaterThan(0.5);
  // It came from the worker's cache, seeking included (a Range request the worker answers from the saved file).
  await audio.evaluate((element: HTMLAudioElement) => (element.currentTime = 8));
  await expect.poll(() => audio.evaluate((element: HTMLAudioElement) => element.currentTime)).toBeGreaterThan(8.2);
  await audio.evaluate((element: HTMLAudioElement) => element.pause());
}

async function offlineStoreKeys(page: Page) {
  return page.evaluate(async () => (await (await caches.open('stagedoor-offline')).keys()).map((request) => new URL(request.url).pathname));
}

async function goOnlineAndOpenSaved(context: BrowserContext, page: Page) {
  await context.setOffline(false);
  await page.goto('/offline');
  await expect(page.locator('body[data-ready="true"]')).toBeAttached();
}

test('the worker installs, a saved track plays with the network off, and is gone once online after a refund', async ({
  browser,
  request,
}) => {
  const track = await newTrack(request, 'Lighthouse demo');
  const deleted = await newTrack(request, 'Demo the artist takes back');
  const fan = await payingFan(request, artist);
  const context = await signedIn(browser, fan.token);
  const page = await context.newPage();

  // Installable: the manifest the pages link.
  await page.goto(`/${artist.username}`);
  const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
  const manifest = (await (await request.get(`${webBase}${manifestHref}`)).json()) as Record<string, unknown>;
  expect(manifest).toMatchObject({ name: 'Stagedoor', start_url: '/', display: 'standalone' });

  await saveForOffline(page, track);
  expect(await offlineStoreKeys(page)).toEqual(expect.arrayContaining([`/offline/audio/${track._id}`, `/offline/tracks/${track._id}`]));

  await saveForOffline(page, deleted);

  // Online, the offline page checks with the api first: the fan may still open both, so they stay.
  await goOnlineAndOpenSaved(context, page);
  await expect(savedTitles(page)).toHaveText([deleted.title, track.title]);
  await expectNoA11yViolations(page);
  // The artist deletes one: it goes at the next check.
  await apiCall(request, 'DELETE', `/content/${deleted._id}`, { token: artist.token });
  await goOnlineAndOpenSaved(context, page);
  await expect(savedTitles(page)).toHaveText([track.title]);

  // No network: a client-side navigation (Remix's data request fails) reloads into the offline page…
  await page.goto(`/${artist.username}/vault`);
  await page.getByRole('link', { name: track.title }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: track.title })).toBeVisible();
  await context.setOffline(true);
  await page.getByRole('link', { name: 'Back to the vault' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Saved for offline' })).toBeVisible();
  await expect(page).toHaveURL(/\/offline$/);
  // …and so does any page loaded, where the track plays.
  await page.goto(`/${artist.username}/vault`);
  await expect(page.getByRole('heading', { level: 1, name: 'Saved for offline' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText('You’re offline. Your saved tracks still play.');
  await expect(savedTitles(page)).toHaveText([track.title]);
  await playsFromTheOfflinePage(page, track);

  // The artist refunds the fan in full: their access ends, and with it the saved copy once the app is online.
  const refund = await apiCall<{ endedAccess: boolean }>(request, 'POST', `/payments/${fan.paymentId}/refund`, {
    token: artist.token,
    data: { reason: 'Asked for it back' },
  });
  expect(refund.endedAccess).toBe(true);
  await goOnlineAndOpenSaved(context, page);
  await expect(page.getByText('No tracks are saved in this browser.', { exact: false })).toBeVisible();
  await expect(savedTitles(page)).toHaveCount(0);
  expect(await offlineStoreKeys(page)).toEqual([]);
  await context.close();
});

test('a membership that ended keeps the saved tracks published while the fan paid, and drops older ones', async ({ browser, request }) => {
  const before = await newTrack(request, 'Published before you joined');
  const fan = await payingFan(request, artist);
  const during = await newTrack(request, 'Published while you paid');
  const context = await signedIn(browser, fan.token);
  const page = await context.newPage();
  await saveForOffline(page, before);
  await saveForOffline(page, during);

  await endMembership(request, artist, fan.email);
  await goOnlineAndOpenSaved(context, page);
  await expect(savedTitles(page)).toHaveText([during.title]);

  // Still playable with no network.
  await context.setOffline(true);
  await page.goto(`/${artist.username}/vault/${during._id}?type=audio`);
  await expect(page.getByRole('heading', { level: 1, name: 'Saved for offline' })).toBeVisible();
  await playsFromTheOfflinePage(page, during);
  await context.close();
});

test('logging out deletes the saved tracks; lite mode shows no button and registers no worker', async ({ browser, request }) => {
  const track = await newTrack(request, 'Ferry voice memo');
  const fan = await payingFan(request, artist);
  const context = await signedIn(browser, fan.token);
  const page = await context.newPage();
  await saveForOffline(page, track);
  expect(await offlineStoreKeys(page)).toHaveLength(2);

  await page.getByRole('button', { name: `Logged in as ${fan.username}` }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect.poll(() => offlineStoreKeys(page)).toEqual([]);
  await context.close();

  // A fan whose browser asks to save data (Save-Data: on): lite mode.
  const liteFan = await payingFan(request, artist);
  const lite = await signedIn(browser, liteFan.token);
  await lite.setExtraHTTPHeaders({ 'Save-Data': 'on' });
  const litePage = await lite.newPage();
  await litePage.goto(`/${artist.username}/vault/${track._id}?type=audio`);
  await expect(litePage.getByRole('heading', { level: 1, name: track.title })).toBeVisible();
  await expect(litePage.getByRole('button', { name: 'Save for offline' })).toHaveCount(0);
  await expect(litePage.locator('link[rel="manifest"]')).toHaveCount(0);
  expect(await litePage.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
  await lite.close();
});
