import type { MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData, type ShouldRevalidateFunction } from '@remix-run/react';
import { formatPrice } from '#contract/money';
import { ArtistStudioLinks } from '~/components/artist-studio-links';
import { StudioPage } from '~/components/studio-page';
import { EarningsChart } from './earnings-chart';
import { earningsAction, loadEarnings } from './earnings.server';
import { PaymentsList } from './payments-list';
import { Payouts } from './payouts';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Earnings · ${data.artist.name} | Stagedoor` : 'Earnings | Stagedoor' },
];

/**
 * /{artist}/account/earnings (the artist only): members now, the last 12 months as a chart and a table (joined,
 * left, churn, gross, refunds, fees, net), the payout account, and every payment with its refund form and a CSV
 * export. Amounts are in the artist's currency. Everything is server-rendered and works without JavaScript.
 */
export const loader = loadEarnings;
export const action = earningsAction;

/** A refused refund runs the loader again too: the next attempt gets a new request key. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod?.toLowerCase() === 'post' || defaultShouldRevalidate;

export default function EarningsPage() {
  const { artist, earnings, payments, page, pageSize, refunded, payoutsReturn, requestKey } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const money = (amount: number) => formatPrice(amount, earnings.currency);
  return (
    <StudioPage
      artistName={artist.name}
      title="Earnings"
      intro={`The last 12 months, in ${earnings.currency.toUpperCase()}. Fees are the platform’s ${earnings.feePercent}%.`}
    >
      {refunded ? (
        <p role="status" className="mb-6 rounded-lg bg-accent/15 px-3 py-2 text-base text-accent">
          {Number(refunded) > 0 ? `Refunded ${money(Number(refunded))}. The fan has been told by mail.` : 'That refund was already made.'}
        </p>
      ) : null}
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
        <Figure label="Members now">{String(earnings.membersNow)}</Figure>
        <Figure label="Gross">{money(earnings.totals.gross)}</Figure>
        <Figure label="Refunds and fees">{money(earnings.totals.refunds + earnings.totals.fees)}</Figure>
        <Figure label="Net, yours">{money(earnings.totals.net)}</Figure>
      </dl>
      <div className="mt-8">
        <EarningsChart months={earnings.months} currency={earnings.currency} />
      </div>
      <div className="mt-8">
        <Payouts status={earnings.payoutStatus} feePercent={earnings.feePercent} justBack={payoutsReturn === 'return'} />
      </div>
      <PaymentsList
        artistUsername={artist.username}
        payments={payments}
        page={page}
        pageSize={pageSize}
        requestKey={requestKey}
        lastResult={lastResult}
      />
      <div className="mt-12">
        <ArtistStudioLinks artistUsername={artist.username} current="earnings" />
      </div>
    </StudioPage>
  );
}

function Figure({ label, children }: { label: string; children: string }) {
  return (
    <div className="rounded-2xl bg-navy-light p-4 ring-1 ring-white/10">
      <dt className="text-sm text-white/70">{label}</dt>
      <dd className="mt-1 text-xl font-bold tabular-nums text-white sm:text-2xl">{children}</dd>
    </div>
  );
}
