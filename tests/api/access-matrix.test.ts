import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, describeEachDatabase, startTestApi, subscribe, type TestApi } from '../helpers/api';
import { createArtist, createFan, upload, type ContentUser } from './content-fixtures';

/**
 * The api's access-control matrix: every endpoint, called as each role, answers the status in its
 * row. Ids of other people's things are in the rows (a conversation, a message, a draft, media, a comment, a
 * presale code, a fan's subscription and payment; bookmarks have a test of their own): a viewer who may not know a
 * thing exists gets 404, one who may know but not act gets 403.
 * The first test fails for a route the api serves without a row here.
 */
const ROLES = ['anonymous', 'fan', 'subscriber', 'lapsed', 'otherArtist', 'owner'] as const;
type Role = (typeof ROLES)[number];
type Expect = Record<Role, number>;

interface World {
  t: TestApi;
  users: Record<Exclude<Role, 'anonymous'>, ContentUser>;
  post: string;
  pollId: string;
  answerId: string;
  draft: string;
  presale: string;
  collection: string;
  image: string;
  conversation: string;
  message: string;
  comment: string;
  code: string;
  /** The subscriber's own subscription and payment: everyone else's ids in their rows. */
  subscription: string;
  payment: string;
}

interface Request {
  method: string;
  path: string;
  body?: unknown;
  query?: Record<string, string | number>;
  headers?: Record<string, string>;
  /** The answer is not JSON (a media file, a tus answer): only its status is read. */
  raw?: boolean;
}

interface Row {
  /** Builds the request for a role; may create what it changes, so each role acts on its own copy. */
  request: (w: World, role: Role) => Request | Promise<Request>;
  expect: Expect;
}

const all = (status: number): Expect => ({
  anonymous: status,
  fan: status,
  subscriber: status,
  lapsed: status,
  otherArtist: status,
  owner: status,
});
const signedIn = (status: number): Expect => ({ ...all(status), anonymous: 401 });
/** The owner's content, read: subscribers and the artist; signed-in others are refused, 403. */
const readContent: Expect = { anonymous: 401, fan: 403, subscriber: 200, lapsed: 403, otherArtist: 403, owner: 200 };
/** An artist's write on their own things: everyone else refused. */
const ownerOnly = (ok: number, others = 403): Expect => ({
  anonymous: 401,
  fan: others,
  subscriber: others,
  lapsed: others,
  otherArtist: others,
  owner: ok,
});

async function newItem(w: World, body: Record<string, unknown> = {}) {
  const created = await call<{ _id: string }>(w.t.url, 'POST', '/content', {
    token: w.users.owner.token,
    body: { title: 'Matrix', content: 'Row', tags: 'post', ...body },
  });
  return created.body.data._id;
}

/** A comment of the lapsed fan's on the owner's post, made behind the api (the comment limit is not the point here). */
async function newComment(w: World) {
  const [row] = await w.t.db.query<{ id: string }>(`INSERT INTO comments (item_id, author_id, text) VALUES ($1, $2, 'Row') RETURNING id`, [
    w.post,
    w.users.lapsed.id,
  ]);
  return row.id;
}

