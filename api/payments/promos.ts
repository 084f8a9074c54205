import { z } from 'zod';
import { formatCents, minimumChargeCents } from '#contract/money';
import { promoMessages } from '#contract/promo-schemas';
import { one, type Db, type Queryable } from '../db/client.js';
import { ApiError, badRequest, unprocessable } from '../http.js';

/**
 * Promo codes: per artist, a percent or an amount off the first year, with an optional expiry and an optional
 * limit on redemptions. A code is reserved when a payment starts (so "used up" is exact under concurrency) and
 * released again when that payment fails.
 */

export const PROMO_UNKNOWN = 'This promo code is not valid.';
export const PROMO_EXPIRED = 'This promo code has expired.';
export const PROMO_USED_UP = 'This promo code has already been used the maximum number of times.';
export const PROMO_PAUSED = 'This promo code is paused by the artist at the moment.';

export interface PromoRow {
  id: string;
  artistId: string;
  code: string;
  percentOff: number | null;
  amountOffCents: number | null;
  expiresAt: Date | null;
  maxRedemptions: number | null;
  timesRedeemed: number;
  stripeCouponId: string | null;
  paused: boolean;
}

const PROMO_SELECT = `SELECT id, artist_id AS "artistId", code, percent_off AS "percentOff", amount_off_cents AS "amountOffCents",
  expires_at AS "expiresAt", max_redemptions AS "maxRedemptions", times_redeemed AS "timesRedeemed",
  stripe_coupon_id AS "stripeCouponId", paused FROM promo_codes`;

/**
 * The first year's price after the code: never below zero, and never between zero and the smallest charge a card
 * payment can take (what is left then is not charged: the first year is free, as a 100% code makes it). New codes
 * cannot do either (checkPromoFitsPrice); codes stored before that rule, or whose artist lowered the price since,
 * are read this way.
 */
export function discountedCents(priceCents: number, promo: Pick<PromoRow, 'percentOff' | 'amountOffCents'> | null, currency: string) {
  if (!promo) return priceCents;
  const off = promo.percentOff ? Math.round((priceCents * promo.percentOff) / 100) : (promo.amountOffCents ?? 0);
  const left = Math.max(0, priceCents - off);
  return left < minimumChargeCents(currency) ? 0 : left;
}

/**
 * A new code must fit the artist's price: an amount off no more than the price, and what is left either nothing (a
 * free first year) or at least the smallest charge. Answers the message for the field, or undefined.
 */
export function promoPriceProblem(priceCents: number, currency: string, promo: { percentOff?: number; amountOff?: number }) {
  const off = promo.percentOff !== undefined ? Math.round((priceCents * promo.percentOff) / 100) : (promo.amountOff ?? 0);
  if (promo.amountOff !== undefined && off > priceCents) return promoMessages.amountOverPrice(formatCents(priceCents, currency));
  const left = priceCents - off;
  const minimum = minimumChargeCents(currency);
  if (left > 0 && left < minimum) return promoMessages.belowMinimum(formatCents(minimum, currency));
  return undefined;
}

/**
 * Finds a usable code for this artist or throws 400 with errors.promo saying why it cannot be used. Only this
 * artist's codes are looked at: another artist's code is "not valid", as one that exists nowhere, so guessing
 * here tells no one which codes other artists have.
 */
export async function resolvePromo(db: Queryable, artistId: string, code: string): Promise<PromoRow> {
  const promo = await one<PromoRow>(db, `${PROMO_SELECT} WHERE artist_id = $1 AND lower(code) = lower($2)`, [artistId, code.trim()]);
  if (!promo) throw badRequest(PROMO_UNKNOWN, { promo: [PROMO_UNKNOWN] });
  if (promo.expiresAt && new Date(promo.expiresAt).getTime() <= Date.now()) throw badRequest(PROMO_EXPIRED, { promo: [PROMO_EXPIRED] });
  if (promo.paused) throw badRequest(PROMO_PAUSED, { promo: [PROMO_PAUSED] });
  if (promo.maxRedemptions !== null && promo.timesRedeemed >= promo.maxRedemptions)
    throw badRequest(PROMO_USED_UP, { promo: [PROMO_USED_UP] });
  return promo;
}

/** Takes one redemption, or throws "used up" when another fan took the last one a moment ago. */
export async function reservePromo(tx: Queryable, promoId: string) {
  const row = await one(
    tx,
    `UPDATE promo_codes SET times_redeemed = times_redeemed + 1
      WHERE id = $1 AND (max_redemptions IS NULL OR times_redeemed < max_redemptions) RETURNING id`,
    [promoId],
  );
  if (!row) throw badRequest(PROMO_USED_UP, { promo: [PROMO_USED_UP] });
}

