import { useEffect } from 'react';
import { CHECK_MESSAGE } from './message';

const WORKER = '/sw.js';

/**
 * Registers the service worker (docs/listening.md "Offline") once the page has loaded, and has it check the saved
 * tracks: on every full page load, when the signed-in fan changes (a logout deletes them) and when the browser comes
 * back online. Lite mode registers nothing. A few hundred bytes in the root: the worker does the work.
 */
export function useOfflineWorker(lite: boolean, userId: string | null) {
  useEffect(() => {
    if (lite || !('serviceWorker' in navigator)) return;
    let live = true;
    const check = (force: boolean) =>
      navigator.serviceWorker.ready.then((registration) => {
        if (live) registration.active?.postMessage({ type: CHECK_MESSAGE, userId, force });
      });
    const start = () => {
      navigator.serviceWorker.register(WORKER, { scope: '/' }).then(
        () => check(false),
        () => undefined,
      );
    };
    const online = () => void check(true);
    if (document.readyState === 'complete') start();
    else window.addEventListener('load', start, { once: true });
    window.addEventListener('online', online);
    return () => {
      live = false;
      window.removeEventListener('load', start);
      window.removeEventListener('online', online);
    };
  }, [lite, userId]);
}
