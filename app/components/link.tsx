import { useNavigate } from '@remix-run/react';
import { useEffect, type AnchorHTMLAttributes } from 'react';

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  /** Where it goes: a path inside the app, or a query or hash that the browser resolves against the page. */
  to: string;
  /** Replace the current history entry instead of adding one (a link to the page itself always does). */
  replace?: boolean;
  /** Keep the scroll position, as a filter or a "load older" link should. */
  preventScrollReset?: boolean;
};

/**
 * A link inside the app. On the server it is its `<a>` and nothing more: Remix's `Link` runs React Router's path
 * resolution three times a link (two `useHref`s and the click handler's), which was 7–10 % of a list page's server time
 * (decision 008). In the browser, `useLinkNavigation` (mounted once by the root) turns a plain click on it into a
 * client-side navigation, as Remix's `Link` does; before the scripts load, and without them, it is an ordinary link.
 *
 * Remix's `Link` is still the one for what this does not do: `prefetch`, and paths relative to the route.
 */
export function Link({ to, replace, preventScrollReset, ...props }: LinkProps) {
  // The rest comes last: adding properties after a spread sends V8 down a slow path, three times the cost of the
  // whole link (measured with renderToString; `props` has no href of its own to overwrite ours).
  return <a href={to} data-link={replace ? 'replace' : ''} data-keep-scroll={preventScrollReset ? '' : undefined} {...props} />;
}

/** The browser side of `Link`: one click listener on the document for every link of the page. */
export function useLinkNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    function onClick(event: MouseEvent) {
      const target = inAppTarget(event);
      if (!target) return;
      event.preventDefault();
      const { anchor, to } = target;
      const here = window.location.pathname + window.location.search + window.location.hash;
      navigate(to, { replace: anchor.dataset.link === 'replace' || to === here, preventScrollReset: anchor.dataset.keepScroll != null });
    }
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, [navigate]);
}

/**
 * The link a click is on and the path it should navigate to in the app, or null where the browser should have it: a
 * click already handled, another button or a modifier key (a new tab or window, a download), a link of another kind,
 * another target or another origin. These are the cases React Router's own links leave to the browser.
 */
function inAppTarget(event: MouseEvent): { anchor: HTMLAnchorElement; to: string } | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return null;
  const anchor = event.target instanceof Element ? event.target.closest('a') : null;
  if (!anchor || !anchor.hasAttribute('data-link') || anchor.hasAttribute('download')) return null;
  if (anchor.target && anchor.target !== '_self') return null;
  const url = new URL(anchor.href);
  if (url.origin !== window.location.origin) return null;
  return { anchor, to: url.pathname + url.search + url.hash };
}
