import { Logo } from './logo';

/** The legal and support pages live on the external marketing site; each opens in a new tab (spec §2). */
export function footerLinks(marketingUrl: string) {
  return [
    { label: 'Privacy Policy', href: `${marketingUrl}/privacy` },
    { label: 'Terms of Service', href: `${marketingUrl}/terms` },
    { label: 'Cookie Policy', href: `${marketingUrl}/cookies` },
    { label: 'Customer Support', href: `${marketingUrl}/support` },
  ];
}

export function Footer({ marketingUrl }: { marketingUrl: string }) {
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
        <Logo className="h-8" />
        <p className="text-xs text-white/60">© {new Date().getFullYear()} Stagedoor</p>
      </div>
    </footer>
  );
}
