import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LoginSchema, RegisterSchema, ResetPasswordSchema, ResetRequestSchema } from '#contract/accounts';

/** The validation rules of the foundation forms: log-in, registration, reset request and reset. Each message quoted. */

const EMAIL_REQUIRED = 'Please enter your email address';
const EMAIL_INVALID = 'Please enter a valid email address';
const PASSWORD_REQUIRED = 'Please enter your password';
const USERNAME_SHORT = 'Username must be at least 3 characters';
const USERNAME_CHARACTERS = 'Username must only contain letters and numbers';
const PASSWORD_SHORT = 'Password must be at least 10 characters long';
const PASSWORD_COMPLEXITY =
  'Password must contain at least one uppercase letter, one lowercase letter, one number, and one special character';

/** The messages each field gets, as a form shows them. */
function errors(schema: z.core.$ZodType, input: unknown): Record<string, string[] | undefined> {
  const result = z.safeParse(schema, input);
  if (result.success) return {};
  return z.flattenError(result.error).fieldErrors as Record<string, string[]>;
}

const GOOD_PASSWORD = 'Backstage-Pass-1';

describe('log-in form (usernameOrEmail, password)', () => {
  const valid = { usernameOrEmail: 'fan@example.com', password: 'anything' };

  it.each([
    ['', EMAIL_REQUIRED],
    ['    ', EMAIL_REQUIRED],
    [undefined, EMAIL_REQUIRED],
    ['fan', EMAIL_INVALID],
    ['fan@', EMAIL_INVALID],
    ['fan@example', EMAIL_INVALID],
    ['fan example@example.com', EMAIL_INVALID],
  ])('usernameOrEmail %j → "%s"', (usernameOrEmail, message) => {
    expect(errors(LoginSchema, { ...valid, usernameOrEmail })).toEqual({ usernameOrEmail: [message] });
  });

  it.each([[''], [undefined]])('password %j → "Please enter your password"', (password) => {
    expect(errors(LoginSchema, { ...valid, password })).toEqual({ password: [PASSWORD_REQUIRED] });
  });

  it('trims the email, and accepts any non-empty password (the strength rules are for new passwords only)', () => {
    expect(LoginSchema.parse({ usernameOrEmail: '  Fan@Example.com ', password: 'x' })).toEqual({
      usernameOrEmail: 'fan@example.com',
      password: 'x',
    });
  });

  it('reports both fields of an empty form at once', () => {
    expect(errors(LoginSchema, {})).toEqual({ usernameOrEmail: [EMAIL_REQUIRED], password: [PASSWORD_REQUIRED] });
  });
});

describe('registration form (email, username, password)', () => {
  const valid = { email: 'fan@example.com', username: 'nightowl', password: GOOD_PASSWORD };

  it.each([
    ['', EMAIL_REQUIRED],
    ['  ', EMAIL_REQUIRED],
    [undefined, EMAIL_REQUIRED],
    ['not-an-email', EMAIL_INVALID],
  ])('email %j → "%s"', (email, message) => {
    expect(errors(RegisterSchema, { ...valid, email })).toEqual({ email: [message] });
  });

  it.each([
    ['', USERNAME_SHORT],
    ['ab', USERNAME_SHORT],
    ['  ab  ', USERNAME_SHORT],
    [undefined, USERNAME_SHORT],
    ['night_owl', USERNAME_CHARACTERS],
    ['night owl', USERNAME_CHARACTERS],
    ['nightowl!', USERNAME_CHARACTERS],
    ['éclair', USERNAME_CHARACTERS],
  ])('username %j → "%s"', (username, message) => {
    expect(errors(RegisterSchema, { ...valid, username })).toEqual({ username: [message] });
  });

  it.each(['lite', 'Messages', ' socket ', 'discover'])('username %j, the name of a page, is refused in the browser too', (username) => {
    expect(errors(RegisterSchema, { ...valid, username })).toEqual({
      username: ['This username is the name of a Stagedoor page. Please choose another.'],
    });
  });

  it('trims and lowercases the username, and lowercases the email', () => {
    expect(RegisterSchema.parse({ ...valid, username: '  NightOwl99 ', email: 'Fan@Example.COM' })).toEqual({
      ...valid,
      username: 'nightowl99',
      email: 'fan@example.com',
    });
  });

  it.each([
    ['', PASSWORD_SHORT],
    [undefined, PASSWORD_SHORT],
    ['Aa1!aaaaa', PASSWORD_SHORT],
    ['aaaaaaaaa1!', PASSWORD_COMPLEXITY],
    ['AAAAAAAAA1!', PASSWORD_COMPLEXITY],
    ['Aaaaaaaaaa!', PASSWORD_COMPLEXITY],
    ['Aaaaaaaaaa1', PASSWORD_COMPLEXITY],
  ])('password %j → "%s"', (password, message) => {
    expect(errors(RegisterSchema, { ...valid, password })).toEqual({ password: [message] });
  });

  it('accepts exactly 10 characters with all four kinds, a space counting as special', () => {
    expect(errors(RegisterSchema, { ...valid, password: 'Aaaaaaaa1!' })).toEqual({});
    expect(errors(RegisterSchema, { ...valid, password: 'Aaaaaaa 1b' })).toEqual({});
  });
});

describe('reset request form (email)', () => {
  it.each([
    ['', EMAIL_REQUIRED],
    [undefined, EMAIL_REQUIRED],
    ['fan@', EMAIL_INVALID],
  ])('email %j → "%s"', (email, message) => {
    expect(errors(ResetRequestSchema, { email })).toEqual({ email: [message] });
  });

  it('accepts and normalises a valid email', () => {
    expect(ResetRequestSchema.parse({ email: ' Fan@Example.com ' })).toEqual({ email: 'fan@example.com' });
  });
});

describe('reset form (password, confirmPassword)', () => {
  it.each([
    ['short1!A', PASSWORD_SHORT],
    ['longenough-but-no-upper1', PASSWORD_COMPLEXITY],
  ])('password %j → "%s"', (password, message) => {
    expect(errors(ResetPasswordSchema, { password, confirmPassword: password })).toEqual({ password: [message] });
  });

  it('asks to confirm the password, and says when the two differ', () => {
    expect(errors(ResetPasswordSchema, { password: GOOD_PASSWORD, confirmPassword: '' })).toEqual({
      confirmPassword: ['Please confirm your password'],
    });
    expect(errors(ResetPasswordSchema, { password: GOOD_PASSWORD, confirmPassword: `${GOOD_PASSWORD}x` })).toEqual({
      confirmPassword: ['Passwords do not match'],
    });
    expect(errors(ResetPasswordSchema, { password: GOOD_PASSWORD, confirmPassword: GOOD_PASSWORD })).toEqual({});
  });
});
