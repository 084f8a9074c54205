import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { apiBase, expectNoA11yViolations, logIn, registerFan, signIn, uniqueName, untilMediaProcessed, webBase, type Fan } from './helpers';
import { wav } from './listening-world';

/**
 * A subscribed fan browsing an artist's content in Chromium against the built app: the vault's filters (as links,
 * with and without JavaScript), an audio item that plays through Range requests, a poll, comments (post, delete,
 * a commentId link), bookmarks and the bookmarks page; a fan without a subscription is sent to subscribe, and
 * drafts stay the artist's. The artist, the fans and the content are made through the API for this run.
 */

const PASSWORD = 'Stagedoor-e2e-2026!';

interface Artist {
  username: string;
  name: string;
  token: string;
}

interface Item {
  _id: string;
  title: string;
  mediaType: string;
  poll: { _id: string } | null;
}

let artist: Artist;
let fan: Fan;
const items: Record<'demo' | 'live' | 'poll' | 'draft', Item> = {} as never;

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

async function createItem(request: APIRequestContext, body: Record<string, unknown>): Promise<Item> {
  const response = await request.post(`${apiBase}/content`, { data: body, headers: auth(artist.token) });
  expect(response.status(), await response.text()).toBe(201);
  const item = ((await response.json()) as { data: Item }).data;
  if (body.mediaId) await untilMediaProcessed(request, artist.token, item._id);
  return item;
}

async function joinFree(request: APIRequestContext, who: Fan) {
  const performer = await request.get(`${apiBase}/performers/${artist.username}`);
  const { data } = (await performer.json()) as { data: { _id: string } };
  const joined = await request.post(`${apiBase}/payment/subscribe/performers`, {
    data: { type: 'free', performerId: data._id },
    headers: auth(who.token),
  });
  expect(joined.status(), await joined.text()).toBe(200);
}

test.beforeAll(async ({ request }) => {
  // A free artist of this run, made with the operator CLI (which talks to the running server).
  const username = uniqueName('club');
  const name = `Club ${username.slice(-6)}`;
  await promisify(execFile)(
    'node',
    [
      'build/server/cli.js',
      'create-artist',
      '--username',
      username,
      '--email',
      `${username}@example.com`,
      '--password',
      PASSWORD,
      '--name',
      name,
      '--yearly-price',
      '0',
    ],
    { env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, PUBLIC_WEB_URL: webBase } },
  );
  artist = { username, name, token: await logIn(request, username, PASSWORD) };

  const upload = await request.post(`${apiBase}/media?kind=audio`, {
    headers: auth(artist.token),
    multipart: { file: { name: 'tape.wav', mimeType: 'audio/wav', buffer: wav(4) } },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const audioId = ((await upload.json()) as { data: { _id: string } }).data._id;

  items.live = await createItem(request, { title: 'Live from the basement', content: '<p>Loud and late.</p>', tags: 'live' });
  items.demo = await createItem(request, {
    title: 'Tape hiss demo',
    content: '<p>One take, <strong>no</strong> edits.</p>',
    tags: 'demo',
    mediaId: audioId,
  });
  items.poll = await createItem(request, {
    title: 'Pick the single',
    content: '<p>Which one goes out first?</p>',
    tags: 'post',
    poll: { enabled: true, title: 'The first single', answers: [{ text: 'Northern Line' }, { text: 'Glass Jaw' }] },
  });
  items.draft = await createItem(request, { title: 'Secret draft', content: '<p>Not yet.</p>', tags: 'demo', draft: true });

  fan = await registerFan(request, apiBase, 'browser');
  await joinFree(request, fan);
});

test('the fan filters the vault with the category links, sorts it, and never sees the draft', async ({ page, context }) => {
  await signIn(context, fan.token);
  await page.goto(`/${artist.username}/vault`);
  await expect(page.getByRole('heading', { level: 1, name: 'Vault' })).toBeVisible();
  const grid = page.getByRole('region', { name: 'Vault items' });
  await expect(grid.getByRole('link', { name: items.demo.title })).toBeVisible();
  await expect(grid.getByRole('link', { name: items.live.title })).toBeVisible();
  await expect(page.getByText(items.draft.title)).toHaveCount(0);
  await expectNoA11yViolations(page);
  // Once the page has hydrated (the account menu's <details> gives way to its button), the links navigate inside
  // the page: no new document is loaded.
  await expect(page.getByRole('banner').locator('details')).toHaveCount(0);
  const documents: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documents.push(request.url());
  });

  const categories = page.getByRole('navigation', { name: 'Categories' });
  await categories.getByRole('link', { name: 'Demo' }).click();
  await expect(page).toHaveURL(`/${artist.username}/vault?filters=demo`);
  await expect(categories.getByRole('link', { name: 'Demo' })).toHaveAttribute('aria-current', 'true');
  await expect(grid.getByRole('link', { name: items.demo.title })).toBeVisible();
  await expect(grid.getByRole('link', { name: items.live.title })).toHaveCount(0);

  // A second category adds to the first; Oldest keeps the filters.
  await categories.getByRole('link', { name: 'Live' }).click();
  await expect(page).toHaveURL(`/${artist.username}/vault?filters=demo,live`);
  await page.getByRole('navigation', { name: 'Sort' }).getByRole('link', { name: 'Oldest' }).click();
  await expect(page).toHaveURL(`/${artist.username}/vault?filters=demo,live&sort=asc`);
  await expect(grid.getByRole('listitem').first()).toContainText(items.live.title);
  await expectNoA11yViolations(page);
  expect(documents).toEqual([]);

  // Repeated parameters (what a GET form sends) mean the same as the comma list.
  await page.goto(`/${artist.username}/vault?filters=live&filters=nonsense`);
  await expect(grid.getByRole('link', { name: items.live.title })).toBeVisible();
  await expect(grid.getByRole('link', { name: items.demo.title })).toHaveCount(0);

  // The draft's own address is the not-found page for a fan.
  const response = await page.goto(`/${artist.username}/vault/${items.draft._id}?type=post&from=vault`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: "Uh, oh, This page doesn't seem to exist." })).toBeVisible();
  // The club is known: the page leads back into its vault as well as home.
  await page.getByRole('link', { name: /^See what else .+ has in the vault$/ }).click();
  await expect(page).toHaveURL(`/${artist.username}/vault`);
});

