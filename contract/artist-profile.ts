import * as z from 'zod/mini';
import { isSingleLine } from './content-text';
import { CURRENCIES } from './money';

/**
 * The artist's own profile and offer (the account page's form and PUT /performers/me): one schema for the browser,
 * the action and the api (zod/mini, as every schema a page loads). Prices are typed in major units ("49.99") and
 * stored in cents. The form posts text and the api JSON, so price, perks and the welcome-video switch take both.
 */
export const profileMessages = {
  name: 'Please enter your name as fans see it.',
  nameTooLong: 'Your name must be at most 100 characters.',
  nameOneLine: 'Your name must be on one line, without tabs or other control characters.',
  price: 'Enter the yearly price as an amount of 0 or more with at most two decimals, e.g. 49.99 (0 makes joining free).',
  tooLong: (max: number) => `Please shorten this to at most ${max} characters.`,
  perk: 'Each perk must be at most 200 characters.',
  perks: 'List at most 10 perks.',
  currency: 'Choose US dollars, euros or pounds sterling.',
  currencyLocked: 'The currency cannot change once a fan has paid: it stays the one they paid in.',
  trialDays: 'Enter the free trial as a whole number of days from 0 to 90 (0: no trial).',
} as const;

/** The longest free trial an artist can offer. */
export const MAX_TRIAL_DAYS = 90;

const text = (max: number) =>
  z.pipe(
    z.optional(z.string().check(z.trim(), z.maxLength(max, { error: profileMessages.tooLong(max) }))),
    z.transform((value) => value ?? ''),
  );

const PRICE = /^\d{1,6}(\.\d{1,2})?$/;

export const ArtistProfileSchema = z.object({
  name: z
    .string({ error: profileMessages.name })
    .check(
      z.trim(),
      z.minLength(1, { error: profileMessages.name }),
      z.maxLength(100, { error: profileMessages.nameTooLong }),
      z.refine(isSingleLine, { error: profileMessages.nameOneLine }),
    ),
  bio: text(2000),
  yearlyPrice: z.pipe(
    z
      .union([z.number(), z.string().check(z.trim())], { error: profileMessages.price })
      .check(z.refine((value) => PRICE.test(String(value)), { error: profileMessages.price })),
    z.transform((value) => Number(value)),
  ),
  /** Absent: unchanged (the form leaves it out once a fan has paid: the select is disabled then). */
  currency: z.optional(z.enum(CURRENCIES, { error: profileMessages.currency })),
  /** Days of free trial before the first year is charged; absent: unchanged. */
  trialDays: z.optional(
    z.pipe(
      z
        .union([z.number(), z.string().check(z.trim())], { error: profileMessages.trialDays })
        .check(
          z.refine((value) => /^\d{1,2}$/.test(String(value)) && Number(value) <= MAX_TRIAL_DAYS, { error: profileMessages.trialDays }),
        ),
      z.transform((value) => Number(value)),
    ),
  ),
  headlineOfferDescription: text(500),
  /** One perk a line in the form; a list in the api. */
  subscriptionPerks: z.pipe(
    z.pipe(
      z.optional(z.union([z.array(z.string()), z.string()])),
      z.transform((value) => (Array.isArray(value) ? value : (value ?? '').split(/\r?\n/)).map((perk) => perk.trim()).filter(Boolean)),
    ),
    z.array(z.string().check(z.maxLength(200, { error: profileMessages.perk }))).check(z.maxLength(10, { error: profileMessages.perks })),
  ),
  successPageTitle: text(100),
  secondarySuccessMessage: text(500),
  additionalSuccessMessage: text(500),
  heroImageAltText: text(200),
  headlineImageAltText: text(200),
  /** "Keep what you paid for" (decision 014); absent: unchanged (the web form always sends it). */
  keepPaidItems: z.optional(
    z.pipe(
      z.union([z.boolean(), z.literal('on'), z.literal('true'), z.literal('false'), z.literal('off')]),
      z.transform((value) => value === true || value === 'on' || value === 'true'),
    ),
  ),
  activateWelcomeVideo: z.pipe(
    z.optional(z.union([z.boolean(), z.literal('on'), z.literal('true'), z.literal('false')])),
    z.transform((value) => value === true || value === 'on' || value === 'true'),
  ),
});

export type ArtistProfileInput = z.input<typeof ArtistProfileSchema>;
export type ArtistProfileValues = z.output<typeof ArtistProfileSchema>;