const ROWS: Record<string, Row> = {
  'GET /healthz': { request: () => ({ method: 'GET', path: '/healthz' }), expect: all(200) },
  'POST /auth/login': {
    request: () => ({ method: 'POST', path: '/auth/login', body: { username: 'nobody@example.com', password: 'x', remember: true } }),
    expect: all(422),
  },
  'POST /auth/users/register': {
    request: () => ({ method: 'POST', path: '/auth/users/register', body: { username: 'x', email: 'bad', password: 'short' } }),
    expect: all(400),
  },
  'POST /auth/logout': { request: () => ({ method: 'POST', path: '/auth/logout' }), expect: signedIn(200) },
  'POST /auth/users/forgot': {
    request: (_w, role) => ({ method: 'POST', path: '/auth/users/forgot', body: { email: `nobody-${role}@example.com` } }),
    expect: all(200),
  },
  'POST /auth/password-change': {
    request: () => ({ method: 'POST', path: '/auth/password-change', query: { token: 'nope' }, body: { password: 'Backstage-Pass-2!' } }),
    expect: all(400),
  },
  'GET /users/me': { request: () => ({ method: 'GET', path: '/users/me' }), expect: signedIn(200) },
  'GET /users/me/unread': { request: () => ({ method: 'GET', path: '/users/me/unread' }), expect: signedIn(200) },
  'PUT /users': { request: () => ({ method: 'PUT', path: '/users', body: {} }), expect: signedIn(400) },
  // Account settings act on the caller's own account only; an empty body is refused before anything changes.
  'PUT /users/me/name': { request: () => ({ method: 'PUT', path: '/users/me/name', body: {} }), expect: signedIn(400) },
  'POST /users/me/avatar': { request: () => ({ method: 'POST', path: '/users/me/avatar' }), expect: signedIn(400) },
  'DELETE /users/me/avatar': { request: () => ({ method: 'DELETE', path: '/users/me/avatar' }), expect: signedIn(200) },
  'GET /users/avatars/:id': {
    request: () => ({ method: 'GET', path: '/users/avatars/00000000-0000-4000-8000-000000000000', raw: true }),
    expect: all(404),
  },
  'POST /users/me/email': { request: () => ({ method: 'POST', path: '/users/me/email', body: {} }), expect: signedIn(400) },
  // The mailed link needs no session: its token is the permission, and a wrong one is refused.
  'POST /users/email/confirm': {
    request: () => ({ method: 'POST', path: '/users/email/confirm', body: { token: 'nope' } }),
    expect: all(400),
  },
  'PUT /users/me/password': { request: () => ({ method: 'PUT', path: '/users/me/password', body: {} }), expect: signedIn(400) },
  'GET /users/me/export': { request: () => ({ method: 'GET', path: '/users/me/export' }), expect: signedIn(200) },
  'DELETE /users/me': { request: () => ({ method: 'DELETE', path: '/users/me', body: {} }), expect: signedIn(400) },
  'GET /performers/user/search': { request: () => ({ method: 'GET', path: '/performers/user/search' }), expect: all(200) },
  'GET /performers/:username': { request: (w) => ({ method: 'GET', path: `/performers/${w.users.owner.username}` }), expect: all(200) },
  // "me": every artist edits their own profile; fans have none.
  'PUT /performers/me': {
    request: () => ({ method: 'PUT', path: '/performers/me', body: { name: 'Renamed', yearlyPrice: '0.00' } }),
    expect: { ...ownerOnly(200), otherArtist: 200 },
  },
  'GET /performers/me/subscribers': {
    request: () => ({ method: 'GET', path: '/performers/me/subscribers' }),
    expect: { ...ownerOnly(200), otherArtist: 200 },
  },
  'GET /subscriptions/user/search': {
    request: () => ({ method: 'GET', path: '/subscriptions/user/search', query: { limit: 10 } }),
    expect: signedIn(200),
  },
  // Each viewer's own memberships, whatever their state (none: an empty list).
  'GET /subscriptions/me': { request: () => ({ method: 'GET', path: '/subscriptions/me' }), expect: signedIn(200) },
  'GET /subscriptions/performers/:performerId': {
    request: (w) => ({ method: 'GET', path: `/subscriptions/performers/${w.users.owner.id}` }),
    expect: { ...signedIn(404), subscriber: 200, lapsed: 200 },
  },
  'PUT /subscriptions/:id/auto-renew': {
    request: (w) => ({ method: 'PUT', path: `/subscriptions/${w.subscription}/auto-renew`, body: { autoRenew: true } }),
    expect: { ...signedIn(404), subscriber: 200 },
  },
  'GET /payment/gateway': { request: () => ({ method: 'GET', path: '/payment/gateway' }), expect: all(200) },
  'POST /payment/subscribe/performers': {
    request: () => ({ method: 'POST', path: '/payment/subscribe/performers', body: { type: 'free' } }),
    expect: signedIn(400),
  },
  // The payment step checks a promo code for a signed-in fan; the answer is the same for every viewer.
  'GET /payment/promo-codes/check': {
    request: (w) => ({ method: 'GET', path: '/payment/promo-codes/check', query: { performerId: w.users.owner.id, code: 'NOPE' } }),
    expect: signedIn(400),
  },
  'GET /payment/:id': { request: (w) => ({ method: 'GET', path: `/payment/${w.payment}` }), expect: { ...signedIn(404), subscriber: 200 } },
  'POST /payment/:id/confirm': {
    request: (w) => ({ method: 'POST', path: `/payment/${w.payment}/confirm`, body: {} }),
    expect: { ...signedIn(404), subscriber: 200 },
  },
  'POST /payment/webhooks/stripe': { request: () => ({ method: 'POST', path: '/payment/webhooks/stripe', body: {} }), expect: all(404) },
  'POST /payment/test-gateway/cards': {
    request: () => ({ method: 'POST', path: '/payment/test-gateway/cards', body: {} }),
    expect: signedIn(400),
  },
  'GET /payment/test-gateway/authenticate/:id': {
    request: () => ({ method: 'GET', path: '/payment/test-gateway/authenticate/nope' }),
    expect: all(404),
  },
  'POST /payment/test-gateway/authenticate/:id': {
    request: () => ({ method: 'POST', path: '/payment/test-gateway/authenticate/nope', body: {} }),
    expect: all(404),
  },
  // Money after the first payment (docs/payments.md): "me" is every artist's own; fans have none.
  'GET /performers/me/money': {
    request: () => ({ method: 'GET', path: '/performers/me/money' }),
    expect: { ...ownerOnly(200), otherArtist: 200 },
  },
  'GET /performers/me/earnings': {
    request: () => ({ method: 'GET', path: '/performers/me/earnings' }),
    expect: { ...ownerOnly(200), otherArtist: 200 },
  },
  'GET /performers/me/payments': {
    request: () => ({ method: 'GET', path: '/performers/me/payments' }),
    expect: { ...ownerOnly(200), otherArtist: 200 },
  },
  // The payment is the owner's: another artist cannot know it exists; the owner's empty reason is refused.
  'POST /payments/:id/refund': {
    request: (w) => ({ method: 'POST', path: `/payments/${w.payment}/refund`, body: { reason: '' } }),
    expect: { ...ownerOnly(400), otherArtist: 404 },
  },
  'POST /performers/me/payouts/onboarding': {
    request: () => ({ method: 'POST', path: '/performers/me/payouts/onboarding' }),
    expect: { ...ownerOnly(200), otherArtist: 200 },
  },
  'POST /performers/me/payouts/refresh': {
    request: () => ({ method: 'POST', path: '/performers/me/payouts/refresh' }),
    expect: { ...ownerOnly(200), otherArtist: 200 },
  },
  'GET /payment/test-gateway/onboarding/:id': {
    request: () => ({ method: 'GET', path: '/payment/test-gateway/onboarding/nope' }),
    expect: all(404),
  },
  'POST /payment/test-gateway/onboarding/:id': {
    request: () => ({ method: 'POST', path: '/payment/test-gateway/onboarding/nope', body: {} }),
    expect: all(404),
  },
  'GET /performers/me/promos': {
    request: () => ({ method: 'GET', path: '/performers/me/promos' }),
    expect: { ...ownerOnly(200), otherArtist: 200 },
  },
  'POST /performers/me/promos': {
    request: () => ({ method: 'POST', path: '/performers/me/promos', body: {} }),
    expect: { ...ownerOnly(400), otherArtist: 400 },
  },
  'POST /performers/me/promos/:id': {
    request: () => ({ method: 'POST', path: '/performers/me/promos/00000000-0000-0000-0000-000000000000', body: { action: 'pause' } }),
    expect: { ...ownerOnly(404), otherArtist: 404 },
  },
  'GET /payment/trial/:performerId': {
    request: (w) => ({ method: 'GET', path: `/payment/trial/${w.users.owner.id}` }),
    expect: signedIn(200),
  },
  'POST /gifts': { request: () => ({ method: 'POST', path: '/gifts', body: {} }), expect: signedIn(400) },
  // Only a gift's buyer sees it by its payment; the subscriber's payment is no gift.
  'GET /gifts/bought/:paymentId': { request: (w) => ({ method: 'GET', path: `/gifts/bought/${w.payment}` }), expect: signedIn(404) },
  'GET /gifts/:token': { request: () => ({ method: 'GET', path: '/gifts/not-a-real-gift-token-0000' }), expect: all(404) },
  'POST /gifts/:token/redeem': {
    request: () => ({ method: 'POST', path: '/gifts/not-a-real-gift-token-0000/redeem' }),
    expect: signedIn(404),
  },
  'POST /media': { request: () => ({ method: 'POST', path: '/media', body: {} }), expect: { ...ownerOnly(400), otherArtist: 400 } },
  'GET /media/:id': { request: (w) => ({ method: 'GET', path: `/media/${w.image}`, raw: true }), expect: readContent },
  // Only a link signed for one viewer opens a video's playlists and segments (media-processing.test.ts): without it, no one.
  'GET /media/:id/hls/*': { request: (w) => ({ method: 'GET', path: `/media/${w.image}/hls/master.m3u8`, raw: true }), expect: all(403) },
  // Resumable uploads (tus): artists only; an upload's address opens for its artist alone (media-resumable.test.ts).
  'POST /uploads': {
    request: () => ({
      method: 'POST',
      path: '/uploads',
      headers: { 'tus-resumable': '1.0.0', 'upload-length': '10', 'upload-metadata': `kind ${Buffer.from('image').toString('base64')}` },
      raw: true,
    }),
    expect: { ...signedIn(403), otherArtist: 201, owner: 201 },
  },
  'PATCH /uploads/:id': {
    request: () => ({
      method: 'PATCH',
      path: '/uploads/0123456789abcdef',
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      raw: true,
    }),
    expect: { ...signedIn(403), otherArtist: 404, owner: 404 },
  },
  'DELETE /uploads/:id': {
    request: () => ({ method: 'DELETE', path: '/uploads/0123456789abcdef', headers: { 'tus-resumable': '1.0.0' }, raw: true }),
    expect: { ...signedIn(403), otherArtist: 404, owner: 404 },
  },
  // In use by a post: its artist is told so (409); another artist cannot know the file exists.
  'DELETE /media/:id': {
    request: (w) => ({ method: 'DELETE', path: `/media/${w.image}` }),
    expect: { ...ownerOnly(409), otherArtist: 404 },
  },
  'GET /performers/:username/content': {
    request: (w) => ({ method: 'GET', path: `/performers/${w.users.owner.username}/content` }),
    expect: readContent,
  },
  'GET /content/:id': { request: (w) => ({ method: 'GET', path: `/content/${w.post}` }), expect: readContent },
  'POST /content': {
    request: () => ({ method: 'POST', path: '/content', body: { title: 'Mine', content: 'Hello', tags: 'post' } }),
    expect: { ...ownerOnly(201), otherArtist: 201 },
  },
  // Each role edits a copy: the owner's edit would take the shared post's poll away from the rows after it.
  'PUT /content/:id': {
    request: async (w, role) => ({
      method: 'PUT',
      path: `/content/${role === 'anonymous' ? w.post : await newItem(w)}`,
      body: { title: 'Edited', content: 'Hello', tags: 'post' },
    }),
    expect: ownerOnly(200),
  },
  'DELETE /content/:id': {
    request: async (w, role) => ({ method: 'DELETE', path: `/content/${role === 'anonymous' ? w.post : await newItem(w)}` }),
    expect: ownerOnly(200),
  },
  'POST /polls/:pollId/vote': {
    request: (w) => ({ method: 'POST', path: `/polls/${w.pollId}/vote`, body: { answerId: w.answerId } }),
    expect: { ...readContent, owner: 403 },
  },
  'DELETE /polls/:pollId/vote': {
    request: (w) => ({ method: 'DELETE', path: `/polls/${w.pollId}/vote` }),
    expect: { ...readContent, owner: 403 },
  },
  'GET /content/:id/transcript': { request: (w) => ({ method: 'GET', path: `/content/${w.post}/transcript` }), expect: readContent },
  // The shared post has no track: its artist is told a transcript needs one; everyone else is refused first.
  'PUT /content/:id/transcript': {
    request: (w) => ({ method: 'PUT', path: `/content/${w.post}/transcript`, body: { transcript: '0:01 Hello' } }),
    expect: ownerOnly(400),
  },
  'GET /content/:id/comments': { request: (w) => ({ method: 'GET', path: `/content/${w.post}/comments` }), expect: readContent },
  'POST /content/:id/comments': {
    request: (w) => ({ method: 'POST', path: `/content/${w.post}/comments`, body: { text: 'Nice' } }),
    expect: { ...readContent, subscriber: 201, owner: 201 },
  },
  'DELETE /comments/:id': {
    request: async (w, role) => {
      if (role === 'anonymous') return { method: 'DELETE', path: `/comments/${w.comment}` };
      // Written straight to the table: the api's 10-comments-a-minute limit is not what this row tests.
      const [made] = await w.t.db.query<{ id: string }>(
        `INSERT INTO comments (item_id, author_id, text) VALUES ($1, $2, 'Mine') RETURNING id`,
        [w.post, w.users.subscriber.id],
      );
      return { method: 'DELETE', path: `/comments/${made.id}` };
    },
    // Its author and the item's artist; the lapsed fan no longer sees the item.
    expect: { anonymous: 401, fan: 403, subscriber: 200, lapsed: 403, otherArtist: 403, owner: 200 },
  },
  // Which saved tracks one may still play: any signed-in viewer may ask (what is playable is tests/api/offline-check.test.ts).
  'GET /content/offline-check': {
    request: (w) => ({ method: 'GET', path: '/content/offline-check', query: { id: w.post } }),
    expect: signedIn(200),
  },
  'POST /content/:id/bookmark': { request: (w) => ({ method: 'POST', path: `/content/${w.post}/bookmark` }), expect: readContent },
  // Taking a bookmark away is always allowed (a lapsed fan tidies their list); for a viewer without one it changes nothing.
  'DELETE /content/:id/bookmark': { request: (w) => ({ method: 'DELETE', path: `/content/${w.post}/bookmark` }), expect: signedIn(200) },
  'GET /bookmarks': { request: () => ({ method: 'GET', path: '/bookmarks' }), expect: signedIn(200) },
  'GET /performers/:username/collections': {
    request: (w) => ({ method: 'GET', path: `/performers/${w.users.owner.username}/collections` }),
    expect: readContent,
  },
  'GET /collections/:id': { request: (w) => ({ method: 'GET', path: `/collections/${w.collection}` }), expect: readContent },
  'POST /collections': {
    request: () => ({ method: 'POST', path: '/collections', body: { title: 'Mine' } }),
    expect: { ...ownerOnly(201), otherArtist: 201 },
  },
  'PUT /collections/:id': {
    request: (w) => ({ method: 'PUT', path: `/collections/${w.collection}`, body: { title: 'Renamed' } }),
    expect: ownerOnly(200),
  },
  'DELETE /collections/:id': {
    request: async (w, role) => {
      if (role === 'anonymous') return { method: 'DELETE', path: `/collections/${w.collection}` };
      const made = await call<{ _id: string }>(w.t.url, 'POST', '/collections', {
        token: w.users.owner.token,
        body: { title: 'Short-lived' },
      });
      return { method: 'DELETE', path: `/collections/${made.body.data._id}` };
    },
    expect: ownerOnly(200),
  },
  'GET /content/:id/presale-code': {
    request: (w) => ({ method: 'GET', path: `/content/${w.presale}/presale-code` }),
    expect: { ...readContent, owner: 403 },
  },
  'GET /content/:id/presale-codes': {
    request: (w) => ({ method: 'GET', path: `/content/${w.presale}/presale-codes` }),
    expect: ownerOnly(200),
  },
  'DELETE /content/:id/presale-codes/:codeId': {
    request: (w) => ({ method: 'DELETE', path: `/content/${w.presale}/presale-codes/${w.code}` }),
    expect: ownerOnly(200),
  },
  'PUT /performers/me/images': {
    request: () => ({ method: 'PUT', path: '/performers/me/images', body: {} }),
    expect: { ...ownerOnly(200), otherArtist: 200 },
  },
  'GET /performers/images/:id': { request: () => ({ method: 'GET', path: '/performers/images/no-such-image' }), expect: all(404) },
  'POST /admin/artists': { request: () => ({ method: 'POST', path: '/admin/artists', body: {} }), expect: all(403) },
  'POST /admin/promos': { request: () => ({ method: 'POST', path: '/admin/promos', body: {} }), expect: all(403) },
  'POST /admin/seed': { request: () => ({ method: 'POST', path: '/admin/seed', body: {} }), expect: all(403) },
  'POST /admin/refunds': { request: () => ({ method: 'POST', path: '/admin/refunds', body: {} }), expect: all(403) },
  'POST /admin/memberships/end': { request: () => ({ method: 'POST', path: '/admin/memberships/end', body: {} }), expect: all(403) },
  'POST /admin/suspensions': { request: () => ({ method: 'POST', path: '/admin/suspensions', body: {} }), expect: all(403) },
  'POST /admin/operators': { request: () => ({ method: 'POST', path: '/admin/operators', body: {} }), expect: all(403) },
  'POST /admin/backup': { request: () => ({ method: 'POST', path: '/admin/backup', body: {} }), expect: all(403) },
  // The first-run setup: this install has accounts, so it is done for everyone and its steps are not found.
  'GET /setup': { request: () => ({ method: 'GET', path: '/setup' }), expect: all(200) },
  'POST /setup/account': {
    request: (_w, role) => ({
      method: 'POST',
      path: '/setup/account',
      body: { name: 'Owner', username: `owner${role.toLowerCase()}`, email: `owner-${role}@example.com`, password: 'Backstage-Pass-2!' },
    }),
    expect: all(404),
  },
  'POST /setup/club': {
    request: () => ({
      method: 'POST',
      path: '/setup/club',
      body: { name: 'Club', username: 'newclub', yearlyPrice: '10', currency: 'usd' },
    }),
    expect: signedIn(404),
  },
  // Moderation: every artist moderates their own club ("me"), fans none; a comment of another club is not found.
  'GET /moderation/blocks': {
    request: () => ({ method: 'GET', path: '/moderation/blocks' }),
    expect: { ...ownerOnly(200), otherArtist: 200 },
  },
  'GET /moderation/reports': {
    request: () => ({ method: 'GET', path: '/moderation/reports' }),
    expect: { ...ownerOnly(200), otherArtist: 200 },
  },
  'GET /moderation/mute-words': {
    request: () => ({ method: 'GET', path: '/moderation/mute-words' }),
    expect: { ...ownerOnly(200), otherArtist: 200 },
  },
  'GET /moderation/held': { request: () => ({ method: 'GET', path: '/moderation/held' }), expect: { ...ownerOnly(200), otherArtist: 200 } },
  'GET /moderation/audit': {
    request: () => ({ method: 'GET', path: '/moderation/audit' }),
    expect: { ...ownerOnly(200), otherArtist: 200 },
  },
  'GET /moderation/fans/:fanId': {
    request: (w) => ({ method: 'GET', path: `/moderation/fans/${w.users.fan.id}` }),
    expect: { ...ownerOnly(200), otherArtist: 200 },
  },
  'PUT /moderation/blocks/:fanId': {
    request: (w) => ({ method: 'PUT', path: `/moderation/blocks/${w.users.fan.id}`, body: {} }),
    expect: { ...ownerOnly(200), otherArtist: 200 },
  },
  'DELETE /moderation/blocks/:fanId': {
    request: (w) => ({ method: 'DELETE', path: `/moderation/blocks/${w.users.fan.id}` }),
    expect: { ...ownerOnly(200), otherArtist: 200 },
  },
  'POST /moderation/comments/:id/hide': {
    request: async (w) => ({ method: 'POST', path: `/moderation/comments/${await newComment(w)}/hide` }),
    expect: { ...ownerOnly(200), otherArtist: 404 },
  },
  'POST /moderation/comments/:id/unhide': {
    request: async (w) => ({ method: 'POST', path: `/moderation/comments/${await newComment(w)}/unhide` }),
    expect: { ...ownerOnly(200), otherArtist: 404 },
  },
  // A report is for what the reporter can see: members and the artist.
  'POST /reports': {
    request: async (w) => ({ method: 'POST', path: '/reports', body: { kind: 'comment', id: await newComment(w), reason: 'Rude' } }),
    expect: { anonymous: 401, fan: 404, subscriber: 201, lapsed: 404, otherArtist: 404, owner: 201 },
  },
  'POST /moderation/mute-words': {
    request: () => ({ method: 'POST', path: '/moderation/mute-words', body: { word: 'matrixword' } }),
    expect: { ...ownerOnly(200), otherArtist: 200 },
  },
  'DELETE /moderation/mute-words/:word': {
    request: () => ({ method: 'DELETE', path: '/moderation/mute-words/matrixword' }),
    expect: { ...ownerOnly(200), otherArtist: 200 },
  },
  'POST /moderation/held/:kind/:id/approve': {
    request: () => ({ method: 'POST', path: '/moderation/held/comment/no-such-comment/approve' }),
    expect: { ...ownerOnly(404), otherArtist: 404 },
  },
  'DELETE /moderation/held/:kind/:id': {
    request: () => ({ method: 'DELETE', path: '/moderation/held/message/no-such-message' }),
    expect: { ...ownerOnly(404), otherArtist: 404 },
  },
  // Operators only (is_operator): nobody in this world is one.
  'GET /operator/reports': { request: () => ({ method: 'GET', path: '/operator/reports' }), expect: signedIn(403) },
  'GET /operator/audit': { request: () => ({ method: 'GET', path: '/operator/audit' }), expect: signedIn(403) },
  'POST /operator/suspensions': {
    request: (w) => ({ method: 'POST', path: '/operator/suspensions', body: { user: w.users.fan.username } }),
    expect: signedIn(403),
  },
  'GET /conversations': { request: () => ({ method: 'GET', path: '/conversations', query: { limit: 10 } }), expect: signedIn(200) },
  'GET /conversations/:conversationId': {
    request: (w) => ({ method: 'GET', path: `/conversations/${w.conversation}` }),
    expect: { ...signedIn(404), subscriber: 200, owner: 200 },
  },
  'POST /conversations': {
    request: (w) => ({ method: 'POST', path: '/conversations', body: { source: 'performer', sourceId: w.users.owner.id } }),
    expect: { ...signedIn(403), subscriber: 200, owner: 403 },
  },
  'GET /messages/conversations/:conversationId': {
    request: (w) => ({ method: 'GET', path: `/messages/conversations/${w.conversation}` }),
    expect: { ...signedIn(404), subscriber: 200, owner: 200 },
  },
  'POST /messages/conversations/:conversationId': {
    request: (w) => ({ method: 'POST', path: `/messages/conversations/${w.conversation}`, body: { text: 'Hi' } }),
    expect: { ...signedIn(404), subscriber: 200, owner: 200 },
  },
  'DELETE /messages/:messageId': {
    request: async (w, role) => {
      if (role !== 'subscriber') return { method: 'DELETE', path: `/messages/${w.message}` };
      const sent = await call<{ _id: string }>(w.t.url, 'POST', `/messages/conversations/${w.conversation}`, {
        token: w.users.subscriber.token,
        body: { text: 'Oops' },
      });
      return { method: 'DELETE', path: `/messages/${sent.body.data._id}` };
    },
    // Only its author; the other member is refused, anyone else cannot know it exists.
    expect: { ...signedIn(404), subscriber: 200, owner: 403 },
  },
  'POST /messages/read-all/:conversationId': {
    request: (w) => ({ method: 'POST', path: `/messages/read-all/${w.conversation}` }),
    expect: { ...signedIn(404), subscriber: 200, owner: 200 },
  },
  'GET /messages/total-unread-messages': {
    request: () => ({ method: 'GET', path: '/messages/total-unread-messages' }),
    expect: signedIn(200),
  },
  'POST /admin/jobs': { request: () => ({ method: 'POST', path: '/admin/jobs', body: { action: 'list' } }), expect: all(403) },
  // Notifications are each fan's own: every call acts on the caller's, and another's id is not found.
  'GET /notifications': { request: () => ({ method: 'GET', path: '/notifications' }), expect: signedIn(200) },
  'GET /notifications/unread-count': { request: () => ({ method: 'GET', path: '/notifications/unread-count' }), expect: signedIn(200) },
  'POST /notifications/read-all': { request: () => ({ method: 'POST', path: '/notifications/read-all' }), expect: signedIn(200) },
  'POST /notifications/:id/read': {
    request: () => ({ method: 'POST', path: '/notifications/00000000-0000-4000-8000-000000000000/read' }),
    expect: signedIn(404),
  },
  'GET /notifications/preferences': { request: () => ({ method: 'GET', path: '/notifications/preferences' }), expect: signedIn(200) },
  'GET /notifications/preferences/:performerId': {
    request: (w) => ({ method: 'GET', path: `/notifications/preferences/${w.users.owner.id}` }),
    expect: signedIn(200),
  },
  'PUT /notifications/preferences/:performerId': {
    request: (w) => ({ method: 'PUT', path: `/notifications/preferences/${w.users.owner.id}`, body: { email: 'digest' } }),
    expect: signedIn(200),
  },
  'GET /notifications/push/key': { request: () => ({ method: 'GET', path: '/notifications/push/key' }), expect: all(200) },
  'POST /notifications/push/subscriptions': {
    request: () => ({ method: 'POST', path: '/notifications/push/subscriptions', body: {} }),
    expect: signedIn(400),
  },
  'DELETE /notifications/push/subscriptions': {
    request: () => ({ method: 'DELETE', path: '/notifications/push/subscriptions', body: { endpoint: 'https://push.example/none' } }),
    expect: signedIn(404),
  },
  // The one-click unsubscribe link needs no login: its signed token is the permission, and without one it is refused.
  'GET /notifications/unsubscribe': { request: () => ({ method: 'GET', path: '/notifications/unsubscribe' }), expect: all(400) },
  'POST /notifications/unsubscribe': { request: () => ({ method: 'POST', path: '/notifications/unsubscribe' }), expect: all(400) },
};