test('without JavaScript the category links filter the vault too', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  await signIn(context, fan.token);
  const page = await context.newPage();
  await page.goto(`/${artist.username}/vault`);
  await page.getByRole('navigation', { name: 'Categories' }).getByRole('link', { name: 'Live' }).click();
  await expect(page).toHaveURL(`/${artist.username}/vault?filters=live`);
  const grid = page.getByRole('region', { name: 'Vault items' });
  await expect(grid.getByRole('link', { name: items.live.title })).toBeVisible();
  await expect(grid.getByRole('link', { name: items.demo.title })).toHaveCount(0);
  await expectNoA11yViolations(page);
  await context.close();
});

test('the fan opens an audio item from the vault and plays it, served in ranges', async ({ page, context }) => {
  await signIn(context, fan.token);
  const ranges: number[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/media/') && response.request().headers().range) ranges.push(response.status());
  });
  await page.goto(`/${artist.username}/vault`);
  await page.getByRole('link', { name: items.demo.title }).click();
  await expect(page).toHaveURL(`/${artist.username}/vault/${items.demo._id}?type=audio&from=vault`);
  await expect(page.getByRole('heading', { level: 1, name: items.demo.title })).toBeVisible();
  await expect(page.getByText('One take, no edits.')).toBeVisible();
  await expectNoA11yViolations(page);

  // The track plays in the player in the layout (docs/listening.md), which the page's play button starts.
  await page.getByRole('button', { name: `Play ${items.demo.title}` }).click();
  const player = page.getByRole('region', { name: 'Player' });
  const slider = player.getByRole('slider', { name: `Seek in ${items.demo.title}` });
  await expect(player).toContainText('0:04');
  await expect.poll(async () => Number(await slider.inputValue()), { timeout: 10_000 }).toBeGreaterThan(0);
  expect(ranges).toContain(206);
  // It seeks: the whole recording is seekable (the api answers ranges), and a jump lands where the fan asked.
  expect(Math.round(Number(await slider.getAttribute('max')))).toBe(4);
  await slider.fill('3');
  await expect.poll(async () => Number(await slider.inputValue())).toBeGreaterThanOrEqual(3);

  await page.getByRole('link', { name: 'Back to the vault' }).click();
  await expect(page).toHaveURL(`/${artist.username}/vault`);
});

