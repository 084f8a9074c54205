import type { PromoCheck } from '#contract/payments';
import { formatPrice } from '#contract/money';
import { formatDate } from '~/utils/dates';
import type { Artist } from '~/utils/mappers';

/**
 * The artist, what is charged and when (today, or when the free trial ends; with the promo code's discount), and
 * when and at what price the membership renews.
 */
export function OrderSummary({
  artist,
  promo,
  trialDays = 0,
  firstChargeOn,
  renewsOn,
}: {
  artist: Artist;
  promo: PromoCheck | null;
  trialDays?: number;
  /** ISO dates the loader works out: the first charge (today, or the trial's end) and the first renewal. */
  firstChargeOn: string;
  renewsOn: string;
}) {
  const price = formatPrice(artist.yearlyPrice, artist.currency);
  return (
    <section aria-label="Your order" className="mb-8 rounded-2xl bg-navy-light/70 p-4 ring-1 ring-white/10">
      <div className="flex items-center gap-4">
        <img src={artist.avatarUrl} alt="" className="h-14 w-14 shrink-0 rounded-full object-cover ring-2 ring-accent" />
        <div className="min-w-0 flex-1">
          <p className="truncate text-lg font-bold text-white">{artist.name}</p>
          <p className="text-base text-white/80">Official fan club · yearly membership</p>
        </div>
      </div>
      {artist.yearlyPrice > 0 ? (
        <dl className="mt-4 space-y-1 border-t border-white/10 pt-4 text-base">
          {trialDays ? (
            <div className="flex justify-between gap-4">
              <dt className="text-white/80">Today</dt>
              <dd className="font-semibold text-accent">Free for {trialDays} days</dd>
            </div>
          ) : null}
          <div className="flex justify-between gap-4">
            <dt className="text-white/80">{trialDays ? `Charged on ${formatDate(firstChargeOn)}` : 'Charged today'}</dt>
            <dd className="font-semibold text-white">
              {promo ? (
                <>
                  <del className="mr-2 font-normal text-white/70">
                    <span className="sr-only">was </span>
                    {price}
                  </del>
                  <ins className="no-underline">{formatPrice(promo.discountedPrice, artist.currency)}</ins>
                </>
              ) : (
                price
              )}
            </dd>
          </div>
          {promo ? (
            <div className="flex justify-between gap-4 text-sm">
              <dt className="text-accent">Promo code {promo.code}</dt>
              <dd className="text-accent">
                {promo.percentOff ? `${promo.percentOff}% off` : `${formatPrice(promo.amountOff ?? 0, artist.currency)} off`}
              </dd>
            </div>
          ) : null}
          <div className="flex justify-between gap-4 text-sm text-white/75">
            <dt>Renews on {formatDate(renewsOn)}, then each year</dt>
            <dd>{price}</dd>
          </div>
        </dl>
      ) : null}
    </section>
  );
}
