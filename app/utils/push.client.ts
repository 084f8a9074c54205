/**
 * Web push in this browser (docs/notifications.md "What the fan sees"): the service worker at /sw.js and the
 * browser's PushManager. The api learns of a subscription through the /notifications/push action, never from here.
 */

const WORKER = '/sw.js';

/** This browser's push subscription, when it has one (the worker may not even be registered yet). */
async function currentSubscription() {
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** Registers the worker and subscribes with the api's VAPID public key; the subscription as the api takes it. */
export async function subscribeBrowser(publicKey: string) {
  await navigator.serviceWorker.register(WORKER, { scope: '/' });
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromBase64Url(publicKey) });
  const { endpoint, keys } = subscription.toJSON();
  return { endpoint: endpoint ?? '', p256dh: keys?.p256dh ?? '', auth: keys?.auth ?? '' };
}

/** Ends this browser's subscription; its endpoint, for the api to forget, or null when there was none. */
export async function unsubscribeBrowser() {
  const subscription = await currentSubscription();
  if (!subscription) return null;
  await subscription.unsubscribe();
  return subscription.endpoint;
}

/** Safari takes the key only as bytes. */
function fromBase64Url(text: string) {
  const base64 = `${text}${'='.repeat((4 - (text.length % 4)) % 4)}`.replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}
