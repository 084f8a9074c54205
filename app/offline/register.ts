import { useEffect } from 'react';

/**
 * Registers the service worker (/sw.js, docs/listening.md "Offline"; its scope is the site) once the page has loaded:
 * the worker does the rest by itself (it sees the pages the fan opens, and checks the saved tracks then). Lite mode
 * registers nothing. The root never unmounts, so the listener needs no clean-up.
 */
export function useOfflineWorker(lite: boolean) {
  useEffect(() => {
    if (lite || !('serviceWorker' in navigator)) return;
    const register = () => navigator.serviceWorker.register('/sw.js').catch(() => undefined);
    if (document.readyState === 'complete') void register();
    else window.addEventListener('load', register, { once: true });
  }, [lite]);
}