export async function releasePromo(db: Queryable, promoId: string) {
  await db.query('UPDATE promo_codes SET times_redeemed = greatest(times_redeemed - 1, 0) WHERE id = $1', [promoId]);
}

const CODE_MESSAGE = 'A promo code is 3 to 40 letters, digits, dashes or underscores.';
const DISCOUNT_MESSAGE = 'Give either a percent off (1 to 100) or an amount off, not both.';

export const NewPromoSchema = z
  .object({
    artist: z.string({ error: 'Name the artist (their username).' }).trim().min(1, { error: 'Name the artist (their username).' }),
    code: z
      .string({ error: CODE_MESSAGE })
      .trim()
      .regex(/^[A-Za-z0-9_-]{3,40}$/, { error: CODE_MESSAGE }),
    percentOff: z.coerce
      .number()
      .int()
      .min(1, { error: 'The percent off must be from 1 to 100.' })
      .max(100, { error: 'The percent off must be from 1 to 100.' })
      .optional(),
    amountOff: z
      .union([z.number(), z.string().trim()])
      .refine((value) => /^\d{1,6}(\.\d{1,2})?$/.test(String(value)) && Number(value) > 0, {
        error: 'The amount off must be more than 0 with at most two decimals, e.g. 5 or 4.99.',
      })
      .transform((value) => Math.round(Number(value) * 100))
      .optional(),
    expiresAt: z.coerce.date({ error: 'The expiry must be a date, e.g. 2027-01-31.' }).optional(),
    maxRedemptions: z.coerce.number().int().min(1, { error: 'The redemption limit must be a whole number of at least 1.' }).optional(),
  })
  .refine((value) => (value.percentOff === undefined) !== (value.amountOff === undefined), {
    error: DISCOUNT_MESSAGE,
    path: ['percentOff'],
  });

export type NewPromo = z.output<typeof NewPromoSchema>;

/** A code that does not fit the artist's price (422, the message on the discount's field). */
export class PromoPriceError extends ApiError {
  constructor(message: string, field: 'percentOff' | 'amountOff') {
    super(422, message, { [field]: [message] });
  }
}

export interface CreatedPromo {
  id: string;
  artist: string;
  code: string;
  percentOff: number | null;
  amountOff: number | null;
  expiresAt: string | null;
  maxRedemptions: number | null;
  /** The artist's currency, which an amount off is in. */
  currency: string;
}

/** Creates a promo code for an artist (the CLI's create-promo and POST /admin/promos). */
export async function createPromo(db: Db, promo: NewPromo): Promise<CreatedPromo> {
  const artist = await one<{ id: string; username: string; currency: string; priceCents: number }>(
    db,
    `SELECT u.id, u.username, p.currency, p.yearly_price_cents AS "priceCents" FROM users u JOIN artist_profiles p ON p.user_id = u.id
      WHERE lower(u.username) = lower($1) AND u.is_performer`,
    [promo.artist],
  );
  if (!artist) throw badRequest(`There is no artist with the username "${promo.artist}".`, { artist: ['No such artist'] });
  const problem = promoPriceProblem(artist.priceCents, artist.currency, promo);
  if (problem) throw new PromoPriceError(problem, promo.percentOff !== undefined ? 'percentOff' : 'amountOff');
  try {
    const row = await one<{ id: string; expiresAt: Date | null }>(
      db,
      `INSERT INTO promo_codes (artist_id, code, percent_off, amount_off_cents, expires_at, max_redemptions)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id, expires_at AS "expiresAt"`,
      [artist.id, promo.code, promo.percentOff ?? null, promo.amountOff ?? null, promo.expiresAt ?? null, promo.maxRedemptions ?? null],
    );
    return {
      id: row!.id,
      artist: artist.username,
      code: promo.code,
      percentOff: promo.percentOff ?? null,
      amountOff: promo.amountOff === undefined ? null : promo.amountOff / 100,
      expiresAt: row!.expiresAt ? new Date(row!.expiresAt).toISOString() : null,
      maxRedemptions: promo.maxRedemptions ?? null,
      currency: artist.currency,
    };
  } catch (error) {
    if ((error as { code?: string }).code === '23505') {
      throw unprocessable(`${artist.username} already has the promo code "${promo.code}".`, { code: ['Already exists'] });
    }
    throw error;
  }
}
