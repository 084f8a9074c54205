/**
 * A rendered page's HTML, handed from the render (app/entry.server.tsx) to the web server (server/web.ts) beside
 * its `Response` rather than as its body. A body would be a web stream: on Node 20 making one costs about as much
 * as rendering a tenth of the page, and Remix's adapter then reads it back chunk by chunk and flushes the
 * compressor after each, which costs three compression jobs and two socket writes a page. The server sends the
 * string with one `res.end` instead (docs/benchmarks.md).
 *
 * A response without its HTML here (a redirect, a data request, a HEAD) is sent as Remix sends it. The map is found
 * through a global symbol because the server entry and the Remix build are bundled separately.
 */
const KEY = Symbol.for('stagedoor.page-bodies');
const registry = globalThis as typeof globalThis & { [KEY]?: WeakMap<Response, string> };
const bodies = (registry[KEY] ??= new WeakMap<Response, string>());

/** A page's response: its status and headers, with the HTML kept for the server to send. */
export function pageResponse(html: string, init: ResponseInit): Response {
  const response = new Response(null, init);
  bodies.set(response, html);
  return response;
}

/** The HTML of a page's response, handed out once; undefined for any other response. */
export function takePageBody(response: Response): string | undefined {
  const html = bodies.get(response);
  bodies.delete(response);
  return html;
}
