import { expect, test, type APIRequestContext } from '@playwright/test';
import fc from 'fast-check';
import fs from 'node:fs';
import path from 'node:path';
import { apiBase, privateAddress, registerFan, routeFiles, routePattern, uniqueName, webBase } from './helpers';

/**
 * Hostile input to the web app's route actions: every form a page posts to, sent arbitrary fields
 * (known intents and ids among them, so the property reaches past the first check), unicode edge cases, path
 * tricks and huge values, as the role that may use the form. The answer is a page below 500 (a 4xx with the
 * form's message, a redirect, or success) and comes within 10 s. A route file
 * with an action and no row here fails the first test.
 *
 * Two artists of its own (made through the operator endpoint, so no other test's pages change): a free one whose
 * club the subscriber joined, and a paid one whose payment step the fan reaches.
 */
type Role = 'anonymous' | 'fan' | 'subscriber' | 'owner';
interface Target {
  path: string;
  role: Role;
}

const world = {
  free: '',
  paid: '',
  item: '',
  pollId: '',
  answerId: '',
  comment: '',
  conversation: '',
  collection: '',
  subscription: '',
  subscriberId: '',
};
const tokens: Partial<Record<Role, string>> = {};

const ROWS: Record<string, () => Target[]> = {
  '/login': () => [{ path: '/login', role: 'anonymous' }],
  // As anonymous: a signed-in post would end the session the other rows use.
  '/logout': () => [{ path: '/logout', role: 'anonymous' }],
  '/lite': () => [{ path: '/lite', role: 'anonymous' }],
  '/*': () => [{ path: '/no/such/page', role: 'subscriber' }],
  '/password/reset': () => [{ path: '/password/reset?token=not-a-real-token', role: 'anonymous' }],
  '/password/reset/request': () => [{ path: '/password/reset/request', role: 'anonymous' }],
  '/:artistUsername/subscribe/register': () => [
    { path: `/${world.paid}/subscribe/register`, role: 'anonymous' },
    { path: `/${world.paid}/subscribe/register?edit=true`, role: 'fan' },
  ],
  '/:artistUsername/subscribe/payment': () => [{ path: `/${world.paid}/subscribe/payment`, role: 'fan' }],
  '/:artistUsername': () => [{ path: `/${world.free}`, role: 'subscriber' }],
  '/notifications': () => [{ path: '/notifications', role: 'subscriber' }],
  '/notifications/push': () => [{ path: '/notifications/push', role: 'subscriber' }],
  '/:artistUsername/posts': () => [{ path: `/${world.free}/posts`, role: 'subscriber' }],
  '/:artistUsername/vault/:id': () => [
    { path: `/${world.free}/vault/${world.item}?type=post&from=posts`, role: 'subscriber' },
    { path: `/${world.free}/vault/${world.item}?type=post&from=posts`, role: 'owner' },
  ],
  '/:artistUsername/account': () => [
    { path: `/${world.free}/account`, role: 'subscriber' },
    { path: `/${world.free}/account`, role: 'owner' },
  ],
  '/:artistUsername/account/messages': () => [{ path: `/${world.free}/account/messages?index`, role: 'subscriber' }],
  '/:artistUsername/account/messages/:conversationId': () => [
    { path: `/${world.free}/account/messages/${world.conversation}?username=${world.free}`, role: 'subscriber' },
  ],
  '/:artistUsername/account/create-text': () => [{ path: `/${world.free}/account/create-text`, role: 'owner' }],
  '/:artistUsername/account/create-image': () => [{ path: `/${world.free}/account/create-image`, role: 'owner' }],
  '/:artistUsername/account/add-to-vault': () => [{ path: `/${world.free}/account/add-to-vault`, role: 'owner' }],
  '/:artistUsername/account/content/:id/edit': () => [{ path: `/${world.free}/account/content/${world.item}/edit`, role: 'owner' }],
  '/:artistUsername/account/earnings': () => [{ path: `/${world.free}/account/earnings`, role: 'owner' }],
  '/:artistUsername/account/promos': () => [{ path: `/${world.free}/account/promos`, role: 'owner' }],
  '/:artistUsername/account/moderation': () => [{ path: `/${world.free}/account/moderation`, role: 'owner' }],
  '/:artistUsername/account/moderation/block/:fanId': () => [
    { path: `/${world.free}/account/moderation/block/${world.subscriberId}`, role: 'owner' },
  ],
  '/:artistUsername/account/report': () => [
    { path: `/${world.free}/account/report?kind=comment&id=${world.comment}`, role: 'subscriber' },
    { path: `/${world.free}/account/report?kind=message&id=${world.conversation}`, role: 'subscriber' },
  ],
  // As a fan who is no operator: the page refuses, and no field reaches past that to a 500.
  '/operator': () => [{ path: '/operator', role: 'fan' }],
  // The setup of an install that has accounts: the api refuses both steps, whatever the fields say.
  '/setup': () => [{ path: '/setup', role: 'anonymous' }],
  '/setup/club': () => [{ path: '/setup/club', role: 'fan' }],
  // The art step is any artist's: no field it does not expect, and no file that is not an image, gets past it.
  '/setup/art': () => [{ path: '/setup/art', role: 'owner' }],
  '/:artistUsername/gift': () => [{ path: `/${world.paid}/gift`, role: 'fan' }],
  '/gift/:token': () => [
    { path: '/gift/not-a-real-gift-token-000000', role: 'anonymous' },
    { path: '/gift/not-a-real-gift-token-000000', role: 'fan' },
  ],
  // Account settings: the fan's own; random passwords never match, so nothing is deleted or mailed.
  '/account': () => [{ path: '/account', role: 'fan' }],
  '/account/memberships': () => [{ path: '/account/memberships', role: 'subscriber' }],
  '/account/email/confirm': () => [{ path: '/account/email/confirm?token=not-a-real-token', role: 'anonymous' }],
  '/:artistUsername/account/collections/new': () => [{ path: `/${world.free}/account/collections/new`, role: 'owner' }],
  '/:artistUsername/account/collections/:id/edit': () => [
    { path: `/${world.free}/account/collections/${world.collection}/edit`, role: 'owner' },
  ],
};

