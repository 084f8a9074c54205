import { Link } from '@remix-run/react';
import { priceLabel, type Artist } from '~/utils/mappers';

/** The artist's perks as a checked list (the artist's `subscriptionPerks`). */
export function PerkList({ perks }: { perks: string[] }) {
  if (!perks.length) return null;
  return (
    <ul className="space-y-3">
      {perks.map((perk) => (
        <li key={perk} className="flex gap-3 text-base text-white/90 sm:text-lg">
          <svg viewBox="0 0 20 20" className="mt-1 h-5 w-5 shrink-0 text-accent" fill="currentColor" aria-hidden="true">
            <path
              fillRule="evenodd"
              d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0Z"
              clipRule="evenodd"
            />
          </svg>
          <span>{perk}</span>
        </li>
      ))}
    </ul>
  );
}

/** The price as a big figure with its period: "$49.99 per year", or "Free". */
export function PriceFigure({ artist }: { artist: Pick<Artist, 'yearlyPrice' | 'currency'> }) {
  return (
    <p className="flex items-baseline gap-2">
      <span className="text-4xl font-extrabold tracking-tight text-white">{priceLabel(artist)}</span>
      {artist.yearlyPrice === 0 ? null : <span className="text-base text-white/75">per year</span>}
    </p>
  );
}

/** The yellow call to action as a link (the join and subscribe steps are plain navigations, no form). */
export function CtaLink({ to, children, className = '' }: { to: string; children: React.ReactNode; className?: string }) {
  return (
    <Link
      to={to}
      prefetch="intent"
      className={`inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-full bg-accent px-7 py-3.5 text-lg font-bold text-navy shadow-lg shadow-accent/10 transition hover:bg-accent-dark focus:outline-none focus-visible:ring-2 focus-visible:ring-white focus-visible:ring-offset-2 focus-visible:ring-offset-navy ${className}`}
    >
      {children}
    </Link>
  );
}

/** Where a fan who already has an account goes: log in, then back to the artist. */
export function loginHref(artistUsername: string, next?: string) {
  const search = new URLSearchParams({ artist: artistUsername });
  if (next) search.set('next', next);
  return `/login?${search}`;
}

function withPromo(path: string, promo?: string | null) {
  return promo ? `${path}?${new URLSearchParams({ promo })}` : path;
}

/** The register step's address, carrying a promo code along when the fan came with one. */
export function registerHref(artistUsername: string, promo?: string | null) {
  return withPromo(`/${artistUsername}/subscribe/register`, promo);
}

/** The payment step's address, with the promo code. */
export function paymentHref(artistUsername: string, promo?: string | null) {
  return withPromo(`/${artistUsername}/subscribe/payment`, promo);
}
