import { expect, test } from '@playwright/test';
import { apiBase, logIn, registerFan, routeFiles, routePattern, signIn, webBase } from './helpers';

/**
 * The web routes' access matrix: every page route of app/routes, requested as each role, answers
 * what its row here says: a status, or a redirect to where that role belongs. A route file
 * without a row here fails the first test, so a new page cannot ship without deciding who may see it.
 *
 * The artist is the seeded free artist (juniperlane); "other artist" is the seeded Nova Ricci.
 */
type Role = 'anonymous' | 'fan' | 'subscriber' | 'owner' | 'otherArtist';
/** A status, or '→ /path' for a redirect whose Location starts with that path. */
type Outcome = number | `→ ${string}`;
type Row = { path: string } & Record<Role, Outcome>;

const A = 'juniperlane';
const toLogout = '→ /logout?next=';
/** Routes that answer data rather than a page: nothing there to hydrate. */
const RESOURCE_ROUTES = new Set([
  '/notifications/push',
  '/:artistUsername/account/earnings.csv',
  '/:artistUsername/vault/:id/captions.vtt',
  '/account/export.json',
  '/offline/check',
]);

/** Filled in beforeAll: ids of things that exist. */
const ids = { item: '', collection: '', conversation: '' };

const ROWS: Record<string, Row> = {
  '/': { path: '/', anonymous: 200, fan: 200, subscriber: 200, owner: 200, otherArtist: 200 },
  // Signed in, /login goes on to /discover (or to ?artist=, not given here), which sends each role on from there.
  '/login': {
    path: '/login',
    anonymous: 200,
    fan: '→ /discover',
    subscriber: '→ /discover',
    owner: '→ /discover',
    otherArtist: '→ /discover',
  },
  '/password/reset': { path: '/password/reset?token=nope', anonymous: 200, fan: 200, subscriber: 200, owner: 200, otherArtist: 200 },
  '/password/reset/request': { path: '/password/reset/request', anonymous: 200, fan: 200, subscriber: 200, owner: 200, otherArtist: 200 },
  '/password/reset/request/success': {
    path: '/password/reset/request/success',
    anonymous: 200,
    fan: 200,
    subscriber: 200,
    owner: 200,
    otherArtist: 200,
  },
  // The artist may look at their own landing page as fans see it.
  '/:artistUsername/join': { path: `/${A}/join`, anonymous: 200, fan: 200, subscriber: `→ /${A}`, owner: 200, otherArtist: 200 },
  '/:artistUsername/join/join': {
    path: `/${A}/join/join`,
    anonymous: `→ /${A}/subscribe/register`,
    fan: `→ /${A}/subscribe/register`,
    subscriber: `→ /${A}`,
    owner: `→ /${A}`,
    otherArtist: `→ /${A}/subscribe/register`,
  },
  '/:artistUsername/subscribe': {
    path: `/${A}/subscribe`,
    anonymous: `→ /${A}/subscribe/register`,
    fan: `→ /${A}/subscribe/register`,
    subscriber: `→ /${A}`,
    owner: `→ /${A}`,
    otherArtist: `→ /${A}/subscribe/register`,
  },
  '/:artistUsername/subscribe/register': {
    path: `/${A}/subscribe/register`,
    anonymous: 200,
    fan: `→ /${A}/subscribe/payment`,
    subscriber: `→ /${A}`,
    owner: `→ /${A}`,
    otherArtist: `→ /${A}/subscribe/payment`,
  },
  // The card provider's return page: without its session id there is nothing to confirm, so back to payment
  // (which sends each role on from there).
  '/:artistUsername/subscribe/confirm': {
    path: `/${A}/subscribe/confirm`,
    anonymous: toLogout,
    fan: `→ /${A}/subscribe/payment`,
    subscriber: `→ /${A}/subscribe/payment`,
    owner: `→ /${A}/subscribe/payment`,
    otherArtist: `→ /${A}/subscribe/payment`,
  },
  '/discover': { path: '/discover', anonymous: toLogout, fan: 200, subscriber: `→ /${A}`, owner: `→ /${A}`, otherArtist: '→ /novaricci' },
  '/messages': {
    path: '/messages',
    anonymous: toLogout,
    fan: '→ /discover',
    subscriber: `→ /${A}/account/messages`,
    owner: `→ /${A}/account/messages`,
    otherArtist: '→ /novaricci/account/messages',
  },
  // Notifications: the fan's list; an artist, told of nothing, finds it empty. /notifications/push is the
  // push button's data (JSON), not a page.
  '/notifications': { path: '/notifications', anonymous: toLogout, fan: 200, subscriber: 200, owner: 200, otherArtist: 200 },
  '/notifications/push': { path: '/notifications/push', anonymous: toLogout, fan: 200, subscriber: 200, owner: 200, otherArtist: 200 },
  // Account settings: every signed-in user's own; the data download is a file, not a page. The email link
  // and the page after deleting an account are open to all (the link may be opened signed out; the token decides).
  '/account': { path: '/account', anonymous: toLogout, fan: 200, subscriber: 200, owner: 200, otherArtist: 200 },
  '/account/memberships': { path: '/account/memberships', anonymous: toLogout, fan: 200, subscriber: 200, owner: 200, otherArtist: 200 },
  '/account/export.json': { path: '/account/export.json', anonymous: toLogout, fan: 200, subscriber: 200, owner: 200, otherArtist: 200 },
  // The service worker's access check of saved tracks (docs/listening.md "Offline"): JSON for anyone, nobody's
  // items playable when signed out.
  '/offline/check': { path: '/offline/check?id={item}', anonymous: 200, fan: 200, subscriber: 200, owner: 200, otherArtist: 200 },
  '/account/email/confirm': {
    path: '/account/email/confirm?token=nope',
    anonymous: 200,
    fan: 200,
    subscriber: 200,
    owner: 200,
    otherArtist: 200,
  },
  '/account/deleted': { path: '/account/deleted', anonymous: 200, fan: 200, subscriber: 200, owner: 200, otherArtist: 200 },
  '/lite': { path: '/lite', anonymous: '→ /', fan: '→ /', subscriber: '→ /', owner: '→ /', otherArtist: '→ /' },
  // An artist is sent from unsubscribed-only pages to their own page.
  '/:artistUsername/subscribe/payment': {
    path: `/${A}/subscribe/payment`,
    anonymous: toLogout,
    fan: 200,
    subscriber: `→ /${A}`,
    owner: `→ /${A}`,
    otherArtist: '→ /novaricci',
  },
  '/:artistUsername': {
    path: `/${A}`,
    anonymous: toLogout,
    fan: `→ /${A}/subscribe`,
    subscriber: 200,
    owner: 200,
    otherArtist: `→ /${A}/subscribe`,
  },
  '/:artistUsername/vault': {
    path: `/${A}/vault`,
    anonymous: toLogout,
    fan: `→ /${A}/subscribe`,
    subscriber: 200,
    owner: 200,
    otherArtist: `→ /${A}/subscribe`,
  },
  '/:artistUsername/vault/:id': {
    path: `/${A}/vault/{item}`,
    anonymous: toLogout,
    fan: `→ /${A}/subscribe`,
    subscriber: 200,
    owner: 200,
    otherArtist: `→ /${A}/subscribe`,
  },
  // A resource route (a video's captions): the api's rule, and this item has no transcript (listening.spec.ts has one).
  '/:artistUsername/vault/:id/captions.vtt': {
    path: `/${A}/vault/{item}/captions.vtt`,
    anonymous: toLogout,
    fan: 404,
    subscriber: 404,
    owner: 404,
    otherArtist: 404,
  },
  '/:artistUsername/collection/:id': {
    path: `/${A}/collection/{collection}`,
    anonymous: toLogout,
    fan: `→ /${A}/subscribe`,
    subscriber: 200,
    owner: 200,
    otherArtist: `→ /${A}/subscribe`,
  },
  '/:artistUsername/posts': {
    path: `/${A}/posts`,
    anonymous: toLogout,
    fan: `→ /${A}/subscribe`,
    subscriber: 200,
    owner: 200,
    otherArtist: `→ /${A}/subscribe`,
  },
  '/:artistUsername/subscribe/success': {
    path: `/${A}/subscribe/success`,
    anonymous: toLogout,
    fan: `→ /${A}/subscribe`,
    subscriber: 200,
    owner: 200,
    otherArtist: `→ /${A}/subscribe`,
  },
  '/:artistUsername/account': {
    path: `/${A}/account`,
    anonymous: toLogout,
    fan: `→ /${A}/subscribe`,
    subscriber: 200,
    owner: 200,
    otherArtist: `→ /${A}/subscribe`,
  },
  '/:artistUsername/account/bookmarks': {
    path: `/${A}/account/bookmarks`,
    anonymous: toLogout,
    fan: `→ /${A}/subscribe`,
    subscriber: 200,
    owner: 200,
    otherArtist: `→ /${A}/subscribe`,
  },
  '/:artistUsername/account/messages': {
    path: `/${A}/account/messages`,
    anonymous: toLogout,
    fan: `→ /${A}/subscribe`,
    subscriber: 200,
    owner: 200,
    otherArtist: `→ /${A}/subscribe`,
  },
  '/:artistUsername/account/messages/:conversationId': {
    path: `/${A}/account/messages/{conversation}?username=${A}`,
    anonymous: toLogout,
    fan: `→ /${A}/subscribe`,
    subscriber: 200,
    owner: 200,
    otherArtist: `→ /${A}/subscribe`,
  },
  '/:artistUsername/account/create-text': {
    path: `/${A}/account/create-text`,
    anonymous: toLogout,
    fan: `→ /${A}/subscribe`,
    subscriber: 404,
    owner: 200,
    otherArtist: `→ /${A}/subscribe`,
  },
  '/:artistUsername/account/create-text-success': {
    path: `/${A}/account/create-text-success?id={item}`,
    anonymous: toLogout,
    fan: `→ /${A}/subscribe`,
    subscriber: 404,
    owner: 200,
    otherArtist: `→ /${A}/subscribe`,
  },
  '/:artistUsername/account/create-image': {
    path: `/${A}/account/create-image`,
    anonymous: toLogout,
    fan: `→ /${A}/subscribe`,
    subscriber: 404,
    owner: 200,
    otherArtist: `→ /${A}/subscribe`,
  },
  '/:artistUsername/account/add-to-vault': {
    path: `/${A}/account/add-to-vault`,
    anonymous: toLogout,
    fan: `→ /${A}/subscribe`,
    subscriber: 404,
    owner: 200,
    otherArtist: `→ /${A}/subscribe`,
  },
  '/:artistUsername/account/content': {
    path: `/${A}/account/content`,
    anonymous: toLogout,
    fan: `→ /${A}/subscribe`,
    subscriber: 404,
    owner: 200,
    otherArtist: `→ /${A}/subscribe`,
  },
  '/:artistUsername/account/content/:id/edit': {
    path: `/${A}/account/content/{item}/edit`,
    anonymous: toLogout,
    fan: `→ /${A}/subscribe`,
    subscriber: 404,
    owner: 200,
    otherArtist: `→ /${A}/subscribe`,
  },
  '/:artistUsername/account/earnings': {
    path: `/${A}/account/earnings`,
    anonymous: toLogout,
    fan: `→ /${A}/subscribe`,
    subscriber: 404,
    owner: 200,
    otherArtist: `→ /${A}/subscribe`,
  },
  // Anyone signed in may give a year of a club (the page says when it cannot: a free club, one's own).
  '/:artistUsername/gift': {
    path: `/${A}/gift`,
    anonymous: toLogout,
    fan: 200,
    subscriber: 200,
    owner: 200,
    otherArtist: 200,
  },
  '/:artistUsername/gift/sent': {
    path: `/${A}/gift/sent?payment=nope`,
    anonymous: toLogout,
    fan: 404,
    subscriber: 404,
    owner: 404,
    otherArtist: 404,
  },
  // A gift's link, with or without an account: an unknown token is not found for everyone.
  '/gift/:token': { path: '/gift/not-a-real-gift-token-000000', anonymous: 404, fan: 404, subscriber: 404, owner: 404, otherArtist: 404 },
  '/:artistUsername/account/promos': {
    path: `/${A}/account/promos`,
    anonymous: toLogout,
    fan: `→ /${A}/subscribe`,
    subscriber: 404,
    owner: 200,
    otherArtist: `→ /${A}/subscribe`,
  },
  '/:artistUsername/account/moderation': {
    path: `/${A}/account/moderation`,
    anonymous: toLogout,
    fan: `→ /${A}/subscribe`,
    subscriber: 404,
    owner: 200,
    otherArtist: `→ /${A}/subscribe`,
  },
  // The confirmation of a block: only the artist's, and an unknown fan is not found.
  '/:artistUsername/account/moderation/block/:fanId': {
    path: `/${A}/account/moderation/block/no-such-fan`,
    anonymous: toLogout,
    fan: `→ /${A}/subscribe`,
    subscriber: 404,
    owner: 404,
    otherArtist: `→ /${A}/subscribe`,
  },
  // A fan's report of a comment or message in the club: members (and the artist) reach the form.
  '/:artistUsername/account/report': {
    path: `/${A}/account/report?kind=comment&id=some-comment`,
    anonymous: toLogout,
    fan: `→ /${A}/subscribe`,
    subscriber: 200,
    owner: 200,
    otherArtist: `→ /${A}/subscribe`,
  },
  // Operators only: everyone else is told nothing is there.
  '/operator': { path: '/operator', anonymous: toLogout, fan: 404, subscriber: 404, owner: 404, otherArtist: 404 },
  // The first-run setup: this install has accounts, so its first two steps exist for nobody; the art and the last
  // step are any artist's.
  '/setup': { path: '/setup', anonymous: 404, fan: 404, subscriber: 404, owner: 404, otherArtist: 404 },
  '/setup/club': { path: '/setup/club', anonymous: 404, fan: 404, subscriber: 404, owner: 404, otherArtist: 404 },
  '/setup/art': { path: '/setup/art', anonymous: 404, fan: 404, subscriber: 404, owner: 200, otherArtist: 200 },
  '/setup/payouts': { path: '/setup/payouts', anonymous: 404, fan: 404, subscriber: 404, owner: 200, otherArtist: 200 },
  // A resource route (the CSV): the same answers as the page.
  '/:artistUsername/account/earnings.csv': {
    path: `/${A}/account/earnings.csv`,
    anonymous: toLogout,
    fan: `→ /${A}/subscribe`,
    subscriber: 404,
    owner: 200,
    otherArtist: `→ /${A}/subscribe`,
  },
  '/:artistUsername/account/collections': {
    path: `/${A}/account/collections`,
    anonymous: toLogout,
    fan: `→ /${A}/subscribe`,
    subscriber: 404,
    owner: 200,
    otherArtist: `→ /${A}/subscribe`,
  },
  '/:artistUsername/account/collections/new': {
    path: `/${A}/account/collections/new`,
    anonymous: toLogout,
    fan: `→ /${A}/subscribe`,
    subscriber: 404,
    owner: 200,
    otherArtist: `→ /${A}/subscribe`,
  },
  '/:artistUsername/account/collections/:id/edit': {
    path: `/${A}/account/collections/{collection}/edit`,
    anonymous: toLogout,
    fan: `→ /${A}/subscribe`,
    subscriber: 404,
    owner: 200,
    otherArtist: `→ /${A}/subscribe`,
  },
  // Last: a GET of /logout ends the session it carries.
  '/logout': {
    path: '/logout',
    anonymous: '→ /login',
    fan: '→ /login',
    subscriber: '→ /login',
    owner: '→ /login',
    otherArtist: '→ /login',
  },
  '/*': { path: '/no/such/page/here', anonymous: 404, fan: 404, subscriber: 404, owner: 404, otherArtist: 404 },
};

