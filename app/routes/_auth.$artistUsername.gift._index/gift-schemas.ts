import * as z from 'zod/mini';
import { GiftFormSchema } from '#contract/gifts';
import { CardNumberSchema, CvcSchema, ExpirySchema } from '#contract/payment-schemas';

/** The gift form, checked in the browser and by the action: with the test gateway's card fields, or for Checkout. */
export const GiftCardFormSchema = z.extend(GiftFormSchema, {
  intent: z.literal('test-card'),
  idempotencyKey: z.string().check(z.maxLength(100)),
  number: CardNumberSchema,
  expiry: ExpirySchema,
  cvc: CvcSchema,
});
export const GiftCheckoutFormSchema = z.extend(GiftFormSchema, {
  intent: z.literal('checkout'),
  idempotencyKey: z.string().check(z.maxLength(100)),
});
