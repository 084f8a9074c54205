// Every page the bench measures, one row each. A page that is not built yet answers 404 for the seeded artist and
// is reported as "not built yet" instead of failing the run; it is measured as soon as it lands.
//
// budget: 'content' (artist home, vault, posts: JavaScript ≤ floor + 40 KB), 'form' (pages with forms: ≤ floor +
// 60 KB), or null (measured, no budget in the issue). lite: the page is in the lite-mode budget (≤ 40 KB without
// images). auth: measured as the signed-in seed fan ('artist': as the seed artist, for the studio's pages), else
// signed out, as a new visitor arrives.
import { ARTIST, UNSUBSCRIBED_ARTIST } from './app.mjs';

export function routes(fixtures) {
  const item = fixtures.vaultItem;
  return [
    { id: 'landing', name: 'landing', path: '/', auth: false, budget: null },
    { id: 'login', name: 'login', path: '/login', auth: false, budget: 'form', submitCheck: 'login' },
    { id: 'join', name: 'join', path: `/${ARTIST}/join`, auth: false, budget: 'form' },
    {
      id: 'register',
      name: 'subscribe/register',
      path: `/${ARTIST}/subscribe/register`,
      auth: false,
      budget: 'form',
      submitCheck: 'register',
    },
    { id: 'discover', name: 'discover', path: '/discover', auth: true, budget: null },
    { id: 'home', name: 'artist home', path: `/${ARTIST}`, auth: true, budget: 'content', lite: true, ssr: true },
    { id: 'vault', name: 'vault', path: `/${ARTIST}/vault`, auth: true, budget: 'content', lite: true, ssr: true },
    {
      id: 'vaultItem',
      name: 'vault item',
      path: `/${ARTIST}/vault/${item._id}?type=${item.mediaType ?? 'post'}&from=vault`,
      auth: true,
      budget: 'form',
      lite: true,
    },
    { id: 'posts', name: 'posts', path: `/${ARTIST}/posts`, auth: true, budget: 'content', lite: true, ssr: true },
    {
      id: 'payment',
      name: 'payment',
      path: `/${UNSUBSCRIBED_ARTIST}/subscribe/payment`,
      auth: true,
      budget: 'form',
      stripeAllowed: true,
    },
    { id: 'earnings', name: 'earnings', path: `/${ARTIST}/account/earnings`, auth: 'artist', budget: 'form' },
    { id: 'gift', name: 'gift', path: `/${ARTIST}/gift`, auth: true, budget: 'form' },
    { id: 'promos', name: 'promo codes', path: `/${ARTIST}/account/promos`, auth: 'artist', budget: 'form' },
    { id: 'messages', name: 'messages', path: `/${ARTIST}/account/messages`, auth: true, budget: 'form' },
    {
      id: 'conversation',
      name: 'conversation',
      path: `/${ARTIST}/account/messages/${fixtures.conversationId}?username=${ARTIST}`,
      auth: true,
      budget: 'form',
    },
  ];
}

export const CONTENT_JS_BUDGET_KB = 40;
export const FORM_JS_BUDGET_KB = 60;
export const HTML_CSS_BUDGET_KB = 60;
export const LITE_BUDGET_KB = 40;
