import type { ModerationExport } from './moderation-messages';
import * as z from 'zod/mini';
import { EmailSchema, messages as accountMessages, PASSWORD_MAX, PasswordSchema } from './accounts';
import { isSingleLine } from './content-text';
import { required } from './zod-required';

/**
 * Account settings (docs/pages-content.md "Account settings", docs/decisions/015-account-deletion.md): every
 * user changes their name, picture, email address and password, downloads their data and deletes their account. The
 * same schemas validate in the browser, in the web's actions and in the api.
 */
export const settingsMessages = {
  nameRequired: 'Please enter your name.',
  nameTooLong: `Your name must be at most 60 characters.`,
  nameOneLine: 'Your name must be on one line, without tabs or other control characters.',
  currentPasswordRequired: 'Please enter your current password.',
  currentPasswordIncorrect: accountMessages.currentPasswordIncorrect,
  emailUnchanged: 'This is already your email address.',
  emailTaken: 'Another account uses this email address.',
  emailLinkInvalid: 'This confirmation link is not valid any more. Change your email address again to get a new one.',
  deleteConfirmRequired: 'Please tick the box to confirm that you want to delete your account.',
  artistCannotDelete:
    'An artist account closes through Customer Support, so that your fans’ memberships and your payouts are settled first.',
  avatarRequired: 'Choose a picture to upload.',
  avatarUnsupported: 'Please choose a JPEG, PNG, WebP or GIF picture.',
  avatarTooLarge: 'Please choose a picture of at most 5 MB.',
} as const;

export const NAME_MAX = 60;
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
/** How long the link mailed to a new email address works. */
export const EMAIL_CHANGE_TTL_HOURS = 24;

const CurrentPasswordSchema = z
  .string(required(settingsMessages.currentPasswordRequired))
  .check(
    z.minLength(1, { error: settingsMessages.currentPasswordRequired }),
    z.maxLength(PASSWORD_MAX, { error: accountMessages.passwordTooLong }),
  );

export const NameSchema = z
  .string(required(settingsMessages.nameRequired))
  .check(
    z.trim(),
    z.minLength(1, { error: settingsMessages.nameRequired, abort: true }),
    z.maxLength(NAME_MAX, { error: settingsMessages.nameTooLong }),
    z.refine(isSingleLine, { error: settingsMessages.nameOneLine }),
  );

/** PUT /users/me/name. */
export const NameChangeSchema = z.object({ name: NameSchema });

/** POST /users/me/email: the new address gets a link; the change happens when it is opened. */
export const EmailChangeSchema = z.object({ email: EmailSchema, currentPassword: CurrentPasswordSchema });

/** POST /users/email/confirm: the token of the mailed link is the permission. */
export const EmailConfirmSchema = z.object({
  token: z.string(required(settingsMessages.emailLinkInvalid)).check(z.minLength(1), z.maxLength(200)),
});

/** PUT /users/me/password: its fields, and the check that the two new ones match (for forms that add fields). */
export const PasswordChangeFields = z.object({
  currentPassword: CurrentPasswordSchema,
  password: PasswordSchema,
  confirmPassword: z
    .string(required(accountMessages.confirmRequired))
    .check(z.minLength(1, { error: accountMessages.confirmRequired, abort: true })),
});

export const passwordsMatch = z.refine<{ password: string; confirmPassword: string }>((value) => value.password === value.confirmPassword, {
  error: accountMessages.passwordsDiffer,
  path: ['confirmPassword'],
});

export const PasswordChangeSchema = PasswordChangeFields.check(passwordsMatch);

/** DELETE /users/me: the password, and a ticked box (a form's checkbox sends 'on'). */
export const DeleteAccountSchema = z.object({
  currentPassword: CurrentPasswordSchema,
  confirm: z.literal('on', { error: settingsMessages.deleteConfirmRequired }),
});

/** The answer of POST /users/me/email: where the link went. */
export interface EmailChangeResponse {
  pendingEmail: string;
  expiresAt: string;
}

/** GET /users/me/export: everything the account holds about its user, as JSON. */
export interface AccountExport {
  exportedAt: string;
  account: { id: string; username: string; name: string; email: string; avatar: string; createdAt: string; isPerformer: boolean };
  memberships: {
    artist: string;
    type: string;
    status: string;
    autoRenew: boolean;
    startedAt: string;
    expiresAt: string;
    pricePaid: number;
    currency: string;
  }[];
  payments: { artist: string; kind: string; status: string; amount: number; currency: string; refunded: number; createdAt: string }[];
  messages: { artist: string; text: string; createdAt: string }[];
  comments: { itemId: string; text: string; createdAt: string }[];
  pollVotes: { pollId: string; answer: string; createdAt: string }[];
  bookmarks: { itemId: string; createdAt: string }[];
  notificationPreferences: { artist: string; email: string; push: boolean; inApp: boolean }[];
  /** The browsers that take this user's push notifications: the push service and when; never the keys nor the address. */
  pushSubscriptions: { service: string; createdAt: string }[];
  /** Each notification of a new post, with how it went out. */
  notifications: {
    artist: string;
    itemId: string;
    inApp: boolean;
    email: string;
    push: boolean;
    createdAt: string;
    readAt: string | null;
    emailedAt: string | null;
    pushedAt: string | null;
  }[];
  /** Gifts this user bought: for whom, what was paid and refunded, and whether it was opened (not by whom, nor its link). */
  giftsBought: {
    artist: string;
    recipientEmail: string;
    message: string;
    state: GiftLedgerState;
    amount: number;
    refunded: number;
    currency: string;
    createdAt: string;
    openedAt: string | null;
  }[];
  /** Gifts this user opened: from whom (the name the gift page shows), the message, and the year it gave. */
  giftsReceived: {
    artist: string;
    from: string;
    message: string;
    state: GiftLedgerState;
    openedAt: string;
    yearFrom: string | null;
    yearUntil: string | null;
  }[];
  moderation: ModerationExport;
}

/**
 * A gift as the ledger has it: not_paid (its payment did not go through, or is under way), paid (waiting to be
 * opened), opened, partially_refunded, refunded (all of it given back: never "paid" nor "opened" then).
 */
export type GiftLedgerState = 'not_paid' | 'paid' | 'opened' | 'partially_refunded' | 'refunded';
