import type { ContentItem, PresaleCode } from '~/utils/content.server';
import { formatMoment } from './content-card';

/**
 * What a fan needs to act on a ticket presale: when the sale opens and closes, the ticket link, and the fan's own
 * code (made for them alone, so a leaked code can be traced and revoked). The artist sees the link and dates.
 */
export function PresaleCard({
  presale,
  code,
  isOwner,
}: {
  presale: NonNullable<ContentItem['presale']>;
  code: PresaleCode | null;
  isOwner: boolean;
}) {
  const now = Date.now();
  const notYet = presale.saleStartsAt && new Date(presale.saleStartsAt).getTime() > now;
  const over = presale.saleEndsAt && new Date(presale.saleEndsAt).getTime() < now;
  return (
    <section aria-labelledby="presale-title" className="rounded-2xl bg-accent/10 p-5 ring-2 ring-accent sm:p-6">
      <h2 id="presale-title" className="text-xl font-bold text-white">
        Ticket presale
      </h2>
      <dl className="mt-4 grid gap-4 sm:grid-cols-2">
        {presale.saleStartsAt ? (
          <div>
            <dt className="text-sm text-white/75">Sale opens</dt>
            <dd className="text-base font-semibold text-white">{formatMoment(presale.saleStartsAt)}</dd>
          </div>
        ) : null}
        {presale.saleEndsAt ? (
          <div>
            <dt className="text-sm text-white/75">Sale closes</dt>
            <dd className="text-base font-semibold text-white">{formatMoment(presale.saleEndsAt)}</dd>
          </div>
        ) : null}
        {code ? (
          <div className="sm:col-span-2">
            <dt className="text-sm text-white/75">Your presale code</dt>
            <dd className="mt-1">
              {code.revokedAt ? (
                <span className="text-base text-red-200">Your code {code.code} was revoked. Contact the artist if you think this is a mistake.</span>
              ) : (
                <code className="inline-block select-all rounded-lg bg-navy-dark px-4 py-2 font-mono text-2xl font-bold tracking-widest text-accent">
                  {code.code}
                </code>
              )}
            </dd>
            {code.revokedAt ? null : <p className="mt-2 text-sm text-white/75">This code is yours alone: please do not share it.</p>}
          </div>
        ) : null}
      </dl>
      {isOwner ? <p className="mt-4 text-sm text-white/80">Each member sees their own code here.</p> : null}
      <p className="mt-5">
        <a
          href={presale.ticketUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex items-center rounded-full bg-accent px-6 py-3 text-base font-bold text-navy hover:bg-accent-dark focus:outline-none focus-visible:ring-2 focus-visible:ring-white"
        >
          {over ? 'The presale has ended' : notYet ? 'Ticket page' : 'Buy tickets'}
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      </p>
    </section>
  );
}
