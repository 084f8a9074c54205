import { describe, expect, it } from 'vitest';
import { formatCardNumber, formatExpiry } from '../../app/routes/_auth._unsubscribed.$artistUsername.subscribe.payment/card-typing';
import { TestCardFormSchema } from '#contract/payment-schemas';

describe('the card form as it is typed', () => {
  it.each([
    ['4', '4'],
    ['4242', '4242'],
    ['42424', '4242 4'],
    ['4242424242424242', '4242 4242 4242 4242'],
    ['4242-4242 4242x4242', '4242 4242 4242 4242'],
    ['42424242424242424242', '4242 4242 4242 4242 424'],
  ])('groups the card number %j as %j', (typed, shown) => {
    expect(formatCardNumber(typed)).toBe(shown);
  });

  it.each([
    ['1', '1'],
    ['12', '12'],
    ['123', '12/3'],
    ['1234', '12/34'],
    ['12/34', '12/34'],
    ['12345', '12/34'],
    ['4', '04'],
    ['430', '04/30'],
    ['', ''],
  ])('writes the expiry %j as %j', (typed, shown) => {
    expect(formatExpiry(typed)).toBe(shown);
  });

  it.each(['1234', '12/34', '12 34', '12-34', '12 / 2034', '1/34'])('the schema reads the expiry %j', (expiry) => {
    const expected = expiry === '1/34' ? { expMonth: 1, expYear: 2034 } : { expMonth: 12, expYear: 2034 };
    expect(TestCardFormSchema.parse({ number: '4242424242424242', expiry, cvc: '123' }).expiry).toEqual(expected);
  });

  it.each(['13/34', '1', '12/345', 'ab/cd', '00/34'])('the schema refuses the expiry %j', (expiry) => {
    expect(TestCardFormSchema.safeParse({ number: '4242424242424242', expiry, cvc: '123' }).success).toBe(false);
  });
});
