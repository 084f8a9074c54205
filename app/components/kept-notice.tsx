import { Link } from '@remix-run/react';
import { formatDay } from './content-card';

/**
 * What a lapsed member is told on the vault (decision 014): their membership ended, they keep what was published
 * while they paid (the items below, "From your membership"), and newer items come with subscribing again.
 */
export function KeptNotice({ artistUsername, until }: { artistUsername: string; until: string }) {
  return (
    <aside aria-labelledby="kept-title" className="mt-8 rounded-2xl bg-accent/10 p-5 ring-1 ring-accent/40 sm:p-6">
      <h2 id="kept-title" className="text-lg font-bold text-white">
        Your membership ended on {formatDay(until)}
      </h2>
      <p className="mt-2 text-base text-white/85">
        You keep everything published while you were a member: it is below, to read and play. Newer items are for members.
      </p>
      <Link
        to={`/${artistUsername}/subscribe`}
        className="mt-4 inline-flex rounded-full bg-accent px-5 py-2 text-base font-bold text-navy hover:bg-accent/90 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent focus-visible:ring-offset-2 focus-visible:ring-offset-navy"
      >
        Subscribe again
      </Link>
    </aside>
  );
}