const tokens: Partial<Record<Role, string>> = {};

const address = (row: Row) =>
  row.path.replace('{item}', ids.item).replace('{collection}', ids.collection).replace('{conversation}', ids.conversation);

test.beforeAll(async ({ request }) => {
  const fan = await registerFan(request);
  const subscriber = await registerFan(request);
  tokens.fan = fan.token;
  tokens.subscriber = subscriber.token;
  tokens.owner = await logIn(request, 'juniper@stagedoor.test', 'Stagedoor-artist-2026!');
  tokens.otherArtist = await logIn(request, 'nova@stagedoor.test', 'Stagedoor-artist-2026!');
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const artist = (await (await request.get(`${apiBase}/performers/${A}`, { headers: auth(subscriber.token) })).json()).data;
  const subscribed = await request.post(`${apiBase}/payment/subscribe/performers`, {
    headers: auth(subscriber.token),
    data: { type: 'free', performerId: artist._id },
  });
  expect(subscribed.status(), await subscribed.text()).toBeLessThan(300);
  const items = (await (await request.get(`${apiBase}/performers/${A}/content?limit=1`, { headers: auth(tokens.owner) })).json()).data.data;
  const collections = (await (await request.get(`${apiBase}/performers/${A}/collections`, { headers: auth(tokens.owner) })).json()).data
    .data;
  const conversation = (
    await (
      await request.post(`${apiBase}/conversations`, {
        headers: auth(subscriber.token),
        data: { source: 'performer', sourceId: artist._id },
      })
    ).json()
  ).data;
  ids.item = items[0]._id;
  ids.collection = collections[0]._id;
  ids.conversation = conversation._id;
});

