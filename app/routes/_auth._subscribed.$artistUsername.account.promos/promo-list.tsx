import { Form, useNavigation } from '@remix-run/react';
import { formatPrice } from '#contract/money';
import type { ArtistPromo, PromoState } from '#contract/promo-schemas';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

const STATE_LABELS: Record<PromoState, string> = { active: 'Active', paused: 'Paused', expired: 'Expired', used_up: 'Used up' };

/** Each code: what it takes off, its state, its limits, the link to share, its actions, and who used it. */
export function PromoList({ promos, currency, shareBase }: { promos: ArtistPromo[]; currency: string; shareBase: string }) {
  if (!promos.length) return <p className="mt-3 text-base text-white/75">No codes yet. Make one above and share its link.</p>;
  return (
    <ul className="mt-4 space-y-4">
      {promos.map((promo) => (
        <li key={promo._id} className="rounded-2xl bg-navy-light p-5 ring-1 ring-white/10">
          <PromoCard promo={promo} currency={currency} shareBase={shareBase} />
        </li>
      ))}
    </ul>
  );
}

function PromoCard({ promo, currency, shareBase }: { promo: ArtistPromo; currency: string; shareBase: string }) {
  const off = promo.percentOff ? `${promo.percentOff}% off` : `${formatPrice(promo.amountOff ?? 0, currency)} off`;
  const lastDay = promo.expiresAt ? dateFormat.format(new Date(new Date(promo.expiresAt).getTime() - 1)) : null;
  const share = `${shareBase}?promo=${encodeURIComponent(promo.code)}`;
  const over = promo.state === 'expired';
  return (
    <article aria-labelledby={`promo-${promo._id}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={`promo-${promo._id}`} className="font-mono text-lg font-bold tracking-wide text-white">
          {promo.code}
        </h3>
        <p className="rounded-full bg-white/10 px-3 py-0.5 text-sm font-semibold text-white">{STATE_LABELS[promo.state]}</p>
      </div>
      <p className="mt-1 text-base text-white/85">
        {off} the first year
        {lastDay ? ` · ${over ? 'ended' : 'until'} ${lastDay}` : ''}
        {' · '}
        used {promo.timesRedeemed}
        {promo.maxRedemptions ? ` of ${promo.maxRedemptions}` : ''} {promo.timesRedeemed === 1 && !promo.maxRedemptions ? 'time' : 'times'}
      </p>
      {over ? null : (
        <p className="mt-1 break-all text-sm text-white/70">
          Share: <span className="text-white/90">{share}</span>
        </p>
      )}
      {over ? null : (
        <div className="mt-3 flex flex-wrap gap-3">
          <ActionButton promo={promo} intent={promo.paused ? 'resume' : 'pause'} label={promo.paused ? 'Resume' : 'Pause'} />
          <ActionButton promo={promo} intent="expire" label="Expire now" />
        </div>
      )}
      {promo.redemptions.length ? (
        <details className="mt-3">
          <summary className="w-fit cursor-pointer rounded text-sm font-semibold text-accent hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-accent">
            Who used it ({promo.redemptions.length})
          </summary>
          <ul className="mt-2 divide-y divide-white/10 text-sm">
            {promo.redemptions.map((redemption) => (
              <li key={`${redemption.fan.username}-${redemption.createdAt}`} className="flex justify-between gap-3 py-1.5">
                <span className="min-w-0 truncate text-white">{redemption.fan.name}</span>
                <span className="shrink-0 text-white/70">
                  {redemption.amount ? formatPrice(redemption.amount, currency) : 'free trial'} ·{' '}
                  {dateFormat.format(new Date(redemption.createdAt))}
                </span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </article>
  );
}

function ActionButton({ promo, intent, label }: { promo: ArtistPromo; intent: 'pause' | 'resume' | 'expire'; label: string }) {
  const navigation = useNavigation();
  const pending =
    navigation.state !== 'idle' && navigation.formData?.get('promoId') === promo._id && navigation.formData?.get('intent') === intent;
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="promoId" value={promo._id} />
      <input type="hidden" name="code" value={promo.code} />
      <button
        type="submit"
        disabled={pending}
        className="rounded-full border border-white/30 px-4 py-2 text-sm font-semibold text-white hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent disabled:opacity-60"
      >
        {label}
        <span className="sr-only"> {promo.code}</span>
      </button>
    </Form>
  );
}
