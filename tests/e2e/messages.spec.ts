import { expect, test, type APIRequestContext, type Browser, type BrowserContextOptions, type Route } from '@playwright/test';
import { INBOX_PAGE_SIZE } from '../../app/utils/messages';
import { apiBase, expectNoA11yViolations, logIn, registerFan, signIn, type Fan } from './helpers';
import { apiCall, newArtist, signedIn } from './money-world';

/** The seeded free artist (README "Demo logins"): a fan subscribes without a card. */
const ARTIST = { username: 'juniperlane', name: 'Juniper Lane', email: 'juniper@stagedoor.test', password: 'Stagedoor-artist-2026!' };

/** A new fan with a free subscription to the artist. */
async function subscribedFan(request: APIRequestContext): Promise<Fan> {
  const fan = await registerFan(request);
  const artist = await request.get(`${apiBase}/performers/${ARTIST.username}`, { headers: { Authorization: `Bearer ${fan.token}` } });
  const { data } = (await artist.json()) as { data: { _id: string } };
  const subscribed = await request.post(`${apiBase}/payment/subscribe/performers`, {
    headers: { Authorization: `Bearer ${fan.token}` },
    data: { type: 'free', performerId: data._id },
  });
  expect(subscribed.status(), await subscribed.text()).toBeLessThan(300);
  return fan;
}