const INTENTS = [
  'vote',
  'unvote',
  'comment',
  'delete-comment',
  'bookmark',
  'revoke-code',
  'auto-renew',
  'images',
  'profile',
  'free',
  'checkout',
  'stripe-card',
  'start',
  'send',
  'delete',
  'save',
  'dialog',
  'open',
  'read-all',
  'notifications',
  'subscribe',
  'unsubscribe',
  'name',
  'avatar',
  'remove-avatar',
  'email',
  'password',
];
const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  // conform intents that name a field that is no list, a path it refuses, an index far past the end.
  fc.constantFrom(
    '{"type":"insert","payload":{"name":"title"}}',
    '{"type":"update","payload":{"name":"__proto__.x","value":1}}',
    '{"type":"remove","payload":{"name":"poll.answers","index":99999999}}',
  ),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    '\u202e',
    '\ufeff',
    '💥'.repeat(200),
    'x'.repeat(5000),
    '../../etc/passwd',
    '%2e%2e%2f',
    '..',
    '//evil.example',
    'javascript:alert(1)',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    '-1',
    '1e309',
    'NaN',
    '[]',
    '{}',
    'true',
  ),
);
/** Field values: hostile text, or one of this world's real ids so the action gets as far as the api. */
const value = fc.oneof(
  nasty,
  fc.constantFrom(...Object.keys(world)).map((key) => world[key as keyof typeof world]),
);
const FIELDS = [
  'intent',
  'title',
  'content',
  'tags',
  'text',
  'answerId',
  'pollId',
  'itemId',
  'commentId',
  'codeId',
  'subscriptionId',
  'autoRenew',
  'paymentId',
  'amount',
  'reason',
  'keepAccess',
  'requestKey',
  'promoId',
  'discount',
  'value',
  'endsOn',
  'maxUses',
  'recipientEmail',
  'message',
  'number',
  'bookmarked',
  'email',
  'password',
  'confirmPassword',
  'username',
  'usernameOrEmail',
  'currentPassword',
  'confirm',
  'token',
  'redirectTo',
  'artist',
  'promo',
  'lite',
  'poll.enabled',
  'poll.title',
  'poll.answers[0].text',
  'poll.answers[1].text',
  'schedule.enabled',
  'schedule.date',
  'schedule.time',
  'presale.ticketUrl',
  'draft',
  'description',
  'itemIds',
  'name',
  'bio',
  'yearlyPrice',
  'cardNumber',
  'expiry',
  'cvc',
  'messageId',
  'id',
  'to',
  'offset',
  'push',
  'inApp',
  'endpoint',
  'p256dh',
  'auth',
  // conform's reserved fields and list indices: a name like these once made a list of 10⁸ entries (app/utils/form-guard.server.ts).
  '__intent__',
  '__state__',
  'usernameOrEmail[99999999]',
  'poll.answers[99999999].text',
  'itemIds[4000]',
];
const fields = fc.record({
  intent: fc.oneof(fc.constantFrom(...INTENTS), nasty),
  rest: fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 8 }),
});