test('the fan votes in a poll on the posts page and sees the results', async ({ page, context }) => {
  await signIn(context, fan.token);
  await page.goto(`/${artist.username}/posts?filters=Poll`);
  await expect(page.getByRole('heading', { level: 1, name: 'Posts' })).toBeVisible();
  await expectNoA11yViolations(page);
  const poll = page.getByRole('group', { name: 'The first single' });
  await page.getByRole('button', { name: 'Vote' }).click();
  await expect(page.getByText('Please choose an answer.')).toBeVisible();
  await poll.getByLabel('Glass Jaw').check();
  await page.getByRole('button', { name: 'Vote' }).click();
  const results = page.getByRole('region', { name: 'The first single' });
  await expect(results.getByText('Your vote')).toBeVisible();
  await expect(results.getByRole('listitem').filter({ hasText: 'Glass Jaw' })).toContainText('100%');
  await expect(results).toContainText('1 vote');
  await expect(page.getByRole('button', { name: 'Vote' })).toHaveCount(0);
  await expectNoA11yViolations(page);
});

const pad = (n: number) => String(n).padStart(2, '0');

/** A poll of its own closing in three days (DD/MM/YYYY and HH:MM in GMT, as the post form writes it). */
async function closingPoll(request: APIRequestContext, title: string) {
  const at = new Date(Date.now() + 3 * 86_400_000);
  return createItem(request, {
    title,
    content: '<p>Vote now, change your mind later.</p>',
    tags: 'post',
    poll: {
      enabled: true,
      title: `${title}?`,
      answers: [{ text: 'Lisbon' }, { text: 'Oslo' }, { text: 'Lagos' }],
      closeDate: `${pad(at.getUTCDate())}/${pad(at.getUTCMonth() + 1)}/${at.getUTCFullYear()}`,
      closeTime: `${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}`,
    },
  });
}

/** Votes, changes the vote and removes it on the item page, as a fan does with JavaScript on or off. */
async function changeMind(page: Page, item: Item, question: string) {
  await page.goto(`/${artist.username}/vault/${item._id}?type=post&from=posts`);
  const card = page.getByRole('region', { name: question });
  await expect(card.getByText('Closes in 3 days')).toBeVisible();
  await card.getByRole('group', { name: question }).getByLabel('Lisbon').check();
  await card.getByRole('button', { name: 'Vote', exact: true }).click();
  const answer = (text: string) => card.getByRole('listitem').filter({ hasText: text });
  await expect(answer('Lisbon')).toContainText('Your vote');
  await expect(card).toContainText('1 vote');
  await expectNoA11yViolations(page);

  // The results stay; the vote can be changed until the poll closes.
  await card.getByText('Changed your mind?').click();
  await expect(card.getByRole('radio', { name: 'Lisbon' })).toBeChecked();
  await card.getByRole('radio', { name: 'Oslo' }).check();
  await expectNoA11yViolations(page);
  await card.getByRole('button', { name: 'Change vote' }).click();
  await expect(answer('Oslo')).toContainText('Your vote');
  await expect(answer('Oslo')).toContainText('100%');
  await expect(answer('Lisbon')).toContainText('0%');
  await expect(card).toContainText('1 vote');

  await card.getByText('Changed your mind?').click();
  await card.getByRole('button', { name: 'Remove my vote' }).click();
  await expect(card.getByRole('button', { name: 'Vote', exact: true })).toBeVisible();
  await expect(card.getByText('Your vote')).toHaveCount(0);
  await expect(card.getByText('Closes in 3 days')).toBeVisible();
}

test('the fan changes their mind in a poll that closes: a new answer, then no vote at all', async ({ page, context, request }) => {
  const item = await closingPoll(request, `Next city ${uniqueName('p')}`);
  await signIn(context, fan.token);
  await changeMind(page, item, `${item.title}?`);
  // The artist's view counts no vote left.
  const artistView = await request.get(`${apiBase}/content/${item._id}`, { headers: auth(artist.token) });
  expect(((await artistView.json()) as { data: { poll: { totalVotes: number } } }).data.poll.totalVotes).toBe(0);
});

test('without JavaScript the fan changes and removes their vote through plain forms', async ({ browser, request }) => {
  const item = await closingPoll(request, `Plain city ${uniqueName('p')}`);
  const plainFan = await registerFan(request, apiBase, 'plain');
  await joinFree(request, plainFan);
  const context = await browser.newContext({ javaScriptEnabled: false });
  await signIn(context, plainFan.token);
  await changeMind(await context.newPage(), item, `${item.title}?`);
  await context.close();
});

