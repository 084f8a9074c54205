import type { AppLoadContext, EntryContext } from '@remix-run/node';
import { RemixServer } from '@remix-run/react';
import { renderToString } from 'react-dom/server';
import { NonceProvider } from './utils/nonce';
import { pageResponse } from './utils/page-body.server';

/**
 * Renders the whole page into one string, which the web server sends in one write (page-body.server.ts). No loader
 * defers data, so streaming would gain nothing, and a stream arrives at the compressor in dozens of small writes,
 * each compressed on its own: a tenth of a page's CPU (docs/benchmarks.md). The response's CSP nonce goes on every
 * script the page writes (server/security.ts). A render that throws is rendered again by Remix with the route's
 * error boundary.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  const html = `<!DOCTYPE html>${renderToString(
    <NonceProvider value={nonce ?? ''}>
      <RemixServer context={remixContext} url={request.url} nonce={nonce} />
    </NonceProvider>,
  )}`;
  responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
  return pageResponse(html, { headers: responseHeaders, status: responseStatusCode });
}
