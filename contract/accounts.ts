import * as z from 'zod/mini';
import { required } from './zod-required';

/**
 * Field schemas carrying the exact messages a user sees. The same objects validate in the browser (conform,
 * through parseForm), in the web actions and again in the API, so a rule and its words live in one place.
 * Written with zod/mini: its functions tree-shake, so the log-in, register and reset pages ship about 6 KB of
 * zod instead of 28 KB (docs/architecture.md).
 */
export const messages = {
  emailRequired: 'Please enter your email address',
  emailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Please enter your password',
  usernameTooShort: 'Username must be at least 3 characters',
  usernameTooLong: 'Username must be at most 30 characters',
  usernameCharacters: 'Username must only contain letters and numbers',
  usernameReserved: 'This username is the name of a Stagedoor page. Please choose another.',
  passwordTooShort: 'Password must be at least 10 characters long',
  passwordTooLong: 'Password must be at most 200 characters long',
  passwordComplexity: 'Password must contain at least one uppercase letter, one lowercase letter, one number, and one special character',
  passwordsDiffer: 'Passwords do not match',
  currentPasswordRequired: 'Please enter your current password to change your email address or password.',
  currentPasswordIncorrect: 'Your current password is not correct.',
  confirmRequired: 'Please confirm your password',
} as const;

/**
 * Usernames that are the first part of a path the web or the api uses: an artist called `lite` or `messages` would
 * have a page that is not theirs (/{username} is the artist's home). The web's pages, its own paths and public
 * files, the api's routes and its realtime socket (tests/api/accounts.test.ts derives them and fails on a path
 * left out), and a few words kept for pages to come.
 */
export const RESERVED_USERNAMES: readonly string[] = [
  // The web: pages, its own paths, public files.
  'discover',
  'lite',
  'login',
  'logout',
  'messages',
  'password',
  'join',
  'subscribe',
  'account',
  'healthz',
  'build',
  'images',
  'favicon',
  'static',
  'assets',
  'gift',
  // The first-run setup of an empty install.
  'setup',
  // Offline listening: the offline page and its check, the web app manifest and its icons.
  'offline',
  'manifest',
  'icons',
  // Moderation: the operator's page, the club's moderation pages and the api's reports.
  'operator',
  'moderation',
  'reports',
  // The api: route prefixes and the realtime socket (socket.io).
  'admin',
  'auth',
  'bookmarks',
  'collections',
  'comments',
  'content',
  'conversations',
  'media',
  'notifications',
  'payment',
  'payments',
  'performers',
  'gifts',
  'polls',
  'presales',
  'subscriptions',
  'uploads',
  'users',
  'socket',
  'api',
  // Words a page may take later, or that would pass for us.
  'stagedoor',
  'support',
  'help',
  'settings',
  'about',
  'privacy',
  'terms',
  'cookies',
  'search',
  'signup',
  'register',
];

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 30;
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

export const EmailSchema = z
  .string(required(messages.emailRequired))
  .check(
    z.trim(),
    z.minLength(1, { error: messages.emailRequired, abort: true }),
    z.maxLength(254, { error: messages.emailInvalid, abort: true }),
    z.email({ error: messages.emailInvalid }),
    z.toLowerCase(),
  );

export const UsernameSchema = z.string(required(messages.usernameTooShort)).check(
  z.trim(),
  z.toLowerCase(),
  z.minLength(USERNAME_MIN, { error: messages.usernameTooShort, abort: true }),
  z.maxLength(USERNAME_MAX, { error: messages.usernameTooLong, abort: true }),
  z.regex(/^[a-z0-9]+$/, { error: messages.usernameCharacters }),
  z.refine((username) => !RESERVED_USERNAMES.includes(username), { error: messages.usernameReserved }),
);

/** The strong password of registration and reset. */
export const PasswordSchema = z
  .string(required(messages.passwordTooShort))
  .check(
    z.minLength(PASSWORD_MIN, { error: messages.passwordTooShort, abort: true }),
    z.maxLength(PASSWORD_MAX, { error: messages.passwordTooLong, abort: true }),
    z.regex(/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[^A-Za-z0-9]).*$/s, { error: messages.passwordComplexity }),
  );

/** The password of a log-in: any non-empty text, not judged against the rules of a new password. */
const LoginPasswordSchema = z
  .string(required(messages.passwordRequired))
  .check(z.minLength(1, { error: messages.passwordRequired }), z.maxLength(PASSWORD_MAX, { error: messages.passwordTooLong }));

/** The log-in form holds usernameOrEmail and password; the field must be an email. */
export const LoginSchema = z.object({
  usernameOrEmail: EmailSchema,
  password: LoginPasswordSchema,
});

/**
 * The body of POST /auth/login (username, password, remember). The api also takes a username there, so
 * the name is any non-empty text rather than an email.
 */
export const LoginBodySchema = z.object({
  username: z
    .string(required(messages.emailRequired))
    .check(z.trim(), z.minLength(1, { error: messages.emailRequired }), z.maxLength(254, { error: messages.emailInvalid })),
  password: LoginPasswordSchema,
  remember: z.optional(z.boolean()),
});

export const RegisterSchema = z.object({
  username: UsernameSchema,
  email: EmailSchema,
  password: PasswordSchema,
});

/**
 * The body of PUT /users: the sign-up details, and the current password, which changing the email address or the
 * password needs (a session alone must not be enough to take an account over). The fan still signing up may leave
 * it out (the register step's edit).
 */
export const AccountChangesSchema = z.object({
  ...RegisterSchema.shape,
  currentPassword: z.optional(LoginPasswordSchema),
});

export const ResetRequestSchema = z.object({
  email: EmailSchema,
});

export const ResetPasswordSchema = z
  .object({
    password: PasswordSchema,
    // abort: an empty confirmation is reported alone, not also as a mismatch.
    confirmPassword: z.string(required(messages.confirmRequired)).check(z.minLength(1, { error: messages.confirmRequired, abort: true })),
  })
  .check(
    z.refine((value) => value.password === value.confirmPassword, {
      error: messages.passwordsDiffer,
      path: ['confirmPassword'],
    }),
  );
