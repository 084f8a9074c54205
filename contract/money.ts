/** The currencies an artist can charge in (ISO 4217, lowercase as Stripe writes them). */
export const CURRENCIES = ['usd', 'eur', 'gbp'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const CURRENCY_LABELS: Record<Currency, string> = {
  usd: 'US dollars ($)',
  eur: 'Euros (€)',
  gbp: 'Pounds sterling (£)',
};

/**
 * The smallest amount a card payment can take in each currency (Stripe's minimum charge). A first year that a
 * promo code brings below it is not charged at all (docs/payments.md "Promo codes"): Stripe would not charge it
 * either, and a code can never leave the fan a few cents to pay.
 */
export const MIN_CHARGE_CENTS: Record<Currency, number> = { usd: 50, eur: 50, gbp: 30 };

export function minimumChargeCents(currency: string) {
  return MIN_CHARGE_CENTS[currency as Currency] ?? MIN_CHARGE_CENTS.usd;
}

const formats = new Map<string, Intl.NumberFormat>();

/**
 * Formats an amount in major units in its currency, e.g. (49.99, 'gbp') → "£49.99". Every price the app shows goes
 * through here (pages, mails, the CLI), so a price is never shown in a currency it is not charged in.
 */
export function formatPrice(amount: number, currency: string) {
  const code = currency.toUpperCase();
  let format = formats.get(code);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency: code });
    formats.set(code, format);
  }
  return format.format(amount);
}

/** The same for integer cents, as the database keeps them. */
export function formatCents(cents: number, currency: string) {
  return formatPrice(cents / 100, currency);
}

/**
 * A yearly membership's next renewal: the same day a year after `from`, as PostgreSQL's interval '1 year' counts it
 * (renewals and gifts); the payment page promises it and the first payment records it.
 */
export function oneYearAfter(from: Date) {
  const date = new Date(from);
  date.setUTCFullYear(date.getUTCFullYear() + 1);
  return date;
}