describeEachDatabase('access-control matrix', (database) => {
  const w = {} as World;

  beforeAll(async () => {
    w.t = await startTestApi({ database: database.name, adminToken: 'matrix-admin-token' });
    const t = w.t;
    const [owner, otherArtist, fan, subscriber, lapsed] = await Promise.all([
      createArtist(t),
      createArtist(t),
      createFan(t),
      createFan(t),
      createFan(t),
    ]);
    w.users = { owner, otherArtist, fan, subscriber, lapsed };
    await subscribe(t, subscriber.id, owner.id);
    await subscribe(t, lapsed.id, owner.id);
    [{ id: w.subscription }] = await t.db.query<{ id: string }>('SELECT id FROM subscriptions WHERE user_id = $1', [subscriber.id]);
    [{ id: w.payment }] = await t.db.query<{ id: string }>(
      `INSERT INTO payments (user_id, artist_id, subscription_id, gateway, status, amount_cents, list_price_cents)
       VALUES ($1, $2, $3, 'test', 'succeeded', 500, 500) RETURNING id`,
      [subscriber.id, owner.id, w.subscription],
    );
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f9ef1e' } })
      .png()
      .toBuffer();
    w.image = (await upload(t, owner.token, png, { filename: 'a.png', type: 'image/png', kind: 'image' })).body.data._id;
    const post = await call<{ _id: string; poll: { _id: string; answers: { _id: string }[] } }>(t.url, 'POST', '/content', {
      token: owner.token,
      body: {
        title: 'Post',
        content: 'Hello',
        tags: 'poll',
        thumbnailId: w.image,
        poll: { enabled: true, title: 'Which?', answers: [{ text: 'A' }, { text: 'B' }] },
      },
    });
    w.post = post.body.data._id;
    w.pollId = post.body.data.poll._id;
    w.answerId = post.body.data.poll.answers[0]._id;
    w.draft = await newItem(w, { draft: true });
    w.presale = await newItem(w, { tags: 'ticketPresale', presale: { ticketUrl: 'https://tickets.example.com/x' } });
    w.collection = (
      await call<{ _id: string }>(t.url, 'POST', '/collections', { token: owner.token, body: { title: 'Tour', itemIds: [w.post] } })
    ).body.data._id;
    w.comment = (
      await call<{ _id: string }>(t.url, 'POST', `/content/${w.post}/comments`, { token: subscriber.token, body: { text: 'First' } })
    ).body.data._id;
    w.code = (await call<{ _id: string }>(t.url, 'GET', `/content/${w.presale}/presale-code`, { token: subscriber.token })).body.data._id;
    w.conversation = (
      await call<{ _id: string }>(t.url, 'POST', '/conversations', {
        token: subscriber.token,
        body: { source: 'performer', sourceId: owner.id },
      })
    ).body.data._id;
    w.message = (
      await call<{ _id: string }>(t.url, 'POST', `/messages/conversations/${w.conversation}`, {
        token: subscriber.token,
        body: { text: 'Hello' },
      })
    ).body.data._id;
    // The lapsed fan was a member too: their subscription has run out since.
    await t.db.query(`UPDATE subscriptions SET expires_at = now() - interval '1 day' WHERE user_id = $1`, [lapsed.id]);
  }, 60_000);
  afterAll(async () => {
    await w.t?.close();
  });

  it('has a row for every route the api serves', () => {
    const served = w.t.api.routes.filter((r) => r.method !== 'OPTIONS').map((r) => `${r.method} ${r.url}`);
    expect(served.filter((route) => !(route in ROWS))).toEqual([]);
    expect(Object.keys(ROWS).filter((route) => !served.includes(route))).toEqual([]);
  });

  it('a draft stays hidden from everyone but its artist, as if it did not exist', async () => {
    const statuses = await Promise.all(
      ROLES.map(async (role) => [
        role,
        (await call(w.t.url, 'GET', `/content/${w.draft}`, { token: role === 'anonymous' ? undefined : w.users[role].token })).status,
      ]),
    );
    expect(Object.fromEntries(statuses)).toEqual({ anonymous: 401, fan: 403, subscriber: 404, lapsed: 403, otherArtist: 403, owner: 200 });
  });

  it('a bookmark is its fan’s own: nobody else sees it in their list or can take it away', async () => {
    const item = await newItem(w);
    const { subscriber } = w.users;
    expect((await call(w.t.url, 'POST', `/content/${item}/bookmark`, { token: subscriber.token })).status).toBe(200);
    const bookmarked = async (token: string) =>
      (await call<{ data: { _id: string }[] }>(w.t.url, 'GET', '/bookmarks', { token })).body.data.data.map((i) => i._id);
    for (const role of ['fan', 'lapsed', 'otherArtist', 'owner'] as const) {
      const { token } = w.users[role];
      expect(await bookmarked(token), role).not.toContain(item);
      await call(w.t.url, 'DELETE', `/content/${item}/bookmark`, { token });
    }
    expect(await bookmarked(subscriber.token)).toContain(item);
  });

  // Logging out ends the session the rest of the rows use: that row runs last.
  describe.each(ROLES)('as %s', (role) => {
    it('every endpoint answers its row', async () => {
      const wrong: string[] = [];
      const entries = Object.entries(ROWS).sort(([a], [b]) => Number(a === 'POST /auth/logout') - Number(b === 'POST /auth/logout'));
      for (const [route, row] of entries) {
        const request = await Promise.resolve(row.request(w, role)).catch((error: Error) => {
          throw new Error(`${route}: preparing the request failed: ${error.message}`);
        });
        const token = role === 'anonymous' ? undefined : w.users[role].token;
        const headers = { 'x-forwarded-for': `10.9.${ROLES.indexOf(role)}.${Object.keys(ROWS).indexOf(route) % 250}`, ...request.headers };
        const answer = request.raw
          ? await fetch(`${w.t.url}${request.path}`, {
              method: request.method,
              headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
            }).then(async (r) => {
              await r.arrayBuffer();
              return { status: r.status, body: '(file)' };
            })
          : await call(w.t.url, request.method, request.path, { token, body: request.body, query: request.query, headers });
        if (answer.status !== row.expect[role])
          wrong.push(`${route}: expected ${row.expect[role]}, got ${answer.status} ${JSON.stringify(answer.body).slice(0, 140)}`);
      }
      if (wrong.length) console.log(`MATRIX ${role}\n${wrong.join('\n')}`);
      expect(wrong).toEqual([]);
    }, 60_000);
  });
});