async function apiCall<T>(
  request: APIRequestContext,
  method: string,
  url: string,
  token: string | undefined,
  data?: unknown,
  headers: Record<string, string> = {},
) {
  const answer = await request.fetch(`${apiBase}${url}`, {
    method,
    data,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
  });
  expect(answer.status(), `${method} ${url}: ${await answer.text()}`).toBeLessThan(300);
  return ((await answer.json()) as { data: T }).data;
}

async function newArtist(request: APIRequestContext, yearlyPrice: string) {
  const adminToken = fs.readFileSync(path.join(process.env.E2E_DATA_DIR ?? '', 'admin-token'), 'utf8').trim();
  const username = uniqueName('hostile');
  const password = 'Hostile-Stage-2026!';
  await apiCall(
    request,
    'POST',
    '/admin/artists',
    undefined,
    { username, email: `${username}@example.com`, password, name: 'Hostile Test', yearlyPrice },
    { 'x-stagedoor-admin-token': adminToken },
  );
  const session = await apiCall<{ token: string }>(
    request,
    'POST',
    '/auth/login',
    undefined,
    { username, password, remember: true },
    { 'X-Forwarded-For': privateAddress() },
  );
  return { username, token: session.token };
}

test.beforeAll(async ({ request }) => {
  const [free, paid, fan, subscriber] = [
    await newArtist(request, '0'),
    await newArtist(request, '5.00'),
    await registerFan(request),
    await registerFan(request),
  ];
  Object.assign(world, { free: free.username, paid: paid.username });
  Object.assign(tokens, { owner: free.token, fan: fan.token, subscriber: subscriber.token });
  const artist = await apiCall<{ _id: string }>(request, 'GET', `/performers/${free.username}`, subscriber.token);
  const me = await apiCall<{ _id: string }>(request, 'GET', '/users/me', subscriber.token);
  const joined = await apiCall<{ subscription: { _id: string } }>(request, 'POST', '/payment/subscribe/performers', subscriber.token, {
    type: 'free',
    performerId: artist._id,
  });
  const post = await apiCall<{ _id: string; poll: { _id: string; answers: { _id: string }[] } }>(request, 'POST', '/content', free.token, {
    title: 'Hostile post',
    content: '<p>Which one?</p>',
    tags: 'poll',
    poll: { enabled: true, title: 'Which?', answers: [{ text: 'A' }, { text: 'B' }] },
  });
  const comment = await apiCall<{ _id: string }>(request, 'POST', `/content/${post._id}/comments`, subscriber.token, { text: 'First' });
  const conversation = await apiCall<{ _id: string }>(request, 'POST', '/conversations', subscriber.token, {
    source: 'performer',
    sourceId: artist._id,
  });
  const collection = await apiCall<{ _id: string }>(request, 'POST', '/collections', free.token, { title: 'Hostile', itemIds: [post._id] });
  Object.assign(world, {
    item: post._id,
    pollId: post.poll._id,
    answerId: post.poll.answers[0]._id,
    comment: comment._id,
    conversation: conversation._id,
    collection: collection._id,
    subscription: joined.subscription._id,
    subscriberId: me._id,
  });
});

test('every route with an action has a row', () => {
  const withAction = routeFiles()
    .filter((file) => /export (async )?(function|const) action\b/.test(fs.readFileSync(path.resolve('app/routes', file), 'utf8')))
    .map(routePattern);
  expect(withAction.filter((pattern) => !(pattern in ROWS))).toEqual([]);
  expect(Object.keys(ROWS).filter((pattern) => !withAction.includes(pattern))).toEqual([]);
});

/** Posts a form as a browser on our own page would (same Origin), from an address of its own (rate limits). */
async function post(request: APIRequestContext, target: Target, form: Record<string, string>, multipart: boolean, file?: Buffer) {
  const headers = {
    Origin: webBase,
    'X-Forwarded-For': privateAddress(),
    ...(tokens[target.role as Exclude<Role, 'anonymous'>]
      ? { Cookie: `stagedoor=${tokens[target.role as Exclude<Role, 'anonymous'>]}` }
      : {}),
  };
  const started = Date.now();
  const response = await request.post(`${webBase}${target.path}`, {
    headers,
    maxRedirects: 0,
    timeout: 10_000,
    ...(multipart
      ? {
          multipart: {
            ...form,
            ...(file
              ? {
                  thumbnail: { name: 'cover.png', mimeType: 'image/png', buffer: file },
                  file: { name: 'song.mp3', mimeType: 'audio/mpeg', buffer: file },
                }
              : {}),
          },
        }
      : { form }),
  });
  const text = await response.text();
  return { status: response.status(), text, ms: Date.now() - started };
}

/**
 * Below 500: a form's own message (400), a not-found or refusal page, a redirect or success. A form no page sends
 * (an unknown intent) may get the generic error page, but with its 4xx status: nothing broke on our side.
 */
