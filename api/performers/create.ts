import { z } from 'zod';
import { EmailSchema, PasswordSchema, UsernameSchema } from '#contract/accounts';
import { isSingleLine } from '#contract/content-text';
import { CURRENCIES } from '#contract/money';
import { hashPassword } from '../auth/passwords.js';
import { conflictError } from '../auth/routes.js';
import { one, type Db } from '../db/client.js';
import { conflictFromUniqueViolation, findConflict } from '../users/queries.js';

export const PRICE_MESSAGE = 'The yearly price must be an amount of 0 or more with at most two decimals, e.g. 49.99';
export const NAME_MESSAGE = "Please enter the artist's name";
const PRICE = /^\d{1,6}(\.\d{1,2})?$/;

/** A yearly price in major units (49.99, "49.99" or 0) becomes integer cents; the database keeps cents. */
export const YearlyPriceSchema = z
  .union([z.number(), z.string().trim()], { error: PRICE_MESSAGE })
  .refine((value) => PRICE.test(String(value)), { error: PRICE_MESSAGE })
  .transform((value) => Math.round(Number(value) * 100));

/** What an operator gives to create an artist (the CLI and POST /admin/artists), checked with the same rules as sign-up. */
export const NewArtistSchema = z.object({
  username: UsernameSchema,
  email: EmailSchema,
  password: PasswordSchema,
  name: z
    .string({ error: NAME_MESSAGE })
    .trim()
    .min(1, { error: NAME_MESSAGE })
    .max(100, { error: 'The name must be at most 100 characters' })
    .refine(isSingleLine, { error: 'The name must be on one line, without tabs or other control characters' }),
  yearlyPrice: YearlyPriceSchema,
  /** What fans pay in; it can change in the artist's profile until the first payment. */
  currency: z.enum(CURRENCIES, { error: 'The currency must be usd, eur or gbp' }).default('usd'),
});

export type NewArtist = z.output<typeof NewArtistSchema>;

/** The public profile beyond the sign-up fields (part of ArtistResponse, contract/users.ts); the seed fills it, operators edit it later. */
export interface ArtistProfile {
  avatar?: string;
  bio?: string;
  cover?: string;
  heroImage?: string;
  heroImageAltText?: string;
  headlineImage?: string;
  headlineImageAltText?: string;
  headlineOfferDescription?: string;
  subscriptionPerks?: string[];
  successPageTitle?: string;
  secondarySuccessMessage?: string;
  additionalSuccessMessage?: string;
  successImages?: { imagePath: string | null; altText: string | null }[];
  vaultPageIntroduction?: string;
  postsPageIntroduction?: string;
  privacyPolicy?: string;
}

export interface CreatedArtist {
  id: string;
  username: string;
  email: string;
  name: string;
  yearlyPrice: number;
  currency: string;
}

/**
 * Creates an artist account (isPerformer) and its profile in one transaction. The one way artists come to be:
 * the CLI, the admin endpoint and the seed all call it. A taken username or email throws the same 400/422 as sign-up.
 */
export async function createArtist(db: Db, artist: NewArtist, profile: ArtistProfile = {}): Promise<CreatedArtist> {
  const conflict = await findConflict(db, artist.username, artist.email);
  if (conflict) throw conflictError(conflict);
  const passwordHash = await hashPassword(artist.password);
  try {
    return await db.transaction(async (tx) => {
      const user = await one<{ id: string }>(
        tx,
        `INSERT INTO users (username, email, name, avatar, password_hash, is_performer)
         VALUES ($1, $2, $3, $4, $5, true) RETURNING id`,
        [artist.username, artist.email, artist.name, profile.avatar ?? '', passwordHash],
      );
      await tx.query(
        `INSERT INTO artist_profiles (
           user_id, yearly_price_cents, bio, cover, hero_image, hero_image_alt_text, headline_image,
           headline_image_alt_text, headline_offer_description, subscription_perks, success_page_title,
           secondary_success_message, additional_success_message, success_images, vault_page_introduction,
           posts_page_introduction, privacy_policy, currency)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, $13, $14::jsonb, $15, $16, $17, $18)`,
        [
          user!.id,
          artist.yearlyPrice,
          profile.bio ?? '',
          profile.cover ?? '',
          profile.heroImage ?? '',
          profile.heroImageAltText ?? '',
          profile.headlineImage ?? '',
          profile.headlineImageAltText ?? '',
          profile.headlineOfferDescription ?? '',
          JSON.stringify(profile.subscriptionPerks ?? []),
          profile.successPageTitle ?? '',
          profile.secondarySuccessMessage ?? '',
          profile.additionalSuccessMessage ?? '',
          JSON.stringify(profile.successImages ?? []),
          profile.vaultPageIntroduction ?? '',
          profile.postsPageIntroduction ?? '',
          profile.privacyPolicy ?? '',
          artist.currency,
        ],
      );
      return {
        id: user!.id,
        username: artist.username,
        email: artist.email,
        name: artist.name,
        yearlyPrice: artist.yearlyPrice / 100,
        currency: artist.currency,
      };
    });
  } catch (error) {
    const raced = conflictFromUniqueViolation(error);
    if (raced) throw conflictError(raced);
    throw error;
  }
}
