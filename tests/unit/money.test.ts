import { describe, expect, it } from 'vitest';
import { ArtistProfileSchema, profileMessages } from '#contract/artist-profile';
import { RefundSchema, refundMessages } from '#contract/earnings';
import { formatCents, formatPrice } from '#contract/money';
import { ArtistPromoSchema, promoEndInstant, promoMessages } from '#contract/promo-schemas';
import { lastTwelveMonths } from '../../api/earnings/queries';
import { platformFeeCents } from '../../api/payments/money-settings';

const issues = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [String(issue.path[0]), issue.message]));

describe('prices in the artist’s currency', () => {
  it('writes each currency with its symbol, from major units or cents', () => {
    expect(formatPrice(29.99, 'gbp')).toBe('£29.99');
    expect(formatPrice(30, 'eur')).toBe('€30.00');
    expect(formatPrice(49.99, 'usd')).toBe('$49.99');
    expect(formatCents(1500, 'GBP')).toBe('£15.00');
  });

  it('the profile takes usd, eur or gbp (or leaves the currency out) and a trial of 0 to 90 days', () => {
    const base = { name: 'Band', yearlyPrice: '10' };
    expect(ArtistProfileSchema.parse({ ...base, currency: 'gbp', trialDays: '14' })).toMatchObject({ currency: 'gbp', trialDays: 14 });
    const left = ArtistProfileSchema.parse(base);
    expect(left.currency).toBeUndefined();
    expect(left.trialDays).toBeUndefined();
    expect(issues(ArtistProfileSchema.safeParse({ ...base, currency: 'jpy', trialDays: '91' }))).toEqual({
      currency: profileMessages.currency,
      trialDays: profileMessages.trialDays,
    });
  });
});

describe('refunds and fees', () => {
  it('a refund is all that is left (no amount) or an amount with at most two decimals, with a reason', () => {
    expect(RefundSchema.parse({ reason: ' Late ' })).toEqual({ amount: undefined, reason: 'Late', keepAccess: false });
    expect(RefundSchema.parse({ amount: '4.99', reason: 'x', keepAccess: 'on' })).toEqual({ amount: 4.99, reason: 'x', keepAccess: true });
    expect(issues(RefundSchema.safeParse({ amount: '0', reason: '' }))).toEqual({
      amount: refundMessages.amount,
      reason: refundMessages.reason,
    });
  });

  it('the platform’s fee is its percent of the amount, to the cent', () => {
    expect(platformFeeCents(4999, 10)).toBe(500);
    expect(platformFeeCents(1500, 10)).toBe(150);
    expect(platformFeeCents(2999, 0)).toBe(0);
  });

  it('the ledger’s 12 months end with the current one (UTC), oldest first', () => {
    const months = lastTwelveMonths(new Date(Date.UTC(2026, 0, 31, 23, 59)));
    expect(months.map((m) => m.key)).toEqual([
      '2025-02',
      '2025-03',
      '2025-04',
      '2025-05',
      '2025-06',
      '2025-07',
      '2025-08',
      '2025-09',
      '2025-10',
      '2025-11',
      '2025-12',
      '2026-01',
    ]);
  });
});

describe('the artist’s promo codes', () => {
  it('a percent of 1 to 100 or an amount, a last day DD/MM/YYYY working to its end (GMT), most uses of at least 1', () => {
    expect(ArtistPromoSchema.parse({ code: 'GIG', discount: 'amount', value: '4.50', endsOn: '', maxUses: '' })).toEqual({
      code: 'GIG',
      discount: 'amount',
      value: '4.50',
      endsOn: undefined,
      maxUses: undefined,
    });
    expect(promoEndInstant('29/02/2028')?.toISOString()).toBe('2028-03-01T00:00:00.000Z');
    expect(promoEndInstant('29/02/2027')).toBeUndefined();
    expect(issues(ArtistPromoSchema.safeParse({ code: 'GIG', discount: 'amount', value: '4.555' }))).toEqual({
      value: promoMessages.amount,
    });
    expect(issues(ArtistPromoSchema.safeParse({ code: 'GIG', discount: 'percent', value: '0', maxUses: '1.5' }))).toEqual({
      value: promoMessages.percent,
      maxUses: promoMessages.maxUses,
    });
  });
});
