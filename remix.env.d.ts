/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/node" />

import '@remix-run/node';

declare module '@remix-run/node' {
  interface AppLoadContext {
    /** The browser's address as the web tier saw it; passed on to the API for its per-address rate limits. */
    clientIp?: string;
    /** This response's Content-Security-Policy nonce (server/security.ts), put on the page's scripts. */
    cspNonce?: string;
  }
}
