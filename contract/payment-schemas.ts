import * as z from 'zod/mini';
import { required } from './zod-required';

/**
 * The test gateway's card form on the payment page. The api's test gateway checks the same card rules with the same
 * words (api/payments/test-gateway.ts). zod/mini, as in validation.ts: the page ships a few KB of zod, not 28.
 */
export const cardMessages = {
  number: 'Please enter a valid card number.',
  notTestCard: 'This is a test payment and real cards are not accepted. Use a test card such as 4242 4242 4242 4242.',
  expiry: 'Please enter the expiry date as MM/YY.',
  expired: 'Your card’s expiry date is in the past.',
  cvc: 'Please enter the 3 or 4 digit security code.',
} as const;

/** Luhn's check digit: catches most mistyped numbers before any call. */
export function luhnValid(digits: string) {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** True when the card's last valid month is over (a card is valid through the end of its expiry month). */
export function isExpired(expMonth: number, expYear: number, now = new Date()) {
  return expYear < now.getUTCFullYear() || (expYear === now.getUTCFullYear() && expMonth < now.getUTCMonth() + 1);
}

export const CardNumberSchema = z.pipe(
  z.pipe(
    z.string(required(cardMessages.number)),
    z.transform((value: string) => value.replace(/[\s-]/g, '')),
  ),
  z.string().check(z.regex(/^\d{12,19}$/, { error: cardMessages.number }), z.refine(luhnValid, { error: cardMessages.number })),
);

/**
 * The expiry as people type it: MM/YY or MM/YYYY, with a slash, a dash, a space or nothing between (a phone's numeric
 * keypad has no slash, so "1234" is December 2034).
 */
const EXPIRY = /^(0?[1-9]|1[0-2])\s*[/.\-\s]?\s*(\d{2}|\d{4})$/;

/** The expiry into month and four-digit year; a past month is refused. */
export const ExpirySchema = z
  .pipe(
    z.string(required(cardMessages.expiry)).check(z.trim(), z.regex(EXPIRY, { error: cardMessages.expiry })),
    z.transform((value: string) => {
      const [, month = '', year = ''] = EXPIRY.exec(value) ?? [];
      return { expMonth: Number(month), expYear: year.length === 2 ? 2000 + Number(year) : Number(year) };
    }),
  )
  .check(z.refine((value) => !isExpired(value.expMonth, value.expYear), { error: cardMessages.expired }));

export const CvcSchema = z.string(required(cardMessages.cvc)).check(z.trim(), z.regex(/^\d{3,4}$/, { error: cardMessages.cvc }));

export const TestCardFormSchema = z.object({
  number: CardNumberSchema,
  expiry: ExpirySchema,
  cvc: CvcSchema,
  promo: z.optional(z.string().check(z.trim(), z.maxLength(60))),
  idempotencyKey: z.optional(z.string().check(z.maxLength(100))),
});
