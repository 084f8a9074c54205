import { describe, expect, it } from 'vitest';
import { ArtistProfileSchema, profileMessages } from '#contract/artist-profile';
import { cardMessages, isExpired, luhnValid, TestCardFormSchema } from '#contract/payment-schemas';
import { promoMessages } from '#contract/promo-schemas';
import { discountedCents, promoPriceProblem } from '../../api/payments/promos';

const errorsOf = (input: Record<string, unknown>) => {
  const result = TestCardFormSchema.safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
};

describe('the test card form', () => {
  it('accepts a test card with spaces, MM/YY and a CVC, and reads the expiry as a month and a four-digit year', () => {
    const result = TestCardFormSchema.parse({ number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123' });
    expect(result).toMatchObject({ number: '4242424242424242', expiry: { expMonth: 12, expYear: 2034 }, cvc: '123' });
  });

  it('says what is wrong with each field', () => {
    expect(errorsOf({})).toEqual({ number: cardMessages.number, expiry: cardMessages.expiry, cvc: cardMessages.cvc });
    expect(errorsOf({ number: '4242 4242 4242 4241', expiry: '13/30', cvc: '12345' })).toEqual({
      number: cardMessages.number,
      expiry: cardMessages.expiry,
      cvc: cardMessages.cvc,
    });
    expect(errorsOf({ number: '4242424242424242', expiry: '01/20', cvc: '123' })).toEqual({ expiry: cardMessages.expired });
  });

  it('Luhn and expiry: a card is valid through the end of its month', () => {
    expect(luhnValid('4000002760003184')).toBe(true);
    expect(luhnValid('4000002760003185')).toBe(false);
    const now = new Date(Date.UTC(2026, 10, 22));
    expect(isExpired(11, 2026, now)).toBe(false);
    expect(isExpired(10, 2026, now)).toBe(true);
    expect(isExpired(1, 2027, now)).toBe(false);
  });
});

describe('promo discounts', () => {
  it('takes a percent (rounded to the cent) or an amount off, never below zero', () => {
    expect(discountedCents(4999, { percentOff: 50, amountOffCents: null }, 'usd')).toBe(2499);
    expect(discountedCents(4999, { percentOff: 20, amountOffCents: null }, 'usd')).toBe(3999);
    expect(discountedCents(4999, { percentOff: null, amountOffCents: 1000 }, 'usd')).toBe(3999);
    expect(discountedCents(500, { percentOff: null, amountOffCents: 1000 }, 'usd')).toBe(0);
    expect(discountedCents(4999, { percentOff: 100, amountOffCents: null }, 'usd')).toBe(0);
    expect(discountedCents(4999, null, 'usd')).toBe(4999);
  });

  it('never leaves less than the smallest card payment to pay: below it the first year is free', () => {
    // $49.99 less $49.70 would be 29 cents, under the 50-cent minimum; in pounds 30 pence is enough.
    expect(discountedCents(4999, { percentOff: null, amountOffCents: 4970 }, 'usd')).toBe(0);
    expect(discountedCents(4999, { percentOff: null, amountOffCents: 4949 }, 'usd')).toBe(50);
    expect(discountedCents(2999, { percentOff: null, amountOffCents: 2969 }, 'gbp')).toBe(30);
    expect(discountedCents(2999, { percentOff: null, amountOffCents: 2970 }, 'gbp')).toBe(0);
    expect(discountedCents(100, { percentOff: 99, amountOffCents: null }, 'eur')).toBe(0);
  });

  it('a new code must fit the price: no amount off above it, nothing between free and the smallest payment', () => {
    expect(promoPriceProblem(2999, 'gbp', { amountOff: 3000 })).toBe(promoMessages.amountOverPrice('£29.99'));
    expect(promoPriceProblem(2999, 'gbp', { amountOff: 2999 })).toBeUndefined();
    expect(promoPriceProblem(2999, 'gbp', { amountOff: 2980 })).toBe(promoMessages.belowMinimum('£0.30'));
    expect(promoPriceProblem(2999, 'gbp', { amountOff: 500 })).toBeUndefined();
    expect(promoPriceProblem(100, 'usd', { percentOff: 90 })).toBe(promoMessages.belowMinimum('$0.50'));
    expect(promoPriceProblem(100, 'usd', { percentOff: 100 })).toBeUndefined();
  });
});

describe('the artist profile form', () => {
  it('turns perks typed one a line into a list and the checkbox into a boolean', () => {
    const value = ArtistProfileSchema.parse({
      name: ' Nova ',
      yearlyPrice: '49.99',
      subscriptionPerks: 'Demos\r\n\r\n Presales ',
      activateWelcomeVideo: 'on',
    });
    expect(value).toMatchObject({
      name: 'Nova',
      yearlyPrice: 49.99,
      subscriptionPerks: ['Demos', 'Presales'],
      activateWelcomeVideo: true,
      bio: '',
    });
    expect(ArtistProfileSchema.parse({ name: 'Nova', yearlyPrice: 0 }).activateWelcomeVideo).toBe(false);
  });

  it('refuses a bad price and too many perks with its messages', () => {
    const result = ArtistProfileSchema.safeParse({
      name: 'Nova',
      yearlyPrice: '4.999',
      subscriptionPerks: Array.from({ length: 11 }, (_, i) => `Perk ${i}`),
    });
    expect(result.success).toBe(false);
    const messages = result.error!.issues.map((issue) => issue.message);
    expect(messages).toContain(profileMessages.price);
    expect(messages).toContain(profileMessages.perks);
  });
});
