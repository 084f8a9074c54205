import type { PushEventLike, WorkerScope } from './scope';

/**
 * Web push (docs/notifications.md "Web push"): the worker shows the new-post pushes the api sends and opens their
 * page on a click. Payload (contract/notifications.ts PushPayload): { title, body, url, icon, tag }.
 */
export function listenForPushes(scope: WorkerScope) {
  scope.addEventListener('push', (event) => {
    event.waitUntil(showPush(scope, event.data));
  });

  scope.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const url = event.notification.data?.url;
    event.waitUntil(openPage(scope, ownPage(scope, typeof url === 'string' ? url : undefined)));
  });
}

function readPayload(data: PushEventLike['data']): Record<string, unknown> {
  if (!data) return {};
  try {
    const payload = data.json();
    return payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : {};
  } catch {
    return { body: data.text() };
  }
}

function showPush(scope: WorkerScope, data: PushEventLike['data']) {
  const payload = readPayload(data);
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return scope.registration.showNotification(text(payload.title) || 'Stagedoor', {
    body: text(payload.body) ?? '',
    icon: text(payload.icon) || '/favicon.svg',
    // One notification per item: the same item pushed again replaces the one shown.
    tag: text(payload.tag),
    data: { url: text(payload.url) ?? '/' },
  });
}

/** The page a click opens: the payload's path on this site, whatever host the payload names. */
function ownPage(scope: WorkerScope, url: string | undefined) {
  const origin = scope.location.origin;
  try {
    const target = new URL(url || '/', origin);
    // "//host" as a path would name another site.
    if (target.pathname.startsWith('//')) return new URL('/', origin).href;
    return new URL(`${target.pathname}${target.search}${target.hash}`, origin).href;
  } catch {
    return new URL('/', origin).href;
  }
}

async function openPage(scope: WorkerScope, href: string) {
  const windows = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => client.url === href);
  if (open) return open.focus();
  return scope.clients.openWindow(href);
}