function expectClearAnswer(where: string, answer: { status: number; text: string }) {
  expect(answer.status, `${where}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);
}

test('every route action answers arbitrary forms with a page below 500, never a hang', async ({ request }) => {
  test.setTimeout(180_000);
  const targets = Object.values(ROWS).flatMap((row) => row());
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...targets),
      fields,
      fc.boolean(),
      fc.option(fc.uint8Array({ maxLength: 64 }), { nil: undefined }),
      async (target, { intent, rest }, multipart, file) => {
        const form = { ...rest, intent };
        const answer = await post(request, target, form, multipart, file && Buffer.from(file));
        expectClearAnswer(`${target.role} POST ${target.path} ${JSON.stringify(form).slice(0, 300)}`, answer);
      },
    ),
    { numRuns: 120 },
  );
});

/** Bodies no page of ours sends to an action: none at all, text, JSON, bytes, and multipart that is not. */
const notAForm = fc.oneof(
  fc.constant({ type: undefined, body: undefined }),
  fc.record({ type: fc.constantFrom('text/plain', 'text/plain;charset=UTF-8', 'text/html'), body: fc.string({ maxLength: 200 }) }),
  fc.record({ type: fc.constantFrom('application/json', 'application/json; charset=utf-8'), body: fc.json({ maxDepth: 3 }) }),
  fc.record({
    type: fc.constantFrom('application/octet-stream', 'image/png', 'application/xml'),
    body: fc.string({ unit: 'binary', maxLength: 200 }),
  }),
  fc.record({
    type: fc.constantFrom(
      'multipart/form-data',
      'multipart/form-data; boundary=',
      'multipart/form-data; boundary=abc',
      'multipart/form-data; boundary=----x',
    ),
    body: fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.constantFrom('--abc\r\nContent-Disposition: form-data; name="title"\r\n\r\nhalf a par', '--abc--', '------x\r\n\r\n'),
    ),
  }),
);

test('every route action answers a body that is not a form with 400 or 415, never a 500', async ({ request }) => {
  test.setTimeout(180_000);
  const targets = Object.values(ROWS).flatMap((row) => row());
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...targets), notAForm, async (target, { type, body }) => {
      const role = target.role as Exclude<Role, 'anonymous'>;
      const response = await request.post(`${webBase}${target.path}`, {
        headers: {
          Origin: webBase,
          'X-Forwarded-For': privateAddress(),
          ...(tokens[role] ? { Cookie: `stagedoor=${tokens[role]}` } : {}),
          ...(type ? { 'Content-Type': type } : {}),
        },
        data: body,
        maxRedirects: 0,
        timeout: 10_000,
      });
      const where = `${target.role} POST ${target.path} as ${type ?? 'no body'}: ${(await response.text()).slice(0, 200)}`;
      // A guard may answer first (a redirect to log in, the not-found page of a page not theirs); past it, the body
      // is refused in words.
      expect(response.status(), where).toBeLessThan(500);
      if (response.status() >= 400 && response.status() !== 404) expect([400, 413, 415], where).toContain(response.status());
    }),
    { numRuns: 120 },
  );
});

test('the route actions refuse a huge form cleanly', async ({ request, playwright }) => {
  // Just past the api's 1 MB body limit and the web's 1 MB text part limit, to one form of each kind (the property
  // above sends every action values up to 5,000 characters): a plain form, a content form, a message, a post form.
  const huge = 'x'.repeat(1100 * 1024);
  const targets = [
    '/login',
    '/:artistUsername/vault/:id',
    '/:artistUsername/account/messages/:conversationId',
    '/:artistUsername/account/create-text',
  ].map((pattern) => ROWS[pattern]()[0]);
  for (const target of targets) {
    // Sent as the page's own form is: the post forms carry files.
    const multipart = target.path.includes('/create-');
    const where = `${target.role} POST ${target.path} (${multipart ? 'multipart' : 'urlencoded'}, a 1.1 MB field)`;
    const answer = await post(request, target, { intent: 'comment', title: 'Huge', content: huge }, multipart).catch(
      (error: Error) => error,
    );
    // An action that refuses before reading the whole body (a text part past its limit, a form it does not take)
    // answers at once, and Node closes the connection on a client still sending: that too is a refusal.
    if (answer instanceof Error) expect(answer.message, where).toMatch(/ECONNRESET|EPIPE|socket hang up/);
    else expectClearAnswer(where, answer);
  }
  // Nothing of it is left behind: the app serves as before (on a new connection: those above may have been closed).
  const fresh = await playwright.request.newContext();
  expect((await fresh.get(`${webBase}/${world.free}`, { headers: { Cookie: `stagedoor=${tokens.subscriber}` } })).status()).toBe(200);
  await fresh.dispose();
});
