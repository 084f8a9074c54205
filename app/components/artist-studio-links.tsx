import { Link } from '@remix-run/react';

const LINKS = [
  { to: 'create-text', label: 'Write a post', hint: 'Text, a poll, a presale or an announcement' },
  { to: 'create-image', label: 'Post a photo', hint: 'An image with a caption' },
  { to: 'add-to-vault', label: 'Add to the vault', hint: 'A demo, voice note, session or video' },
  { to: 'content', label: 'Your content', hint: 'Drafts, scheduled and published items' },
  { to: 'collections', label: 'Collections', hint: 'Group items for fans, in your order' },
] as const;

/**
 * The artist's way into the creation pages, for their /{artist}/account page: plain links, so they work without
 * JavaScript.
 */
export function ArtistStudioLinks({ artistUsername, current }: { artistUsername: string; current?: (typeof LINKS)[number]['to'] }) {
  return (
    <nav aria-labelledby="studio-links-title" className="rounded-2xl bg-navy-light p-6 ring-1 ring-white/10 sm:p-8">
      <h2 id="studio-links-title" className="text-2xl font-bold text-white">
        Publish
      </h2>
      <ul className="mt-5 grid gap-3 sm:grid-cols-2">
        {LINKS.map((link) => (
          <li key={link.to}>
            <Link
              to={`/${artistUsername}/account/${link.to}`}
              aria-current={link.to === current ? 'page' : undefined}
              className="block h-full rounded-xl border border-white/15 px-4 py-3 hover:border-accent aria-[current=page]:border-accent focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
            >
              <span className="block text-base font-semibold text-white">{link.label}</span>
              <span className="mt-0.5 block text-sm text-white/70">{link.hint}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
