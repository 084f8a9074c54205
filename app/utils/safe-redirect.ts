/**
 * An address no page can have: targets are resolved against it, so whatever keeps this origin stays on our site.
 * (`.invalid` is reserved, RFC 2606: it can never be someone's host.)
 */
const OWN_ORIGIN = 'http://stagedoor.invalid';

/**
 * Where a redirect built from a visitor's input (`next`, a form's `redirectTo`, a path taken from the URL) may send
 * the browser: only a page of this site. The target is read as the browser will read it — the WHATWG URL parser
 * drops tabs and newlines and takes backslashes for slashes — so `/\t/evil.example`, `/\evil.example` and
 * `//evil.example` are seen to lead elsewhere. The answer is the parser's own path, search and hash: what the
 * browser will follow, percent-encoded (a Location header must be ASCII: raw `%0d` or non-ASCII would fail it).
 * A path that only comes out with two leading slashes (`/..//evil.example`) is refused too: sent on as it is, the
 * browser would read it as another host.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/discover') {
  if (typeof to !== 'string' || !to.startsWith('/')) return fallback;
  let url: URL;
  try {
    url = new URL(to, OWN_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== OWN_ORIGIN || url.pathname.startsWith('//')) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
