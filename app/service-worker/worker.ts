import { matchPrecache, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { RangeRequestsPlugin } from 'workbox-range-requests';
import { NavigationRoute, registerRoute, setCatchHandler } from 'workbox-routing';
import { CacheOnly, NetworkOnly } from 'workbox-strategies';
import { isAudioKey, itemOfAudioKey, OFFLINE_CACHE, OFFLINE_PAGE } from '../offline/saved';
import { keepSavedTracksTrue, mayPlay } from './offline';
import { listenForPushes } from './push';
import type { WorkerScope } from './scope';

/**
 * Stagedoor's service worker, served at /sw.js for the whole site (bundled by scripts/build-server.mjs with
 * esbuild; docs/listening.md "Offline", docs/notifications.md "Web push"):
 * - the offline page, its script and the icons are precached;
 * - saved tracks play from their Cache, Range requests included, with or without a network, for the fan who saved them;
 * - pages load from the network as without a worker; a page that cannot load (offline) is the offline page instead of
 *   the browser's error, and so is a client-side navigation that cannot reach the server;
 * - web push, as before.
 */

declare const __PRECACHE__: PrecacheEntry[];

const scope = self as unknown as WorkerScope;

scope.addEventListener('install', () => void scope.skipWaiting());
scope.addEventListener('activate', (event) =>
  event.waitUntil(Promise.all([scope.clients.claim(), scope.registration.navigationPreload?.enable()])),
);

precacheAndRoute(__PRECACHE__);

registerRoute(
  ({ url, sameOrigin }) => sameOrigin && isAudioKey(url.pathname),
  new CacheOnly({
    cacheName: OFFLINE_CACHE,
    plugins: [
      // A track saved by another fan than the one this browser last knew signed in is not played (nor listed).
      {
        cachedResponseWillBeUsed: async ({ request, cachedResponse }) =>
          cachedResponse && (await mayPlay(itemOfAudioKey(new URL(request.url).pathname) ?? '')) ? cachedResponse : null,
      },
      new RangeRequestsPlugin(),
    ],
  }),
);

// Pages go to the network (the navigation preload's answer when there is one); only a failure is ours to answer.
registerRoute(new NavigationRoute(new NetworkOnly()));
// Remix's client-side navigations fetch `?_data=`; offline, a redirect that reloads the document brings the offline page.
registerRoute(({ url, sameOrigin, request }) => sameOrigin && request.method === 'GET' && url.searchParams.has('_data'), new NetworkOnly());

setCatchHandler(async ({ request, url }) => {
  if (request.mode === 'navigate') return (await matchPrecache(OFFLINE_PAGE)) ?? Response.error();
  if (url?.searchParams.has('_data')) {
    return new Response(null, { status: 204, headers: { 'X-Remix-Redirect': OFFLINE_PAGE, 'X-Remix-Reload-Document': 'true' } });
  }
  return Response.error();
});

keepSavedTracksTrue(scope);
listenForPushes(scope);
