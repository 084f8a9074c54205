import { useEffect } from 'react';

/**
 * Registers the service worker (/sw.js, docs/listening.md "Offline") once the page has loaded: the worker does the
 * rest by itself (it sees the pages the fan opens, and checks the saved tracks then). Lite mode registers nothing.
 */
export function useOfflineWorker(lite: boolean) {
  useEffect(() => {
    if (lite || !('serviceWorker' in navigator)) return;
    const register = () => void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
    if (document.readyState === 'complete') register();
    else window.addEventListener('load', register, { once: true });
    return () => window.removeEventListener('load', register);
  }, [lite]);
}
