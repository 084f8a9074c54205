import { Link } from '@remix-run/react';

const SECTIONS = [
  { key: 'home', label: 'Home', path: '' },
  { key: 'vault', label: 'Vault', path: '/vault' },
  { key: 'posts', label: 'Posts', path: '/posts' },
  { key: 'bookmarks', label: 'Bookmarks', path: '/account/bookmarks' },
] as const;

export type ArtistSection = (typeof SECTIONS)[number]['key'];

/**
 * The fan club's sections, as tabs under the artist header and atop each list page. The fan moves between them all
 * the time, so a tab fetches its page's data and code as it is hovered or focused (prefetch="intent").
 */
export function ArtistNav({
  artistUsername,
  current,
  className = '',
}: {
  artistUsername: string;
  current: ArtistSection;
  className?: string;
}) {
  return (
    <nav aria-label="Fan club" className={`mx-auto mt-8 max-w-6xl px-4 sm:px-6 ${className}`}>
      <ul className="-mx-1 flex gap-1 overflow-x-auto border-b border-white/15">
        {SECTIONS.map((section) => {
          const active = section.key === current;
          return (
            <li key={section.key} className="shrink-0">
              <Link
                to={`/${artistUsername}${section.path}`}
                prefetch={active ? 'none' : 'intent'}
                aria-current={active ? 'page' : undefined}
                className={`-mb-px inline-block rounded-t-lg border-b-2 px-3 py-2.5 text-base font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-accent sm:px-4 ${
                  active ? 'border-accent text-white' : 'border-transparent text-white/75 hover:text-white'
                }`}
              >
                {section.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