test('the fan comments on an item, sees the comment, and deletes it', async ({ page, context }) => {
  await signIn(context, fan.token);
  await page.goto(`/${artist.username}/vault/${items.live._id}?type=post&from=home`);
  await expect(page.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', `/${artist.username}`);
  await page.getByRole('button', { name: 'Post comment' }).click();
  await expect(page.getByLabel('Your comment')).toHaveAccessibleDescription('Please write a comment.');

  const text = `Front row, every night ${uniqueName('c')}`;
  await page.getByLabel('Your comment').fill(text);
  await page.getByRole('button', { name: 'Post comment' }).click();
  const comments = page.getByRole('region', { name: /Comments/ });
  await expect(comments.getByRole('listitem').filter({ hasText: text })).toBeVisible();
  await expect(page.getByLabel('Your comment')).toHaveValue('');
  await expect(page.getByRole('heading', { name: 'Comments (1)' })).toBeVisible();
  await expectNoA11yViolations(page);

  await comments
    .getByRole('listitem')
    .filter({ hasText: text })
    .getByRole('button', { name: /Delete/ })
    .click();
  await expect(comments.getByRole('listitem').filter({ hasText: text })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Comments (0)' })).toBeVisible();
});

test('the fan bookmarks an item and finds it on the bookmarks page', async ({ page, context, request }) => {
  await signIn(context, fan.token);
  await page.goto(`/${artist.username}/vault/${items.demo._id}?type=audio&from=vault`);
  // The button turns at once (optimistic); leaving before the post has its answer would cancel it.
  const posted = page.waitForResponse((response) => response.request().method() === 'POST' && response.url().includes(items.demo._id));
  await page.getByRole('button', { name: 'Bookmark', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Remove bookmark' })).toBeVisible();
  await posted;

  await page.goto(`/${artist.username}/account/bookmarks`);
  await expect(page.getByRole('heading', { level: 1, name: 'Your bookmarks' })).toBeVisible();
  const saved = page.getByRole('region', { name: 'Bookmarked items' });
  await expect(saved.getByRole('link', { name: items.demo.title })).toBeVisible();
  await expect(saved.getByRole('link', { name: items.live.title })).toHaveCount(0);
  await expectNoA11yViolations(page);
  // The same filters as the vault and the posts: a bookmarked poll post is found under Poll.
  const categories = page.getByRole('navigation', { name: 'Categories' });
  await categories.getByRole('link', { name: 'Live' }).click();
  await expect(saved.getByRole('link', { name: items.demo.title })).toHaveCount(0);
  const bookmarked = await request.post(`${apiBase}/content/${items.poll._id}/bookmark`, { headers: auth(fan.token) });
  expect(bookmarked.status()).toBe(200);
  await page.goto(`/${artist.username}/account/bookmarks`);
  await categories.getByRole('link', { name: 'Poll' }).click();
  await expect(page).toHaveURL(`/${artist.username}/account/bookmarks?filters=Poll`);
  await expect(saved.getByRole('link', { name: items.poll.title })).toBeVisible();
  await expect(saved.getByRole('link', { name: items.demo.title })).toHaveCount(0);
  await categories.getByRole('link', { name: 'Demo' }).click();
  await expect(page).toHaveURL(`/${artist.username}/account/bookmarks?filters=demo,Poll`);
  await expect(saved.getByRole('link', { name: items.demo.title })).toBeVisible();

  await page.goto(`/${artist.username}/account/bookmarks`);
  await saved.getByRole('link', { name: items.demo.title }).click();
  await expect(page).toHaveURL(`/${artist.username}/vault/${items.demo._id}?type=audio&from=bookmarks`);
  await expect(page.getByRole('link', { name: 'Back to your bookmarks' })).toBeVisible();
  await page.getByRole('button', { name: 'Remove bookmark' }).click();
  await expect(page.getByRole('button', { name: 'Bookmark', exact: true })).toBeVisible();
});

test('a commentId link opens the page of comments holding it, scrolled to it and highlighted', async ({
  page,
  context,
  request,
  browser,
}) => {
  // 24 comments from three fans (the API allows ten a minute each): the oldest is on the second page.
  const commenters = await Promise.all([0, 1, 2].map(() => registerFan(request, apiBase, 'talker')));
  await Promise.all(commenters.map((who) => joinFree(request, who)));
  const ids: string[] = [];
  for (let i = 0; i < 24; i++) {
    const who = commenters[i % 3];
    const response = await request.post(`${apiBase}/content/${items.poll._id}/comments`, {
      data: { text: `Comment number ${i + 1}` },
      headers: auth(who.token),
    });
    expect(response.status(), await response.text()).toBe(201);
    ids.push(((await response.json()) as { data: { _id: string } }).data._id);
  }
  await signIn(context, fan.token);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`/${artist.username}/vault/${items.poll._id}?type=post&from=posts&commentId=${ids[0]}`);
  const target = page.locator(`#comment-${ids[0]}`);
  await expect(target).toContainText('Comment number 1');
  await expect(target).toHaveAttribute('aria-current', 'true');
  await expect(target).toBeInViewport();
  await expect(page.getByRole('link', { name: 'Newer comments' })).toBeVisible();
  // The first page holds the newest twenty; the oldest four are not on it.
  await page.getByRole('link', { name: 'Newer comments' }).click();
  await expect(page.getByText('Comment number 24')).toBeVisible();
  await expect(page.getByText('Comment number 1', { exact: true })).toHaveCount(0);
  await expectNoA11yViolations(page);

  // Without JavaScript the browser still scrolls to it (autofocus).
  const noJs = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 700 } });
  await signIn(noJs, fan.token);
  const plain = await noJs.newPage();
  await plain.goto(`/${artist.username}/vault/${items.poll._id}?type=post&from=posts&commentId=${ids[5]}`);
  await expect(plain.locator(`#comment-${ids[5]}`)).toBeInViewport();
  await noJs.close();
});

