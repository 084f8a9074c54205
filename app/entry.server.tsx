import type { AppLoadContext, EntryContext, HandleErrorFunction } from '@remix-run/node';
import { RemixServer } from '@remix-run/react';
import { renderToString } from 'react-dom/server';
import { NonceProvider } from './utils/nonce';

/**
 * Renders the whole page into one string: no loader defers data, so streaming would gain nothing. The response's CSP
 * nonce goes on every script the page writes (server/security.ts). A render that throws is rendered again by Remix
 * with the route's error boundary.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  const html = renderToString(
    <NonceProvider value={nonce ?? ''}>
      <RemixServer context={remixContext} url={request.url} nonce={nonce} />
    </NonceProvider>,
  );
  const { pageRendered, startedAt } = loadContext;
  const routeId = remixContext.staticHandlerContext.matches.at(-1)?.route.id;
  if (pageRendered && startedAt !== undefined && routeId) pageRendered(routeId, startedAt);
  responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
  return new Response(`<!DOCTYPE html>${html}`, { headers: responseHeaders, status: responseStatusCode });
}

/**
 * A loader, action or render that threw: written to the web tier's log with the page's request id (the api's lines
 * for the same page carry it too). A request the browser gave up on is not an error.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  if (context.log) context.log.error({ requestId: context.requestId, url: new URL(request.url).pathname, err: error }, 'page error');
  else console.error(error);
};
