import { afterAll, beforeAll, expect, it } from 'vitest';
import { INCORRECT_DETAILS } from '../../api/auth/routes';
import { TOO_MANY } from '../../api/auth/rate-limits';
import { call, clientAddress, describeEachDatabase, login, registerFan, startTestApi, uniqueName, type TestApi } from '../helpers/api';

/** The limits of docs/security.md "Rate limits"; past each, 429 with Retry-After. */
const FAILURES_PER_ACCOUNT = 10;
const LOGINS_PER_ADDRESS = 100;
const RESETS_PER_EMAIL = 5;
const RESETS_PER_ADDRESS = 30;
const REGISTRATIONS_PER_ADDRESS = 30;

describeEachDatabase('rate limits', (database) => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ database: database.name });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('after 10 failed log-ins to one account, answers 429 with Retry-After, even to the right password', async () => {
    const fan = await registerFan(t);
    for (let attempt = 1; attempt <= FAILURES_PER_ACCOUNT; attempt++) {
      // Each attempt from another address, and the account named in another case: the count is per account.
      const name = attempt % 2 ? fan.email.toUpperCase() : fan.username;
      const answer = await login(t, name, 'Wrong-Password-1');
      expect(answer.status, `attempt ${attempt}`).toBe(422);
      expect(answer.body.message).toBe(INCORRECT_DETAILS);
    }
    const blocked = await login(t, fan.email, fan.password);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ status: 429, message: TOO_MANY });
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);

    // Another account is not affected.
    const other = await registerFan(t);
    expect((await login(t, other.email, other.password)).status).toBe(200);
  });

  it('a successful log-in clears the account’s failures', async () => {
    const fan = await registerFan(t);
    for (let attempt = 1; attempt < FAILURES_PER_ACCOUNT; attempt++) {
      expect((await login(t, fan.email, 'Wrong-Password-1')).status).toBe(422);
    }
    expect((await login(t, fan.email, fan.password)).status).toBe(200);
    for (let attempt = 1; attempt < FAILURES_PER_ACCOUNT; attempt++) {
      expect((await login(t, fan.email, 'Wrong-Password-1')).status, `attempt ${attempt}`).toBe(422);
    }
    expect((await login(t, fan.email, fan.password)).status).toBe(200);
  });

  it('limits log-in attempts for an unknown account too, so probing addresses costs the same', async () => {
    const nobody = `nobody${Date.now()}@example.com`;
    for (let attempt = 1; attempt <= FAILURES_PER_ACCOUNT; attempt++) {
      expect((await login(t, nobody, 'Wrong-Password-1')).status).toBe(422);
    }
    expect((await login(t, nobody, 'Wrong-Password-1')).status).toBe(429);
  });

  it(`limits log-in attempts per address to ${LOGINS_PER_ADDRESS}, whichever accounts they name`, async () => {
    // An account already blocked answers 429 without verifying a password, so the address's attempts are quick.
    const blocked = `blocked${Date.now()}@example.com`;
    for (let attempt = 1; attempt <= FAILURES_PER_ACCOUNT; attempt++) await login(t, blocked, 'Wrong-Password-1');
    const address = clientAddress();
    for (let attempt = 1; attempt <= LOGINS_PER_ADDRESS; attempt++) expect((await login(t, blocked, 'Wrong-Password-1', address)).status).toBe(429);
    const fresh = `fresh${Date.now()}@example.com`;
    const fromThere = await login(t, fresh, 'Wrong-Password-1', address);
    expect(fromThere.status).toBe(429);
    expect(Number(fromThere.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await login(t, fresh, 'Wrong-Password-1')).status).toBe(422);
  });

  const forgot = (email: string, address = clientAddress()) =>
    call(t.url, 'POST', '/auth/users/forgot', { body: { email }, headers: { 'x-forwarded-for': address } });

  it(`limits password-reset requests to ${RESETS_PER_EMAIL} an hour per email, known or not, from any address`, async () => {
    const fan = await registerFan(t);
    for (const email of [fan.email, `${uniqueName('nobody')}@example.com`]) {
      for (let request = 1; request <= RESETS_PER_EMAIL; request++) expect((await forgot(email)).status, `${email} ${request}`).toBe(200);
      const limited = await forgot(email);
      expect(limited.status, email).toBe(429);
      expect(limited.body).toEqual({ status: 429, message: TOO_MANY });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it(`limits password-reset requests to ${RESETS_PER_ADDRESS} an hour per address`, async () => {
    const address = clientAddress();
    for (let request = 1; request <= RESETS_PER_ADDRESS; request++) {
      expect((await forgot(`${uniqueName('spray')}@example.com`, address)).status, `request ${request}`).toBe(200);
    }
    expect((await forgot(`${uniqueName('spray')}@example.com`, address)).status).toBe(429);
    expect((await forgot(`${uniqueName('spray')}@example.com`)).status).toBe(200);
  });

  it(`limits registrations to ${REGISTRATIONS_PER_ADDRESS} an hour per address, counting refused ones`, async () => {
    const address = clientAddress();
    const register = (from: string) => call(t.url, 'POST', '/auth/users/register', { body: { username: 'x' }, headers: { 'x-forwarded-for': from } });
    for (let request = 1; request <= REGISTRATIONS_PER_ADDRESS; request++) expect((await register(address)).status, `request ${request}`).toBe(400);
    const limited = await register(address);
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe(TOO_MANY);
    expect((await register(clientAddress())).status).toBe(400);
  });
});