test('every page route has a row in the matrix', () => {
  const pages = routeFiles().map(routePattern);
  expect(pages.filter((pattern) => !(pattern in ROWS))).toEqual([]);
  expect(Object.keys(ROWS).filter((pattern) => !pages.includes(pattern))).toEqual([]);
});

for (const role of ['anonymous', 'fan', 'subscriber', 'owner', 'otherArtist'] as const) {
  test(`as ${role}, every page answers what its role may see`, async ({ playwright }) => {
    const context = await playwright.request.newContext({
      baseURL: webBase,
      maxRedirects: 0,
      extraHTTPHeaders: tokens[role] ? { Cookie: `stagedoor=${tokens[role]}` } : {},
    });
    const outcomes: string[] = [];
    for (const [pattern, row] of Object.entries(ROWS)) {
      const url = address(row);
      const response = await context.get(url, { headers: { 'Sec-Fetch-Site': 'same-origin' } });
      const location = response.headers()['location'];
      const actual = response.status() >= 300 && response.status() < 400 ? `→ ${location}` : String(response.status());
      const expected = row[role];
      const ok = typeof expected === 'number' ? actual === String(expected) : actual.startsWith(expected);
      if (!ok) outcomes.push(`${pattern} (${url}): expected ${expected}, got ${actual}`);
    }
    await context.dispose();
    expect(outcomes).toEqual([]);
  });
}

