import * as z from 'zod/mini';
import { parseScheduleDate } from './content-rules';

/**
 * The artist's promo codes (docs/payments.md "Promo codes"): the form of /{artist}/account/promos and
 * POST /performers/me/promos, and the codes as the api lists them. Amounts in major units, in the artist's currency.
 */

export const promoMessages = {
  code: 'A promo code is 3 to 40 letters, digits, dashes or underscores.',
  discount: 'Choose a percent or an amount off.',
  percent: 'The percent off must be a whole number from 1 to 100.',
  amount: 'The amount off must be more than 0 with at most two decimals, e.g. 5 or 4.99.',
  endsOn: 'Please enter the date in DD/MM/YYYY format.',
  endsInPast: 'The last day must be today or later.',
  maxUses: 'The most uses must be a whole number of at least 1 (or empty for no limit).',
  taken: (code: string) => `You already have the promo code "${code}".`,
  amountOverPrice: (price: string) => `The amount off cannot be more than the yearly price (${price}).`,
  belowMinimum: (minimum: string) =>
    `That would leave less than ${minimum} to pay, the smallest card payment: take the whole price off (a free first year) or leave at least ${minimum}.`,
} as const;

const optionalText = z.pipe(
  z.optional(z.string().check(z.trim())),
  z.transform((value) => value || undefined),
);

/** The last day a code works, DD/MM/YYYY: it works until the end of that day (UTC). */
export function promoEndInstant(endsOn: string) {
  const date = parseScheduleDate(endsOn);
  if (!date) return undefined;
  return new Date(Date.UTC(date.year, date.month - 1, date.day + 1));
}

export const ArtistPromoSchema = z
  .object({
    code: z.string({ error: promoMessages.code }).check(z.trim(), z.regex(/^[A-Za-z0-9_-]{3,40}$/, { error: promoMessages.code })),
    discount: z.enum(['percent', 'amount'], { error: promoMessages.discount }),
    value: z.string({ error: promoMessages.amount }).check(z.trim()),
    endsOn: optionalText,
    maxUses: optionalText,
  })
  .check(
    z.superRefine((promo, ctx) => {
      if (promo.discount === 'percent' && !(/^\d{1,3}$/.test(promo.value) && Number(promo.value) >= 1 && Number(promo.value) <= 100)) {
        ctx.issues.push({ code: 'custom', message: promoMessages.percent, path: ['value'], input: promo.value });
      }
      if (promo.discount === 'amount' && !(/^\d{1,6}(\.\d{1,2})?$/.test(promo.value) && Number(promo.value) > 0)) {
        ctx.issues.push({ code: 'custom', message: promoMessages.amount, path: ['value'], input: promo.value });
      }
      if (promo.endsOn !== undefined) {
        const end = promoEndInstant(promo.endsOn);
        if (!end) ctx.issues.push({ code: 'custom', message: promoMessages.endsOn, path: ['endsOn'], input: promo.endsOn });
        else if (end.getTime() <= Date.now()) {
          ctx.issues.push({ code: 'custom', message: promoMessages.endsInPast, path: ['endsOn'], input: promo.endsOn });
        }
      }
      if (promo.maxUses !== undefined && !(/^\d{1,7}$/.test(promo.maxUses) && Number(promo.maxUses) >= 1)) {
        ctx.issues.push({ code: 'custom', message: promoMessages.maxUses, path: ['maxUses'], input: promo.maxUses });
      }
    }),
  );

export type ArtistPromoInput = z.input<typeof ArtistPromoSchema>;

export type PromoState = 'active' | 'paused' | 'expired' | 'used_up';

export interface PromoRedemption {
  fan: { username: string; name: string };
  amount: number;
  createdAt: string;
}

export interface ArtistPromo {
  _id: string;
  code: string;
  percentOff: number | null;
  amountOff: number | null;
  /** The first instant it no longer works. */
  expiresAt: string | null;
  maxRedemptions: number | null;
  /** Payments that used it (those under way count: a code's limit holds them). */
  timesRedeemed: number;
  paused: boolean;
  state: PromoState;
  createdAt: string;
  /** The payments that went through with it, newest first (at most 20). */
  redemptions: PromoRedemption[];
}

export interface ArtistPromoList {
  currency: string;
  data: ArtistPromo[];
}

export type PromoAction = 'pause' | 'resume' | 'expire';
