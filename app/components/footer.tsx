import { useLocation } from '@remix-run/react';
import { Logo } from './logo';

/** The legal and support pages live on the external marketing site; each opens in a new tab. */
export function footerLinks(marketingUrl: string) {
  return [
    { label: 'Privacy Policy', href: `${marketingUrl}/privacy` },
    { label: 'Terms of Service', href: `${marketingUrl}/terms` },
    { label: 'Cookie Policy', href: `${marketingUrl}/cookies` },
    { label: 'Customer Support', href: `${marketingUrl}/support` },
  ];
}

export function Footer({ marketingUrl, lite }: { marketingUrl: string; lite?: boolean }) {
  return (
    <footer className="border-t border-white/10 bg-navy text-white">
      <div className="mx-auto flex max-w-6xl flex-col items-center gap-8 px-4 py-10 sm:px-6">
        <nav aria-label="Legal and support">
          <ul className="flex flex-col items-center gap-x-8 gap-y-3 text-sm sm:flex-row sm:flex-wrap sm:justify-center">
            {footerLinks(marketingUrl).map((link) => (
              <li key={link.label}>
                <a
                  href={link.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="rounded text-white/80 underline-offset-4 hover:text-white hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
                >
                  {link.label}
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              </li>
            ))}
          </ul>
        </nav>
        {lite === undefined ? null : <LiteModeSwitch lite={lite} />}
        <Logo className="h-8" />
        <p className="text-xs text-white/60">© {new Date().getFullYear()} Stagedoor</p>
      </div>
    </footer>
  );
}

/**
 * Lite mode: pages without scripts, for fans who want to save data. A plain form that reloads the
 * page, so turning it on drops the scripts at once and turning it off brings them back.
 */
function LiteModeSwitch({ lite }: { lite: boolean }) {
  const location = useLocation();
  return (
    <form method="post" action="/lite" className="text-center text-sm text-white/80">
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <input type="hidden" name="lite" value={lite ? 'off' : 'on'} />
      {lite ? <span>Lite mode is on: pages load without scripts. </span> : null}
      <button
        type="submit"
        className="rounded font-semibold text-accent underline-offset-4 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
      >
        {lite ? 'Turn lite mode off' : 'Use lite mode to save data'}
      </button>
    </form>
  );
}
