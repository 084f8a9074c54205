import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiBase, expectNoA11yViolations, signInAs, uniqueName, webBase } from './helpers';
import { VAULT_CATEGORIES } from '../../contract/content-types';
import { apiCall, newArtist, signedIn } from './money-world';

/**
 * The artist's collection pages, in Chromium against the built app: juniperlane creates a collection of
 * two items in a chosen order, sees it in that order on the fan-facing page, reorders it, renames it and deletes
 * it (the items stay); an empty title has its message; the creation once more without JavaScript; a subscribed fan
 * sees the collection; a fan gets the 404 page on the artist's pages.
 */

const ARTIST = { email: 'juniper@stagedoor.test', password: 'Stagedoor-artist-2026!', username: 'juniperlane' };
const FAN = { email: 'fan@stagedoor.test', password: 'Stagedoor-fan-2026!' };

interface Item {
  _id: string;
  type: string;
  title: string;
}

/** Two published items of the artist with distinct titles, from the picker's first page (the newest 24, any state). */
async function twoItems(request: APIRequestContext, token: string): Promise<[Item, Item]> {
  const response = await request.get(`${apiBase}/performers/${ARTIST.username}/content?limit=24`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const items = ((await response.json()) as { data: { data: (Item & { state: string })[] } }).data.data.filter(
    (item) => item.state === 'published',
  );
  const distinct = items.filter((item, i) => items.findIndex((other) => other.title === item.title) === i && item.title.length > 3);
  expect(distinct.length).toBeGreaterThanOrEqual(2);
  return [distinct[0], distinct[1]];
}

async function collectionItemIds(request: APIRequestContext, token: string, id: string) {
  const response = await request.get(`${apiBase}/collections/${id}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: { title: string; items: { data: Item[] }; types: string[] } }).data;
}

/** The titles' order as the fan-facing page shows them. */
async function expectOrder(page: Page, first: string, second: string) {
  const text = await page.locator('section[aria-labelledby="collection-items-title"]').innerText();
  expect(text.indexOf(first)).toBeGreaterThanOrEqual(0);
  expect(text.indexOf(second)).toBeGreaterThan(text.indexOf(first));
}

const collectionId = (page: Page) => new URL(page.url()).pathname.split('/').pop()!;

test('the artist creates, reorders, renames and deletes a collection; a fan sees it', async ({ browser, request }) => {
  const context = await browser.newContext({ baseURL: webBase });
  const page = await context.newPage();
  const token = await signInAs(context, request, ARTIST);
  const [a, b] = await twoItems(request, token);

  await page.goto(`/${ARTIST.username}/account`);
  await page
    .getByRole('link', { name: /^Collections/ })
    .first()
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your collections' })).toBeVisible();
  await expectNoA11yViolations(page);
  await page.getByRole('link', { name: 'New collection' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New collection' })).toBeVisible();
  await expectNoA11yViolations(page);

  // An empty title: the spec's message on the field.
  await page.getByRole('button', { name: 'Create collection' }).last().click();
  await expect(page.getByText('Please enter a title for your collection.')).toBeVisible();

  const title = uniqueName('Tour diary');
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Description (optional)').fill('Songs from the road.');
  // b first, then a.
  await page.locator(`#item-${a._id}`).check();
  await page.getByLabel(`Order of ${a.title}`).fill('2');
  await page.locator(`#item-${b._id}`).check();
  await page.getByLabel(`Order of ${b.title}`).fill('1');
  await page.getByRole('button', { name: 'Create collection' }).last().click();
  await page.waitForURL(/\/juniperlane\/collection\/[^/]+$/);
  const id = collectionId(page);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expectOrder(page, b.title, a.title);
  expect((await collectionItemIds(request, token, id)).items.data.map((item) => item._id)).toEqual([b._id, a._id]);

  // The list shows it; edit: move a up, rename.
  await page.goto(`/${ARTIST.username}/account/collections`);
  await expect(page.getByRole('link', { name: title, exact: true })).toBeVisible();
  await page.getByRole('link', { name: `Edit ${title}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Edit collection' })).toBeVisible();
  await expectNoA11yViolations(page);
  await page.getByRole('button', { name: `Move ${a.title} up` }).click();
  await expect(page.getByLabel(`Order of ${a.title}`)).toHaveValue('1');
  await expect(page.getByLabel(`Order of ${b.title}`)).toHaveValue('2');
  const renamed = `${title} (renamed)`;
  await page.getByLabel('Title').fill(renamed);
  await page.getByRole('button', { name: 'Save collection' }).last().click();
  await page.waitForURL(new RegExp(`/juniperlane/collection/${id}$`));
  await expect(page.getByRole('heading', { level: 1, name: renamed })).toBeVisible();
  await expectOrder(page, a.title, b.title);
  const saved = await collectionItemIds(request, token, id);
  expect(saved.title).toBe(renamed);
  expect(saved.items.data.map((item) => item._id)).toEqual([a._id, b._id]);

  // A subscribed fan sees it.
  const fanContext = await browser.newContext({ baseURL: webBase });
  const fanPage = await fanContext.newPage();
  await signInAs(fanContext, request, FAN);
  await fanPage.goto(`/${ARTIST.username}/collection/${id}`);
  await expect(fanPage.getByRole('heading', { level: 1, name: renamed })).toBeVisible();
  await expectOrder(fanPage, a.title, b.title);
  // Its filters offer only the categories it holds ("All" beside them).
  const held = [...new Set([a.type, b.type])].sort();
  expect(saved.types).toEqual(held);
  const vaultHeld = held.filter((type) => (VAULT_CATEGORIES as readonly string[]).includes(type));
  await expect(fanPage.getByRole('navigation', { name: 'Categories' }).getByRole('link')).toHaveCount(1 + vaultHeld.length);
  await expectNoA11yViolations(fanPage);
  // The artist's pages are not the fan's.
  const refused = await fanPage.goto(`/${ARTIST.username}/account/collections`);
  expect(refused?.status()).toBe(404);
  await fanContext.close();

  // Delete: the collection goes, the items stay.
  await page.goto(`/${ARTIST.username}/account/collections/${id}/edit`);
  await page.getByRole('button', { name: 'Delete collection' }).click();
  await page.waitForURL(/\/juniperlane\/account\/collections\?deleted=true$/);
  await expect(page.getByRole('status')).toHaveText('Collection deleted. Its items are kept.');
  await expect(page.getByRole('link', { name: renamed, exact: true })).toHaveCount(0);
  const gone = await request.get(`${apiBase}/collections/${id}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(gone.status()).toBe(404);
  const kept = await request.get(`${apiBase}/content/${a._id}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(kept.status()).toBe(200);
  await context.close();
});

test('without JavaScript: the empty-title message, a collection of two items in order, a move', async ({ browser, request }) => {
  const context = await browser.newContext({ baseURL: webBase, javaScriptEnabled: false });
  const page = await context.newPage();
  const token = await signInAs(context, request, ARTIST);
  const [a, b] = await twoItems(request, token);
  await page.goto(`/${ARTIST.username}/account/collections/new`);
  await page.getByRole('button', { name: 'Create collection' }).last().click();
  await expect(page.getByText('Please enter a title for your collection.')).toBeVisible();
  await expectNoA11yViolations(page);
  const title = uniqueName('No-JS set');
  await page.getByLabel('Title').fill(title);
  await page.locator(`#item-${a._id}`).check();
  await page.locator(`#item-${b._id}`).check();
  // b first, then a, by their order numbers.
  await page.getByLabel(`Order of ${a.title}`).fill('2');
  await page.getByLabel(`Order of ${b.title}`).fill('1');
  await page.getByRole('button', { name: 'Create collection' }).last().click();
  await page.waitForURL(/\/juniperlane\/collection\/[^/]+$/);
  const id = collectionId(page);
  await expectOrder(page, b.title, a.title);
  expect((await collectionItemIds(request, token, id)).items.data.map((item) => item._id)).toEqual([b._id, a._id]);
  // The move buttons are plain submits: the form comes back in the new order, then saves it.
  await page.goto(`/${ARTIST.username}/account/collections/${id}/edit`);
  await page.getByRole('button', { name: `Move ${a.title} up` }).click();
  await expect(page.getByLabel(`Order of ${a.title}`)).toHaveValue('1');
  await expect(page.getByLabel(`Order of ${b.title}`)).toHaveValue('2');
  await expectNoA11yViolations(page);
  await page.getByRole('button', { name: 'Save collection' }).last().click();
  await page.waitForURL(new RegExp(`/juniperlane/collection/${id}$`));
  expect((await collectionItemIds(request, token, id)).items.data.map((item) => item._id)).toEqual([a._id, b._id]);
  await request.delete(`${apiBase}/collections/${id}`, { headers: { Authorization: `Bearer ${token}` } });
  await context.close();
});

test('editing a collection of more than 100 items keeps every one, the oldest too, without JavaScript', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const artist = await newArtist(request, '0');
  const ids: string[] = [];
  // 105 items: a page of the collection holds 100, and the pickable list the newest 100; none may be lost on save.
  for (let i = 0; i < 105; i++) {
    const item = await apiCall<Item>(request, 'POST', '/content', {
      token: artist.token,
      data: { title: `Archive ${i}`, content: 'Words', tags: 'post' },
    });
    ids.push(item._id);
  }
  const created = await apiCall<{ _id: string }>(request, 'POST', '/collections', {
    token: artist.token,
    data: { title: 'Everything', description: '', itemIds: ids },
  });
  const context = await signedIn(browser, artist.token, { javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`/${artist.username}/account/collections/${created._id}/edit`);
  // A page of them at a time; the rest ride along in the form.
  await expect(page.getByText('1–24 of the 105 items in this collection')).toBeVisible();
  await expect(page.locator('input[name="item"]:checked')).toHaveCount(24);
  await page.getByLabel('Title').fill('Everything, renamed');
  // The second page: its first item moves up onto the first page, across the page's edge.
  const chosenPages = page.getByRole('group', { name: 'Pages of the chosen items' });
  await chosenPages.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByText('25–48 of the 105 items in this collection')).toBeVisible();
  await expect(page.getByLabel('Title')).toHaveValue('Everything, renamed');
  await page.getByRole('button', { name: 'Move Archive 24 up', exact: true }).click();
  await expect(page.getByLabel('Order of Archive 23', { exact: true })).toHaveValue('25');
  await chosenPages.getByRole('button', { name: 'Previous page' }).click();
  await expect(page.getByLabel('Order of Archive 24', { exact: true })).toHaveValue('24');
  [ids[23], ids[24]] = [ids[24], ids[23]];
  await page.getByRole('button', { name: 'Save collection' }).last().click();
  await page.waitForURL(new RegExp(`/${artist.username}/collection/${created._id}$`));
  const saved: string[] = [];
  for (let offset = 0; offset < 105; offset += 100) {
    const detail = await apiCall<{ title: string; items: { data: Item[]; total: number } }>(
      request,
      'GET',
      `/collections/${created._id}?limit=100&offset=${offset}`,
      { token: artist.token },
    );
    expect(detail.title).toBe('Everything, renamed');
    expect(detail.items.total).toBe(105);
    saved.push(...detail.items.data.map((item) => item._id));
  }
  expect(saved).toEqual(ids);
  await context.close();
});

test('the studio lists collections 24 a page, newest first; the next page has the rest, without JavaScript', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const artist = await newArtist(request, '0');
  const item = await apiCall<Item>(request, 'POST', '/content', {
    token: artist.token,
    data: { title: 'Paged', content: 'Words', tags: 'post' },
  });
  for (let i = 1; i <= 26; i++) {
    await apiCall(request, 'POST', '/collections', {
      token: artist.token,
      data: { title: `Shelf ${i}`, description: '', itemIds: [item._id] },
    });
  }
  const context = await signedIn(browser, artist.token, { javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`/${artist.username}/account/collections`);
  const pager = page.getByRole('navigation', { name: 'Pages of your collections' });
  await expect(pager).toContainText('1–24 of 26');
  await expect(page.getByRole('link', { name: 'Shelf 26', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Shelf 2', exact: true })).toHaveCount(0);
  await pager.getByRole('link', { name: 'Next page' }).click();
  await page.waitForURL(new RegExp(`/${artist.username}/account/collections\\?offset=24$`));
  await expect(pager).toContainText('25–26 of 26');
  await expect(page.getByRole('link', { name: 'Shelf 1', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Shelf 2', exact: true })).toBeVisible();
  await pager.getByRole('link', { name: 'Previous page' }).click();
  await page.waitForURL(new RegExp(`/${artist.username}/account/collections$`));
  await context.close();
});

for (const javaScriptEnabled of [false, true]) {
  test(`the picker shows 24 items a page with a search; what is typed and ticked on each page is kept, ${javaScriptEnabled ? 'with' : 'without'} JavaScript`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(180_000);
    const artist = await newArtist(request, '0');
    const songs: Item[] = [];
    for (let i = 0; i < 30; i++) {
      songs.push(
        await apiCall<Item>(request, 'POST', '/content', {
          token: artist.token,
          data: { title: `Song ${i}`, content: 'Words', tags: 'post' },
        }),
      );
    }
    const harbour = await apiCall<Item>(request, 'POST', '/content', {
      token: artist.token,
      data: { title: 'Harbour lights', content: 'Words', tags: 'post', draft: true },
    });
    const context = await signedIn(browser, artist.token, { javaScriptEnabled });
    const page = await context.newPage();
    await page.goto(`/${artist.username}/account/collections/new`);
    const picker = page.getByRole('region', { name: 'Add items' });
    await expect(picker.getByRole('status')).toHaveText('1–24 of 31');
    await expect(picker.getByText('Harbour lights', { exact: true })).toBeVisible();
    await expect(picker.getByText('Song 0', { exact: true })).toHaveCount(0);
    await page.getByLabel('Title').fill('Picked by hand');
    await page.getByLabel('Description (optional)').fill('From every page.');
    await page.locator(`#item-${songs[29]._id}`).check();

    // The next page: what was ticked joins the collection above, the title and description stay.
    await picker.getByRole('button', { name: 'Next page' }).click();
    await expect(picker.getByRole('status')).toHaveText('25–31 of 31');
    await expect(page.getByLabel('Title')).toHaveValue('Picked by hand');
    await expect(page.getByLabel('Description (optional)')).toHaveValue('From every page.');
    const chosen = page.getByRole('list', { name: 'In this collection' });
    await expect(chosen.getByLabel(`Order of Song 29`)).toHaveValue('1');
    await expectNoA11yViolations(page);
    await page.locator(`#item-${songs[0]._id}`).check();

    // Enter in the search box searches (without JavaScript the form's default button, save, is pressed: the action
    // sees new words in the box): the drafts are found too.
    await picker.getByLabel('Search your items').fill('harbour');
    await picker.getByLabel('Search your items').press('Enter');
    await expect(picker.getByRole('status')).toHaveText('1–1 of 1 matching “harbour”');
    await expect(chosen.getByLabel('Order of Song 0')).toHaveValue('2');
    await page.locator(`#item-${harbour._id}`).check();
    await picker.getByRole('button', { name: 'Search' }).click();
    // A chosen item shows in the picker without a box of its own: it is ticked above.
    await expect(picker.getByText('In the collection')).toBeVisible();
    await expect(chosen.getByLabel('Order of Harbour lights')).toHaveValue('3');

    await page.getByRole('button', { name: 'Create collection' }).last().click();
    await page.waitForURL(new RegExp(`/${artist.username}/collection/[^/]+$`));
    const saved = await collectionItemIds(request, artist.token, collectionId(page));
    expect(saved.title).toBe('Picked by hand');
    expect(saved.items.data.map((item) => item._id)).toEqual([songs[29]._id, songs[0]._id, harbour._id]);
    await context.close();
  });
}
