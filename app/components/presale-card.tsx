import { Form } from '@remix-run/react';
import { useState } from 'react';
import type { ContentItem, Page, PresaleCode } from '#contract/content';
import type { PresaleCodeHolder } from '~/utils/content.server';
import { formatMoment } from './content-card';
import { useHydrated } from './use-hydrated';

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
                <span className="text-base text-red-200">
                  Your code {code.code} was revoked. Contact the artist if you think this is a mistake.
                </span>
              ) : (
                <span className="flex flex-wrap items-center gap-3">
                  <code className="inline-block select-all rounded-lg bg-navy-dark px-4 py-2 font-mono text-2xl font-bold tracking-widest text-accent">
                    {code.code}
                  </code>
                  <CopyButton text={code.code} />
                </span>
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

/**
 * The artist's side of a presale: every fan gets a code of their own, so a code that turns up where it should not
 * (a resale site, a group chat) names the fan it was made for. Look one up, or see the latest; revoke one and the
 * fan's page says so. Plain forms: a GET search and a POST per code.
 */
export function PresaleCodes({
  itemId,
  codes,
  query,
  error,
}: {
  itemId: string;
  codes: Page<PresaleCodeHolder>;
  query: string;
  error?: string;
}) {
  return (
    <section
      id="presale-codes"
      aria-labelledby="presale-codes-title"
      className="mt-6 rounded-2xl bg-navy-light p-5 ring-1 ring-white/10 sm:p-6"
    >
      <h2 id="presale-codes-title" className="text-xl font-bold text-white">
        Presale codes
      </h2>
      <p className="mt-1 text-sm text-white/80">
        {codes.total === 1 ? '1 code given out' : `${codes.total} codes given out`}
        {query ? ` matching ${query}` : ''}. Look up a code to see whose it is.
      </p>
      <Form method="get" className="mt-4 flex flex-wrap items-end gap-3" preventScrollReset>
        <div>
          <label htmlFor="presale-code-search" className="block text-sm font-semibold text-white">
            Code
          </label>
          <input
            id="presale-code-search"
            name="code"
            defaultValue={query}
            placeholder="K7MX-4PQR-2HTA"
            className="mt-1 block w-56 rounded-xl border border-white/20 bg-navy-dark px-3 py-2 font-mono text-base uppercase text-white placeholder:text-white/50 focus:outline-none focus:ring-2 focus:ring-accent"
          />
        </div>
        <button
          type="submit"
          className="rounded-full bg-white/10 px-4 py-2 text-base font-semibold text-white hover:bg-white/20 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
        >
          Look up
        </button>
      </Form>
      {error ? (
        <p role="alert" className="mt-3 text-sm text-red-200">
          {error}
        </p>
      ) : null}
      {codes.data.length ? (
        <ul className="mt-4 divide-y divide-white/10">
          {codes.data.map((code) => (
            <li key={code._id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div>
                <p className="font-mono text-base font-bold tracking-wider text-accent">{code.code}</p>
                <p className="text-sm text-white/80">
                  {code.fan.name || code.fan.username} (@{code.fan.username}){code.revokedAt ? ' · revoked' : ''}
                </p>
              </div>
              {code.revokedAt ? null : (
                <Form method="post" preventScrollReset>
                  <input type="hidden" name="intent" value="revoke-code" />
                  <input type="hidden" name="itemId" value={itemId} />
                  <input type="hidden" name="codeId" value={code._id} />
                  <button
                    type="submit"
                    className="rounded-full border border-red-300/60 px-4 py-1.5 text-sm font-semibold text-red-200 hover:bg-red-400/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-300"
                  >
                    Revoke<span className="sr-only"> code {code.code}</span>
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-4 text-base text-white/80">{query ? 'No code matches.' : 'No member has opened this presale yet.'}</p>
      )}
    </section>
  );
}

/**
 * Copies the code for the ticket site's form. Only with JavaScript and a clipboard (a secure page); without them the
 * code is selectable with one tap (select-all). "Copied" is announced, and goes back after a moment.
 */
function CopyButton({ text }: { text: string }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState<boolean | null>(null);
  if (!hydrated || !navigator.clipboard) return null;
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => {
        setCopied(true);
        setTimeout(() => setCopied(null), 2500);
      },
      () => setCopied(false),
    );
  return (
    <>
      <button
        type="button"
        onClick={copy}
        className="rounded-full border border-white/40 px-4 py-2 text-sm font-semibold text-white hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
      >
        {copied ? 'Copied' : 'Copy code'}
      </button>
      <span role="status" className="sr-only">
        {copied ? 'Presale code copied.' : copied === false ? 'Could not copy: select the code and copy it.' : ''}
      </span>
    </>
  );
}
