import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { OFFLINE_CHECK_LIMIT, OFFLINE_CHECKS_PER_USER, offlineMessages } from '#contract/offline';
import { expectNoA11yViolations, webBase } from './helpers';
import { createItem, endMembership, uploadAudio, type Item } from './listening-world';
import { apiCall, newArtist, payingFan, signedIn, type MoneyArtist } from './money-world';

/**
 * Offline listening (docs/listening.md "Offline"), in Chromium against the built app: the service worker
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
  // Only the record of who is signed in stays (the same fan).
  expect(await offlineStoreKeys(page)).toEqual(['/offline/owner']);
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
  expect(await offlineStoreKeys(page)).toHaveLength(3);

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

test('a session that ended clears the saved tracks: the guards’ GET /logout, and the header alone without a worker', async ({
  browser,
  request,
}) => {
  const track = await newTrack(request, 'Tram stop sketch');
  const fan = await payingFan(request, artist);
  const context = await signedIn(browser, fan.token);
  const page = await context.newPage();
  await saveForOffline(page, track);
  expect(await offlineStoreKeys(page)).toHaveLength(3);

  // The session ends elsewhere (revoked on the api): the next page's guard sends the browser through GET /logout?next=….
  await apiCall(request, 'POST', '/auth/logout', { token: fan.token });
  await page.goto(`/${artist.username}/vault`);
  await expect(page).toHaveURL(/\/login\?next=/);
  await expect.poll(() => offlineStoreKeys(page)).toEqual([]);
  await context.close();

  // No worker and no script of ours: the browser itself clears the site's storage on the logout's Clear-Site-Data,
  // for the GET and for the form's plain POST as a browser without JavaScript sends it.
  for (const form of ['GET', 'POST'] as const) {
    const again = await payingFan(request, artist);
    const other = await signedIn(browser, again.token);
    const tab = await other.newPage();
    await saveForOffline(tab, track);
    await tab.evaluate(async () => {
      for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister();
    });
    await tab.close();
    const fresh = await other.newPage();
    await fresh.goto('/offline.js');
    expect(await fresh.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
    expect(await offlineStoreKeys(fresh)).toHaveLength(3);
    if (form === 'GET') {
      await fresh.goto('/logout?next=%2F');
    } else {
      await fresh.setContent(
        `<form method="post" action="${webBase}/logout"><input name="redirectTo" value="/"><button>Log out</button></form>`,
      );
      await Promise.all([fresh.waitForURL(`${webBase}/`), fresh.getByRole('button', { name: 'Log out' }).click()]);
    }
    await fresh.goto('/offline.js');
    expect(await offlineStoreKeys(fresh), form).toEqual([]);
    await other.close();
  }
});

test('another fan’s saved track is never listed nor played, offline either; the next fan’s check deletes it', async ({
  browser,
  request,
}) => {
  const mine = await newTrack(request, 'Mine to keep');
  const fan = await payingFan(request, artist);
  const context = await signedIn(browser, fan.token);
  const page = await context.newPage();
  await saveForOffline(page, mine);

  // A track another fan left in this browser (as a browser that ignores Clear-Site-Data might keep one): the same
  // audio under another item, saved by someone else.
  const foreign = { ...mine, _id: `${mine._id}-theirs`, title: 'Left by someone else' };
  await page.evaluate(
    async ({ id, theirs, title }) => {
      const cache = await caches.open('stagedoor-offline');
      const audio = await cache.match(`/offline/audio/${id}`);
      const entry = (await (await cache.match(`/offline/tracks/${id}`))!.json()) as Record<string, unknown>;
      await cache.put(`/offline/audio/${theirs}`, audio!);
      await cache.put(`/offline/tracks/${theirs}`, Response.json({ ...entry, itemId: theirs, title, userId: 'someone-else' }));
    },
    { id: mine._id, theirs: foreign._id, title: foreign.title },
  );

  await context.setOffline(true);
  await page.goto('/offline');
  await expect(page.locator('body[data-ready="true"]')).toBeAttached();
  await expect(savedTitles(page)).toHaveText([mine.title]);
  await playsFromTheOfflinePage(page, mine);
  // Its audio is not served by the worker, even asked for by its address.
  const served = (path: string) =>
    page.evaluate(
      (url) =>
        fetch(url).then(
          (response) => response.status,
          () => 'refused',
        ),
      path,
    );
  expect(await served(`/offline/audio/${foreign._id}`)).toBe('refused');
  expect(await served(`/offline/audio/${mine._id}`)).toBe(200);

  // The first fan's session ends without a logout (the cookie ran out) and another fan logs in on this browser: the
  // log-in makes the worker forget whose the tracks were.
  await context.setOffline(false);
  const next = await payingFan(request, artist);
  await context.clearCookies();
  await page.goto('/login');
  await page.getByLabel('Email address').fill(next.email);
  await page.getByLabel('Password', { exact: true }).fill(next.password);
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
  await expect(page.getByRole('button', { name: `Logged in as ${next.username}` })).toBeVisible();
  // Whose the tracks are is forgotten: offline, the new fan is shown none and can play none.
  await context.setOffline(true);
  await page.goto('/offline');
  await expect(page.getByText('No tracks are saved in this browser.', { exact: false })).toBeVisible();
  expect(await served(`/offline/audio/${mine._id}`)).toBe('refused');
  // Online, the check names the new fan and deletes the first fan's tracks.
  await goOnlineAndOpenSaved(context, page);
  await expect.poll(() => offlineStoreKeys(page)).toEqual(['/offline/owner']);
  await expect(page.getByText('No tracks are saved in this browser.', { exact: false })).toBeVisible();
  await context.close();
});

test('/offline/check refuses malformed, overlong and too many ids with a 400, and limits a fan who asks too often', async ({
  browser,
  request,
}) => {
  const ask = (ids: string[], via = request) => via.get(`${webBase}/offline/check?${new URLSearchParams(ids.map((id) => ['id', id]))}`);
  for (const [ids, message] of [
    [['a\u0000b'], offlineMessages.badId],
    [['x'.repeat(5000)], offlineMessages.badId],
    [Array.from({ length: OFFLINE_CHECK_LIMIT + 1 }, (_, i) => `item-${i}`), offlineMessages.tooMany],
  ] as const) {
    const answer = await ask([...ids]);
    expect(answer.status()).toBe(400);
    expect(((await answer.json()) as { message: string }).message).toBe(message);
  }
  const fan = await payingFan(request, artist);
  const context = await signedIn(browser, fan.token);
  for (let i = 0; i < OFFLINE_CHECKS_PER_USER.points; i++) expect((await ask(['item-1'], context.request)).status()).toBe(200);
  const limited = await ask(['item-1'], context.request);
  expect(limited.status()).toBe(429);
  expect(((await limited.json()) as { message: string }).message).toBe(offlineMessages.tooOften);
  expect(Number(limited.headers()['retry-after'])).toBeGreaterThan(0);
  await context.close();
});