test('a fan writes to the artist, who sees it arrive without a reload and answers; unread badges follow', async ({ browser, request }) => {
  const fan = await subscribedFan(request);
  const artistToken = await logIn(request, ARTIST.email, ARTIST.password);
  const fanContext = await browser.newContext();
  const artistContext = await browser.newContext();
  await signIn(fanContext, fan.token);
  await signIn(artistContext, artistToken);
  const fanPage = await fanContext.newPage();
  const artistPage = await artistContext.newPage();

  // The artist's inbox is open and connected before the fan writes.
  await artistPage.goto(`/${ARTIST.username}/account/messages`);
  await expect(artistPage.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  await expectNoA11yViolations(artistPage);
  const artistBadge = artistPage.getByRole('banner').getByRole('link', { name: /^Messages/ });
  const unreadBefore = Number((await artistBadge.getAttribute('aria-label'))?.match(/(\d+) unread/)?.[1] ?? 0);
  await artistPage.locator('html[data-realtime="connected"]').waitFor({ state: 'attached' });

  await fanPage.goto(`/${ARTIST.username}`);
  await fanPage.getByRole('button', { name: `Message ${ARTIST.name}` }).click();
  await expect(fanPage).toHaveURL(new RegExp(`/${ARTIST.username}/account/messages/[^/?]+\\?username=${ARTIST.username}`));
  await expect(fanPage.getByRole('heading', { level: 1, name: ARTIST.name })).toBeVisible();
  await expect(fanPage.getByText(`No messages yet. Say hello to ${ARTIST.name}.`)).toBeVisible();
  await expectNoA11yViolations(fanPage);

  // The loaders that load again after the send, by route id: the page and the root's badge, not the layouts.
  const reloaded: string[] = [];
  fanPage.on('request', (sent) => {
    const routeId = new URL(sent.url()).searchParams.get('_data');
    if (routeId && sent.method() === 'GET') reloaded.push(routeId);
  });
  const hello = `Hello from the front row ${Date.now()}`;
  await fanPage.getByLabel('Message', { exact: true }).fill(hello);
  await fanPage.getByLabel('Message', { exact: true }).press('Enter');
  await expect(fanPage.getByTestId('message').filter({ hasText: hello })).toHaveCount(1);
  await expect(fanPage.getByLabel('Message', { exact: true })).toHaveValue('');
  await expect.poll(() => reloaded).toContain('root');
  // The day's heading above the first message of the day.
  await expect(fanPage.getByTestId('day')).toHaveText(['Today']);
  expect(reloaded).not.toContain('routes/_auth');
  expect(reloaded).not.toContain('routes/_auth._subscribed');

  // Without a reload: the conversation appears in the artist's list, and the top bar's total goes up by one.
  const row = artistPage.getByRole('link', { name: new RegExp(fan.username) });
  await expect(row).toContainText(hello, { timeout: 1000 });
  await expect(row).toContainText('1 unread');
  await expect(artistBadge).toHaveAttribute('aria-label', `Messages, ${unreadBefore + 1} unread`);

  // Opening the conversation reads it: the badges go back down.
  await row.click();
  await expect(artistPage.getByRole('heading', { level: 1, name: fan.username })).toBeVisible();
  await expect(artistPage.getByTestId('message').filter({ hasText: hello })).toBeVisible();
  await expect(artistBadge).toHaveAttribute('aria-label', unreadBefore ? `Messages, ${unreadBefore} unread` : 'Messages');
  await expectNoA11yViolations(artistPage);
  // The fan's message now reads "Seen" on the fan's page, by the read receipt event.
  await expect(fanPage.getByTestId('message').filter({ hasText: hello })).toContainText('Seen');

  const answer = `Thanks for listening! ${Date.now()}`;
  await artistPage.getByLabel('Message', { exact: true }).fill(answer);
  await artistPage.getByRole('button', { name: 'Send' }).click();
  await expect(fanPage.getByTestId('message').filter({ hasText: answer })).toHaveCount(1, { timeout: 1000 });
  // The fan is looking at the conversation, so the answer is read at once: no unread badge for the fan.
  await expect(fanPage.getByRole('banner').getByRole('link', { name: /^Messages/ })).toHaveAttribute('aria-label', 'Messages');

  // The fan deletes their message; it leaves the artist's page too.
  const mine = fanPage.getByTestId('message').filter({ hasText: hello });
  await mine.getByRole('button', { name: 'Delete message' }).click();
  await expect(mine).toContainText('Delete for both of you?');
  await mine.getByRole('button', { name: 'Keep' }).click();
  await mine.getByRole('button', { name: 'Delete message' }).click();
  await mine.getByRole('button', { name: 'Yes, delete' }).click();
  await expect(fanPage.getByTestId('message').filter({ hasText: hello })).toHaveCount(0);
  await expect(artistPage.getByTestId('message').filter({ hasText: hello })).toHaveCount(0);

  // Each message was shown once on each side throughout.
  await expect(artistPage.getByTestId('message').filter({ hasText: answer })).toHaveCount(1);

  // Logging out enters the unauthenticated area, which drops the realtime connection: the page's
  // connection state is gone, not merely "disconnected" as a socket retrying with a revoked token would be.
  await fanPage.getByRole('button', { name: `Logged in as ${fan.username}` }).click();
  await fanPage.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(fanPage.getByRole('heading', { level: 1, name: 'Log in to your account' })).toBeVisible();
  await expect(fanPage).toHaveURL(/\/login\?/);
  await expect(fanPage.locator('html')).not.toHaveAttribute('data-realtime');
  await fanContext.close();
  await artistContext.close();
});

test('without JavaScript a fan reads, sends with a page reload, sees the form errors, and loads older messages', async ({
  browser,
  request,
}) => {
  const fan = await subscribedFan(request);
  const artist = await request.get(`${apiBase}/performers/${ARTIST.username}`, { headers: { Authorization: `Bearer ${fan.token}` } });
  const artistId = ((await artist.json()) as { data: { _id: string } }).data._id;
  const opened = await request.post(`${apiBase}/conversations`, {
    headers: { Authorization: `Bearer ${fan.token}` },
    data: { source: 'performer', sourceId: artistId },
  });
  const conversationId = ((await opened.json()) as { data: { _id: string } }).data._id;
  // 21 messages: one more than a page.
  for (let i = 1; i <= 21; i++) {
    const sent = await request.post(`${apiBase}/messages/conversations/${conversationId}`, {
      headers: { Authorization: `Bearer ${fan.token}` },
      data: { text: `Setlist idea ${i}`, fileIds: [], type: 'text' },
    });
    expect(sent.status()).toBe(200);
  }

  const context = await browser.newContext({ javaScriptEnabled: false });
  await signIn(context, fan.token);
  const page = await context.newPage();
  await page.goto(`/${ARTIST.username}/account/messages`);
  await page.getByRole('link', { name: new RegExp(ARTIST.name) }).click();
  await expect(page).toHaveURL(new RegExp(`/account/messages/${conversationId}\\?username=${ARTIST.username}`));
  await expect(page.getByTestId('message')).toHaveCount(20);
  await expect(page.getByTestId('message').filter({ hasText: /^You: Setlist idea 1\b/ })).toHaveCount(0);
  await expectNoA11yViolations(page);

  await page.getByRole('link', { name: 'Load older messages' }).click();
  await expect(page.getByTestId('message')).toHaveCount(21);
  await expect(page.getByRole('link', { name: 'Load older messages' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('Please write a message.')).toBeVisible();

  const text = `No script needed ${Date.now()}`;
  await page.getByLabel('Message', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page).toHaveURL(/#latest$/);
  await expect(page.getByTestId('message').filter({ hasText: text })).toHaveCount(1);
  await expect(page.getByLabel('Message', { exact: true })).toHaveValue('');

  await page.getByTestId('message').filter({ hasText: text }).getByRole('button', { name: 'Delete message' }).click();
  await expect(page.getByTestId('message').filter({ hasText: text })).toHaveCount(0);
  await context.close();
});

test('a fan with an empty inbox starts the conversation from the messages page, without JavaScript', async ({ browser, request }) => {
  const fan = await subscribedFan(request);
  const context = await browser.newContext({ javaScriptEnabled: false });
  await signIn(context, fan.token);
  const page = await context.newPage();
  await page.goto(`/${ARTIST.username}/account/messages`);
  await expect(page.getByText('No messages yet')).toBeVisible();
  await page.getByRole('button', { name: 'Write a message' }).click();
  await expect(page).toHaveURL(new RegExp(`/${ARTIST.username}/account/messages/[^/?]+\\?username=${ARTIST.username}`));
  await expect(page.getByLabel('Message', { exact: true })).toBeVisible();
  await context.close();
});

test('the artist writes first to a new subscriber from the account page, without JavaScript', async ({ browser, request }) => {
  const fan = await subscribedFan(request);
  const context = await browser.newContext({ javaScriptEnabled: false });
  await signIn(context, await logIn(request, ARTIST.email, ARTIST.password));
  const page = await context.newPage();
  await page.goto(`/${ARTIST.username}/account`);
  await page
    .getByRole('region', { name: 'Subscribers' })
    .getByRole('button', { name: `Message ${fan.username}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/${ARTIST.username}/account/messages/[^/?]+\\?username=${fan.username}`));
  await expect(page.getByRole('heading', { level: 1, name: fan.username })).toBeVisible();
  const text = `Welcome to the porch ${Date.now()}`;
  await page.getByLabel('Message', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('message').filter({ hasText: text })).toHaveCount(1);
  await expectNoA11yViolations(page);
  // The fan finds it in their inbox, unread.
  const inbox = await request.get(`${apiBase}/conversations?limit=10`, { headers: { Authorization: `Bearer ${fan.token}` } });
  expect(((await inbox.json()) as { data: { data: { lastMessage: string; totalNotSeenMessages: number }[] } }).data.data).toEqual([
    expect.objectContaining({ lastMessage: text, totalNotSeenMessages: 1 }),
  ]);
  await context.close();
});

test('the conversation page needs its username and a conversation the viewer is in', async ({ browser, request }) => {
  const [fan, stranger] = await Promise.all([subscribedFan(request), subscribedFan(request)]);
  const artist = await request.get(`${apiBase}/performers/${ARTIST.username}`, { headers: { Authorization: `Bearer ${fan.token}` } });
  const artistId = ((await artist.json()) as { data: { _id: string } }).data._id;
  const opened = await request.post(`${apiBase}/conversations`, {
    headers: { Authorization: `Bearer ${fan.token}` },
    data: { source: 'performer', sourceId: artistId },
  });
  const conversationId = ((await opened.json()) as { data: { _id: string } }).data._id;

  const context = await browser.newContext();
  await signIn(context, stranger.token);
  const page = await context.newPage();
  const notMine = await page.goto(`/${ARTIST.username}/account/messages/${conversationId}?username=${ARTIST.username}`);
  expect(notMine?.status()).toBe(404);
  await expect(page.getByText("Uh, oh, This page doesn't seem to exist.")).toBeVisible();
  const noUsername = await page.goto(`/${ARTIST.username}/account/messages/${conversationId}`);
  expect(noUsername?.status()).toBe(400);
  await context.close();
});

/** A new fan on their open conversation with the artist, connected, whose phone then goes offline. */
/** A new subscribed fan's conversation with the artist, and a signed-in browser context for the fan. */
async function fanConversation(browser: Browser, request: APIRequestContext, options: BrowserContextOptions = {}) {
  const fan = await subscribedFan(request);
  const artist = await request.get(`${apiBase}/performers/${ARTIST.username}`, { headers: { Authorization: `Bearer ${fan.token}` } });
  const artistId = ((await artist.json()) as { data: { _id: string } }).data._id;
  const opened = await request.post(`${apiBase}/conversations`, {
    headers: { Authorization: `Bearer ${fan.token}` },
    data: { source: 'performer', sourceId: artistId },
  });
  const conversationId = ((await opened.json()) as { data: { _id: string } }).data._id;
  const context = await browser.newContext(options);
  await signIn(context, fan.token);
  const href = `/${ARTIST.username}/account/messages/${conversationId}?username=${ARTIST.username}`;
  return { fan, conversationId, context, href };
}

async function offlineOnConversation(browser: Browser, request: APIRequestContext) {
  const { fan, conversationId, context, href } = await fanConversation(browser, request);
  const page = await context.newPage();
  await page.goto(href);
  await page.locator('html[data-realtime="connected"]').waitFor({ state: 'attached' });
  await context.setOffline(true);
  await page.locator('html[data-realtime="disconnected"]').waitFor({ state: 'attached' });
  return { fan, conversationId, context, page };
}

test('a fan whose signal drops while the conversation catches up keeps it, and it catches up when the signal is back', async ({
  browser,
  request,
}) => {
  // The offline worker would answer the failed refetch with the offline page; blocked here, the browser's own network
  // error reaches the page (the worker's answer is covered in tests/app/realtime-client-loader.test.ts).
  const { conversationId, context, href } = await fanConversation(browser, request, { serviceWorkers: 'block' });
  const page = await context.newPage();
  // The refetch the first connection asks for (what was sent between the server's render and the connection) is held
  // until the phone has gone offline, and then fails as a request does in a tunnel.
  const held: Route[] = [];
  const refetch = (url: URL) => url.searchParams.has('_data');
  await page.route(refetch, (route) => void held.push(route));
  await page.goto(href);
  await page.locator('html[data-realtime="connected"]').waitFor({ state: 'attached' });
  await expect.poll(() => held.length).toBeGreaterThan(0);
  await context.setOffline(true);
  for (const route of held) await route.abort('internetdisconnected');
  await page.unroute(refetch);

  const composer = page.getByLabel('Message', { exact: true });
  await expect(composer).toBeVisible();
  await page.waitForTimeout(500);
  await expect(page.getByRole('heading', { level: 1, name: ARTIST.name })).toBeVisible();
  await expect(composer).toBeVisible();

  const artistToken = await logIn(request, ARTIST.email, ARTIST.password);
  const text = `Sent while the fan was in the tunnel ${Date.now()}`;
  const sent = await request.post(`${apiBase}/messages/conversations/${conversationId}`, {
    headers: { Authorization: `Bearer ${artistToken}` },
    data: { text, fileIds: [], type: 'text' },
  });
  expect(sent.status()).toBe(200);
  await context.setOffline(false);
  await expect(page.getByTestId('message').filter({ hasText: text })).toHaveCount(1, { timeout: 15_000 });
  await expect(page.getByRole('heading', { level: 1, name: ARTIST.name })).toBeVisible();
  await context.close();
});

test('a fan whose phone drops off the network and comes back sees each missed message once', async ({ browser, request }) => {
  const artistToken = await logIn(request, ARTIST.email, ARTIST.password);
  const { conversationId, context, page } = await offlineOnConversation(browser, request);
  const missed = [`While you were in the tunnel ${Date.now()}`, `Second one ${Date.now()}`];
  for (const text of missed) {
    const sent = await request.post(`${apiBase}/messages/conversations/${conversationId}`, {
      headers: { Authorization: `Bearer ${artistToken}` },
      data: { text, fileIds: [], type: 'text' },
    });
    expect(sent.status()).toBe(200);
  }
  await context.setOffline(false);
  for (const text of missed) await expect(page.getByTestId('message').filter({ hasText: text })).toHaveCount(1, { timeout: 15_000 });
  await expect(page.getByTestId('message')).toHaveCount(missed.length);
  await context.close();
});

test('a message typed offline goes by itself, once, when the connection comes back', async ({ browser, request }) => {
  const { fan, conversationId, context, page } = await offlineOnConversation(browser, request);
  const text = `Typed in the tunnel ${Date.now()}`;
  await page.getByLabel('Message', { exact: true }).fill(text);
  await page.getByLabel('Message', { exact: true }).press('Enter');
  await expect(page.getByText('Not sent: check your connection and try again.')).toBeVisible();

  await context.setOffline(false);
  await expect(page.getByText('Not sent: check your connection and try again.')).toHaveCount(0, { timeout: 15_000 });
  await expect(page.getByTestId('message').filter({ hasText: text })).toHaveCount(1);
  // Stored once, whatever the page shows.
  const stored = await request.get(`${apiBase}/messages/conversations/${conversationId}`, {
    headers: { Authorization: `Bearer ${fan.token}` },
  });
  const texts = ((await stored.json()) as { data: { data: { text: string }[] } }).data.data.map((m) => m.text);
  expect(texts.filter((t) => t === text)).toHaveLength(1);
  await context.close();
});

test('an artist with more fans writing than a page holds pages through the inbox and finds a fan by name, without JavaScript', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const artist = await newArtist(request, '0');
  const fans: Fan[] = [];
  // INBOX_PAGE_SIZE (50) and two more, each with a conversation of their own; the last one written is the newest.
  for (let i = 0; i < INBOX_PAGE_SIZE + 2; i++) {
    const fan = await registerFan(request);
    await apiCall(request, 'POST', '/payment/subscribe/performers', { token: fan.token, data: { type: 'free', performerId: artist.id } });
    const conversation = await apiCall<{ _id: string }>(request, 'POST', '/conversations', {
      token: fan.token,
      data: { source: 'performer', sourceId: artist.id },
    });
    await apiCall(request, 'POST', `/messages/conversations/${conversation._id}`, {
      token: fan.token,
      data: { text: `Hello from fan ${i}`, fileIds: [], type: 'text' },
    });
    fans.push(fan);
  }
  const context = await signedIn(browser, artist.token, { javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`/${artist.username}/account/messages`);
  const list = page.getByRole('list', { name: 'Conversations' });
  await expect(list.getByRole('listitem')).toHaveCount(INBOX_PAGE_SIZE);
  await expect(list.getByRole('listitem').first()).toContainText(`Hello from fan ${INBOX_PAGE_SIZE + 1}`);
  const pages = page.getByRole('navigation', { name: 'Conversation pages' });
  await expect(pages).toContainText(`1–${INBOX_PAGE_SIZE} of ${INBOX_PAGE_SIZE + 2}`);
  await pages.getByRole('link', { name: 'Next page' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByRole('listitem').last()).toContainText('Hello from fan 0');
  await expectNoA11yViolations(page);

  await page.getByRole('searchbox').fill(fans[7].username);
  await page.getByRole('button', { name: 'Find' }).click();
  await expect(page).toHaveURL(new RegExp(`\\?q=${fans[7].username}$`));
  await expect(page.getByText(`1 conversation with a name like “${fans[7].username}”`)).toBeVisible();
  await list.getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: fans[7].username })).toBeVisible();
  await expect(page.getByTestId('message').filter({ hasText: 'Hello from fan 7' })).toHaveCount(1);

  await page.goto(`/${artist.username}/account/messages?q=nobody-by-this-name`);
  await expect(page.getByText('No conversation with a name like “nobody-by-this-name”.')).toBeVisible();
  await context.close();
});
