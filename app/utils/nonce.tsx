import { createContext, useContext } from 'react';

/**
 * The Content-Security-Policy nonce of this response (server/security.ts makes one per request). The server
 * render puts it on the page's scripts; in the browser it reads as empty, which is fine: the browser hides a
 * nonce once the page has loaded, and scripts added later are trusted through the ones that carried it.
 */
const NonceContext = createContext('');

export const NonceProvider = NonceContext.Provider;

export function useNonce() {
  return useContext(NonceContext);
}
