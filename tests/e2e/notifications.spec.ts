import { expect, test, type APIRequestContext } from '@playwright/test';
import { createECDH, randomBytes } from 'node:crypto';
import { apiBase, expectNoA11yViolations, logIn, privateAddress, registerFan, signIn, uniqueName, webBase, type Fan } from './helpers';
import { apiCall, ARTIST_PASSWORD, newArtist } from './money-world';

/**
 * What a fan sees of new-post notifications (docs/notifications.md "What the fan sees"): the bell in the
 * top bar, live over the socket; /notifications, whose forms mark read without JavaScript; the per-artist choices
 * on the account page, a plain form; and the service worker that shows a push.
 *
 * The artist is a free artist of this file's own: each test's fan subscribes without a card, and counts only what
 * this file publishes (the other files run beside it and publish for the seeded artists).
 */
let ARTIST: { username: string; name: string; email: string; password: string };

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext();
  const artist = await newArtist(request, '0');
  const { name } = await apiCall<{ name: string }>(request, 'GET', `/performers/${artist.username}`);
  ARTIST = { username: artist.username, name, email: artist.email, password: ARTIST_PASSWORD };
  await request.dispose();
});

const auth = (token: string) => ({ Authorization: `Bearer ${token}`, 'X-Forwarded-For': privateAddress() });

/** A new fan with a free subscription to the artist, and the artist's id. */
async function subscribedFan(request: APIRequestContext): Promise<Fan & { artistId: string }> {
  const fan = await registerFan(request);
  const artist = await request.get(`${apiBase}/performers/${ARTIST.username}`, { headers: auth(fan.token) });
  const artistId = ((await artist.json()) as { data: { _id: string } }).data._id;
  const subscribed = await request.post(`${apiBase}/payment/subscribe/performers`, {
    headers: auth(fan.token),
    data: { type: 'free', performerId: artistId },
  });
  expect(subscribed.status(), await subscribed.text()).toBeLessThan(300);
  return { ...fan, artistId };
}

