/// <reference types="@remix-run/dev" />

import '@remix-run/node';
import type { ApiTransport } from './app/utils/api-transport.server';
import type { WebLog } from './server/log';

declare module '@remix-run/node' {
  /** What the web server gives every loader and action of one request (server/web.ts, getLoadContext). */
  interface AppLoadContext {
    /** How this process reaches the api: in process, or over HTTP (app/utils/api-transport.server.ts). */
    api: ApiTransport;
    /** The browser's address as the web tier saw it; passed on to the API for its per-address rate limits. */
    clientIp?: string;
    /** This response's Content-Security-Policy nonce (server/security.ts), put on the page's scripts. */
    cspNonce?: string;
    /** This page request's id (server/web.ts): sent with each api call, so both tiers' log lines name it. */
    requestId?: string;
    /** The web tier's log (server/log.ts): a page that fails writes its error there, with the request id. */
    log?: WebLog;
    /** When the page's loaders began (performance.now()), for the time its render took. */
    startedAt?: number;
    /** Told of each page rendered, when the metrics are kept in this process (api/metrics.ts). */
    pageRendered?: (routeId: string, startedAt: number) => void;
  }
}