/**
 * Loaders hand their own objects to the server's render and a JSON copy to the browser (decision 009), so data
 * that JSON changes (a Date, a Map) would render differently in each. React reports that on hydration; here every
 * page a role may see is loaded in Chromium and left to hydrate, and any error the page reports fails the test.
 */
for (const role of ['anonymous', 'subscriber', 'owner'] as const) {
  test(`as ${role}, every page it may see hydrates without an error`, async ({ browser }) => {
    const context = await browser.newContext();
    const token = tokens[role];
    if (token) await signIn(context, token);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && /react|hydrat/i.test(message.text())) errors.push(`${page.url()}: ${message.text()}`);
    });
    for (const [pattern, row] of Object.entries(ROWS)) {
      if (typeof row[role] !== 'number' || pattern === '/logout' || RESOURCE_ROUTES.has(pattern)) continue;
      await page.goto(address(row));
      // Hydrated: React has claimed the footer, the last part of every page (or the main column, on a page without a
      // footer: a conversation); then a moment for its reports.
      await page.waitForFunction(() => {
        const last = document.querySelector('footer') ?? document.querySelector('main');
        return last !== null && Object.keys(last).some((key) => key.startsWith('__reactFiber$'));
      });
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
    }
    await context.close();
    expect(errors).toEqual([]);
  });
}