test('without JavaScript the fan votes, comments and bookmarks through plain forms', async ({ browser, request }) => {
  const plainFan = await registerFan(request, apiBase, 'plain');
  await joinFree(request, plainFan);
  const context = await browser.newContext({ javaScriptEnabled: false });
  await signIn(context, plainFan.token);
  const page = await context.newPage();
  await page.goto(`/${artist.username}/vault/${items.poll._id}?type=post&from=posts`);
  await expect(page.getByRole('link', { name: 'Back to posts' })).toBeVisible();

  await page.getByRole('button', { name: 'Vote' }).click();
  await expect(page.getByText('Please choose an answer.')).toBeVisible();
  await page.getByRole('group', { name: 'The first single' }).getByLabel('Northern Line').check();
  await page.getByRole('button', { name: 'Vote' }).click();
  await expect(page).toHaveURL(`/${artist.username}/vault/${items.poll._id}?type=post&from=posts#poll-${items.poll.poll!._id}`);
  await expect(page.getByRole('region', { name: 'The first single' }).getByText('Your vote')).toBeVisible();

  const text = `Typed without scripts ${uniqueName('n')}`;
  await page.getByLabel('Your comment').fill(text);
  await page.getByRole('button', { name: 'Post comment' }).click();
  await expect(
    page
      .getByRole('region', { name: /Comments/ })
      .getByRole('listitem')
      .filter({ hasText: text }),
  ).toBeVisible();

  await page.getByRole('button', { name: 'Bookmark', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Remove bookmark' })).toBeVisible();
  await expectNoA11yViolations(page);
  await page.goto(`/${artist.username}/account/bookmarks`);
  await expect(page.getByRole('region', { name: 'Bookmarked items' }).getByRole('link', { name: items.poll.title })).toBeVisible();
  await context.close();
});

test('a signed-in fan without a subscription is sent to subscribe from every content page', async ({ page, context, request }) => {
  const stranger = await registerFan(request, apiBase, 'stranger');
  await signIn(context, stranger.token);
  for (const path of ['', '/vault', '/posts', `/vault/${items.demo._id}?type=audio&from=vault`, '/account/bookmarks']) {
    await page.goto(`/${artist.username}${path}`);
    // The subscribe page, which sends a signed-in fan of a free artist on to its join step.
    await expect(page).toHaveURL(new RegExp(`/${artist.username}/subscribe(/|$)`));
  }
});

test('the artist sees their draft with its badge, and the home page lists the latest posts and vault items', async ({ browser }) => {
  const context = await newSignedInContext(browser, artist.token);
  const page = await context.newPage();
  await page.goto(`/${artist.username}/vault`);
  const draftCard = page.getByRole('listitem').filter({ hasText: items.draft.title });
  await expect(draftCard.getByText('Draft', { exact: true })).toBeVisible();
  await draftCard.getByRole('link', { name: items.draft.title }).click();
  await expect(page.getByRole('heading', { level: 1, name: items.draft.title })).toBeVisible();
  await expect(page.getByText('Draft', { exact: true })).toBeVisible();
  await expectNoA11yViolations(page);

  await page.goto(`/${artist.username}`);
  await expect(page.getByRole('heading', { level: 1, name: artist.name })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Latest posts' }).getByRole('link', { name: items.poll.title, exact: true })).toBeVisible();
  const vault = page.getByRole('region', { name: 'New in the vault' });
  await expect(vault.getByRole('link', { name: items.demo.title })).toHaveAttribute(
    'href',
    `/${artist.username}/vault/${items.demo._id}?type=audio&from=home`,
  );
  await expectNoA11yViolations(page);
  await context.close();
});

async function newSignedInContext(browser: Browser, token: string) {
  const context = await browser.newContext();
  await signIn(context, token);
  return context;
}
