/*
 * Stagedoor's service worker (docs/notifications.md "Web push"): it only shows the new-post pushes the api sends and
 * opens their page on a click. It has no fetch handler: pages and assets load as they would without it.
 * Payload (contract/notifications.ts PushPayload): { title, body, url, icon, tag }.
 */

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('push', (event) => {
  event.waitUntil(showPush(event.data));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openPage(ownPage(event.notification.data && event.notification.data.url)));
});

function readPayload(data) {
  if (!data) return {};
  try {
    const payload = data.json();
    return payload && typeof payload === 'object' ? payload : {};
  } catch {
    return { body: data.text() };
  }
}

function showPush(data) {
  const payload = readPayload(data);
  return self.registration.showNotification(typeof payload.title === 'string' && payload.title ? payload.title : 'Stagedoor', {
    body: typeof payload.body === 'string' ? payload.body : '',
    icon: typeof payload.icon === 'string' && payload.icon ? payload.icon : '/favicon.svg',
    // One notification per item: the same item pushed again replaces the one shown.
    tag: typeof payload.tag === 'string' ? payload.tag : undefined,
    data: { url: typeof payload.url === 'string' ? payload.url : '/' },
  });
}

/** The page a click opens: the payload's path on this site, whatever host the payload names. */
function ownPage(url) {
  try {
    const target = new URL(url || '/', self.location.origin);
    // "//host" as a path would name another site.
    if (target.pathname.startsWith('//')) return new URL('/', self.location.origin).href;
    return new URL(`${target.pathname}${target.search}${target.hash}`, self.location.origin).href;
  } catch {
    return new URL('/', self.location.origin).href;
  }
}

async function openPage(href) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => client.url === href);
  if (open) return open.focus();
  return self.clients.openWindow(href);
}
