import * as z from 'zod/mini';
import { EmailSchema, PasswordSchema, UsernameSchema } from './accounts';
import { NameSchema } from './account-settings';
import { ArtistProfileSchema, profileMessages } from './artist-profile';
import { CURRENCIES } from './money';

/**
 * The first-run setup of an empty install (docs/operations.md "First run"): the owner's account, then their club.
 * The same schemas validate in the browser, the web's actions and the api.
 */
export const setupMessages = {
  installed: 'This Stagedoor is already set up. Log in instead.',
  notYours: 'Only the account that set up this Stagedoor can finish its setup.',
} as const;

/** Step one: the owner's account, with the sign-up rules, and the name the account shows. */
export const SetupAccountSchema = z.object({
  name: NameSchema,
  username: UsernameSchema,
  email: EmailSchema,
  password: PasswordSchema,
});

/** Step two: the first club, on the owner's own account (its name, address, yearly price and currency). */
export const SetupClubSchema = z.object({
  name: ArtistProfileSchema.shape.name,
  username: UsernameSchema,
  yearlyPrice: ArtistProfileSchema.shape.yearlyPrice,
  currency: z.enum(CURRENCIES, { error: profileMessages.currency }),
});

/**
 * Where an install's setup stands, for the one asking: `account` while the install has no account at all (anyone
 * may make the first); `club` for the owner who made it and has no club yet; `done` otherwise.
 */
export type SetupStep = 'account' | 'club' | 'done';

export interface SetupStatus {
  step: SetupStep;
}