/** The artist publishes a text post through the api. */
async function publish(request: APIRequestContext, artistToken: string, title: string) {
  const answer = await request.post(`${apiBase}/content`, {
    headers: auth(artistToken),
    data: { title, content: '<p>Fresh from the porch.</p>', tags: 'post' },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  return ((await answer.json()) as { data: { _id: string } }).data._id;
}

/** The fan's unread total once the fan-out (a background job) has reached them. */
async function unreadOf(request: APIRequestContext, fan: Fan) {
  const answer = await request.get(`${apiBase}/notifications/unread-count`, { headers: auth(fan.token) });
  return ((await answer.json()) as { data: { total: number } }).data.total;
}

const bell = (page: import('@playwright/test').Page) => page.getByRole('banner').getByRole('link', { name: /^Notifications/ });

test('the bell counts up without a reload when the artist publishes', async ({ browser, request }) => {
  const fan = await subscribedFan(request);
  const fanContext = await browser.newContext();
  await signIn(fanContext, fan.token);
  const fanPage = await fanContext.newPage();
  await fanPage.goto(`/${ARTIST.username}`);
  await expect(bell(fanPage)).toHaveAttribute('aria-label', 'Notifications');
  await fanPage.locator('html[data-realtime="connected"]').waitFor({ state: 'attached' });

  // The artist publishes from the studio's form, in a browser of their own (without JavaScript, the plain form).
  const artistContext = await browser.newContext({ javaScriptEnabled: false });
  await signIn(artistContext, await logIn(request, ARTIST.email, ARTIST.password));
  const artistPage = await artistContext.newPage();
  await artistPage.goto(`/${ARTIST.username}/account/create-text`);
  // The artist is told of nothing: no bell in their top bar.
  await expect(artistPage.getByRole('banner').getByRole('link', { name: /^Messages/ })).toBeVisible();
  await expect(bell(artistPage)).toHaveCount(0);
  const title = `Porch session tonight ${uniqueName('n')}`;
  await artistPage.getByLabel('Title').fill(title);
  await artistPage.getByRole('textbox', { name: 'Caption' }).fill('Doors at eight.');
  await artistPage.getByRole('combobox', { name: 'Category' }).selectOption({ label: 'Post' });
  await artistPage.getByRole('button', { name: 'Publish' }).click();
  await expect(artistPage.getByRole('heading', { level: 1, name: 'Published' })).toBeVisible();

  // The fan's page was not reloaded: the socket brought the count, and a screen reader hears what arrived.
  await expect(bell(fanPage)).toHaveAttribute('aria-label', 'Notifications, 1 unread');
  await expect(fanPage.getByTestId('notifications-unread')).toHaveText('1');
  await expect(fanPage.getByTestId('notification-arrived')).toHaveText(`New from ${ARTIST.name}: ${title}`);
  await expect(fanPage.getByTestId('notification-arrived')).toHaveAttribute('aria-live', 'polite');
  await expectNoA11yViolations(fanPage);

  // With JavaScript the list shows it too, and opening it reads it: the bell goes back down.
  await bell(fanPage).click();
  await expect(fanPage.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  await fanPage.getByRole('button', { name: new RegExp(title) }).click();
  await expect(fanPage.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(bell(fanPage)).toHaveAttribute('aria-label', 'Notifications');
  await fanContext.close();
  await artistContext.close();
});

test('without JavaScript the notifications page lists new posts, opens one as read, and marks all read', async ({ browser, request }) => {
  const fan = await subscribedFan(request);
  const artistToken = await logIn(request, ARTIST.email, ARTIST.password);
  const first = `Demo for the new record ${uniqueName('n')}`;
  const second = `Tour dates ${uniqueName('n')}`;
  await publish(request, artistToken, first);
  const secondId = await publish(request, artistToken, second);
  await expect.poll(() => unreadOf(request, fan)).toBe(2);

  const context = await browser.newContext({ javaScriptEnabled: false });
  await signIn(context, fan.token);
  const page = await context.newPage();
  await page.goto(`/${ARTIST.username}`);
  await expect(bell(page)).toHaveAttribute('aria-label', 'Notifications, 2 unread');
  await bell(page).click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  await expect(page.getByText('2 unread')).toBeVisible();
  const rows = page.getByRole('region', { name: 'Your notifications' }).getByRole('listitem');
  // Newest first, each with the artist, the title and the kind of post.
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText(second);
  await expect(rows.nth(0)).toContainText(ARTIST.name);
  await expect(rows.nth(0)).toContainText('Post');
  await expect(rows.nth(0)).toContainText('Unread');
  await expect(rows.nth(1)).toContainText(first);
  await expectNoA11yViolations(page);

  // Opening one marks it read on the way to the post.
  await rows.nth(0).getByRole('button').click();
  await expect(page).toHaveURL(new RegExp(`/${ARTIST.username}/vault/${secondId}\\?type=post&from=home$`));
  await expect(page.getByRole('heading', { level: 1, name: second })).toBeVisible();
  await expect(bell(page)).toHaveAttribute('aria-label', 'Notifications, 1 unread');

  await page.goto('/notifications');
  await expect(page.getByText('1 unread')).toBeVisible();
  // Read, it is a plain link to the post.
  await expect(rows.nth(0).getByRole('link')).toHaveAttribute('href', `/${ARTIST.username}/vault/${secondId}?type=post&from=home`);
  await expect(rows.nth(0)).not.toContainText('Unread');
  await expect(rows.nth(1)).toContainText('Unread');

  await page.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByText('You are all caught up.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark all as read' })).toHaveCount(0);
  await expect(bell(page)).toHaveAttribute('aria-label', 'Notifications');
  expect(await unreadOf(request, fan)).toBe(0);
  await context.close();
});

test('a fan with nothing yet sees the empty page', async ({ browser, request }) => {
  const fan = await registerFan(request);
  const context = await browser.newContext({ javaScriptEnabled: false });
  await signIn(context, fan.token);
  const page = await context.newPage();
  await page.goto('/notifications');
  await expect(page.getByText('No notifications yet')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Discover artists' })).toHaveAttribute('href', '/discover');
  await expectNoA11yViolations(page);
  await context.close();
});

test('without JavaScript a fan changes how the artist reaches them, and sees the choices saved', async ({ browser, request }) => {
  const fan = await subscribedFan(request);
  const context = await browser.newContext({ javaScriptEnabled: false });
  await signIn(context, fan.token);
  const page = await context.newPage();
  await page.goto(`/${ARTIST.username}/account`);
  const section = page.getByRole('region', { name: 'Notifications' });
  // The defaults: a mail per post, push and the bell on.
  await expect(section.getByLabel('Email')).toHaveValue('each');
  await expect(section.getByRole('checkbox', { name: 'Push notifications' })).toBeChecked();
  await expect(section.getByRole('checkbox', { name: 'In the notification bell' })).toBeChecked();
  // Push needs JavaScript: its button is not offered here.
  await expect(page.getByRole('button', { name: 'Get notified in this browser' })).toHaveCount(0);
  await expectNoA11yViolations(page);

  await section.getByLabel('Email').selectOption({ label: 'One mail a day with what is new' });
  await section.getByRole('checkbox', { name: 'Push notifications' }).uncheck();
  await section.getByRole('button', { name: 'Save notification choices' }).click();
  await expect(page).toHaveURL(new RegExp(`/${ARTIST.username}/account\\?saved=notifications`));
  await expect(section.getByRole('status')).toHaveText('Your notification choices are saved.');
  await expect(section.getByLabel('Email')).toHaveValue('digest');
  await expect(section.getByRole('checkbox', { name: 'Push notifications' })).not.toBeChecked();
  await expect(section.getByRole('checkbox', { name: 'In the notification bell' })).toBeChecked();

  const saved = await request.get(`${apiBase}/notifications/preferences/${fan.artistId}`, { headers: auth(fan.token) });
  expect(((await saved.json()) as { data: unknown }).data).toEqual({
    performerId: fan.artistId,
    email: 'digest',
    push: false,
    inApp: true,
  });

  // Shown again on a fresh visit.
  await page.goto(`/${ARTIST.username}/account`);
  await expect(section.getByLabel('Email')).toHaveValue('digest');
  await expect(section.getByRole('checkbox', { name: 'Push notifications' })).not.toBeChecked();
  await expect(section.getByRole('status')).toHaveCount(0);
  await context.close();

  // The artist's own account page has no such form.
  const artistContext = await browser.newContext({ javaScriptEnabled: false });
  await signIn(artistContext, await logIn(request, ARTIST.email, ARTIST.password));
  const artistPage = await artistContext.newPage();
  await artistPage.goto(`/${ARTIST.username}/account`);
  await expect(artistPage.getByRole('heading', { level: 1, name: 'Your fan club' })).toBeVisible();
  await expect(artistPage.getByRole('region', { name: 'Notifications' })).toHaveCount(0);
  await artistContext.close();
});

test('with JavaScript a fan turns push on and off for this browser from the artist page', async ({ browser, request }) => {
  const fan = await subscribedFan(request);
  const context = await browser.newContext();
  await signIn(context, fan.token);
  await context.grantPermissions(['notifications'], { origin: webBase });
  // The browser's push service is the one thing stood in for (as the api tests do): PushManager hands out a
  // subscription to an endpoint of ours, with real keys, and forgets it on unsubscribe.
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const subscription = {
    endpoint: `https://push.example/send/${uniqueName('ep')}`,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
  await context.addInitScript((json) => {
    let current: object | null = null;
    const made = { endpoint: json.endpoint, toJSON: () => json, unsubscribe: async () => ((current = null), true) };
    PushManager.prototype.subscribe = async () => (current = made) as unknown as PushSubscription;
    PushManager.prototype.getSubscription = async () => current as PushSubscription | null;
  }, subscription);
  const page = await context.newPage();
  await page.goto(`/${ARTIST.username}`);
  await page.getByRole('button', { name: 'Get notified in this browser' }).click();
  await expect(page.getByRole('button', { name: 'Stop notifications in this browser' })).toBeVisible();
  // Its worker is registered for the whole site.
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration('/'))?.scope)).toBe(`${webBase}/`);
  await expectNoA11yViolations(page);

  // The api has the subscription (deleting it is refused for one it does not know).
  const forget = () =>
    request.delete(`${apiBase}/notifications/push/subscriptions`, { headers: auth(fan.token), data: { endpoint: subscription.endpoint } });
  expect((await forget()).status()).toBe(200);
  const again = await request.post(`${apiBase}/notifications/push/subscriptions`, { headers: auth(fan.token), data: subscription });
  expect(again.status(), await again.text()).toBe(201);

  // Turning it off forgets it in the browser and at the api.
  await page.getByRole('button', { name: 'Stop notifications in this browser' }).click();
  await expect(page.getByRole('button', { name: 'Get notified in this browser' })).toBeVisible();
  expect((await forget()).status()).toBe(404);
  await context.close();
});

test('the service worker shows what a push carries', async ({ browser, request }) => {
  const fan = await subscribedFan(request);
  const context = await browser.newContext();
  await signIn(context, fan.token);
  await context.grantPermissions(['notifications'], { origin: webBase });
  const page = await context.newPage();
  await page.goto(`/${ARTIST.username}`);
  await page.evaluate(async () => {
    await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    await navigator.serviceWorker.ready;
  });
  // A push as the api sends it, delivered to the worker by Chromium's DevTools protocol.
  const cdp = await context.newCDPSession(page);
  const registrations = new Promise<{ registrationId: string; scopeURL: string }[]>((resolve) =>
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => resolve(registrations)),
  );
  await cdp.send('ServiceWorker.enable');
  const [registration] = (await registrations).filter((r) => r.scopeURL === `${webBase}/`);
  const payload = { title: 'Juniper Lane posted', body: 'Porch session', url: `${webBase}/juniperlane/posts`, icon: null, tag: 'item-1' };
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: webBase,
    registrationId: registration.registrationId,
    data: JSON.stringify(payload),
  });
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const worker = await navigator.serviceWorker.ready;
        return (await worker.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data as unknown }));
      }),
    )
    .toEqual([{ title: payload.title, body: payload.body, tag: payload.tag, data: { url: payload.url } }]);
  await context.close();
});
