import { Link } from '@remix-run/react';

const LINKS = [
  { to: 'create-text', label: 'Write a post', hint: 'Text, a poll, a presale or an announcement' },
  { to: 'create-image', label: 'Post a photo', hint: 'An image with a caption' },
  { to: 'add-to-vault', label: 'Add to the vault', hint: 'A demo, voice note, session or video' },
  { to: 'content', label: 'Your content', hint: 'Drafts, scheduled and published items' },
  { to: 'collections', label: 'Collections', hint: 'Group items for fans, in your order' },
  { to: 'moderation', label: 'Moderation', hint: 'Reports, blocked fans, muted words and the log' },
] as const;

const MONEY_LINKS = [
  { to: 'earnings', label: 'Earnings', hint: 'Members, money by month, refunds and payouts' },
  { to: 'promos', label: 'Promo codes', hint: 'Discounts for new members, and who used them' },
] as const;

type StudioPage = (typeof LINKS)[number]['to'] | (typeof MONEY_LINKS)[number]['to'];

/**
 * The artist's way into the studio pages (publishing, then money), for their /{artist}/account page: plain links, so they work without
 * JavaScript.
 */
export function ArtistStudioLinks({ artistUsername, current }: { artistUsername: string; current?: StudioPage }) {
  return (
    <nav aria-label="Studio" className="rounded-2xl bg-navy-light p-6 ring-1 ring-white/10 sm:p-8">
      <h2 id="studio-links-title" className="text-2xl font-bold text-white">
        Publish
      </h2>
      <StudioLinkList artistUsername={artistUsername} current={current} links={LINKS} />
      <h2 id="studio-money-title" className="mt-8 text-2xl font-bold text-white">
        Money
      </h2>
      <StudioLinkList artistUsername={artistUsername} current={current} links={MONEY_LINKS} />
    </nav>
  );
}

function StudioLinkList({
  artistUsername,
  current,
  links,
}: {
  artistUsername: string;
  current?: StudioPage;
  links: readonly { to: StudioPage; label: string; hint: string }[];
}) {
  return (
    <ul className="mt-5 grid gap-3 sm:grid-cols-2">
      {links.map((link) => (
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
  );
}
