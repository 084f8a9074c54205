import { randomBytes } from 'node:crypto';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INCORRECT_DETAILS } from '../../api/auth/routes';
import { createLimiters, TOO_MANY } from '../../api/auth/rate-limits';
import { connectRedis } from '../../api/redis';
import { call, clientAddress, describeEachDatabase, login, registerFan, startTestApi, uniqueName, type TestApi } from '../helpers/api';

/** The limits of docs/security.md "Rate limits"; past each, 429 with Retry-After. */
const FAILURES_PER_ACCOUNT = 10;
const LOGINS_PER_ADDRESS = 100;
const RESETS_PER_EMAIL = 5;
const RESETS_PER_ADDRESS = 30;
const REGISTRATIONS_PER_ADDRESS = 30;
const PASSWORD_CHANGES_PER_ADDRESS = 20;

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
    for (let attempt = 1; attempt <= LOGINS_PER_ADDRESS; attempt++)
      expect((await login(t, blocked, 'Wrong-Password-1', address)).status).toBe(429);
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

  it(`limits password changes (reset links) to ${PASSWORD_CHANGES_PER_ADDRESS} an hour per address, counting refused ones`, async () => {
    const address = clientAddress();
    const change = (from: string) =>
      call(t.url, 'POST', '/auth/password-change', {
        query: { token: 'junk' },
        body: { password: 'Fresh-Start-2026!' },
        headers: { 'x-forwarded-for': from },
      });
    for (let request = 1; request <= PASSWORD_CHANGES_PER_ADDRESS; request++)
      expect((await change(address)).status, `request ${request}`).toBe(400);
    const limited = await change(address);
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe(TOO_MANY);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await change(clientAddress())).status).toBe(400);
  });

  it(`limits registrations to ${REGISTRATIONS_PER_ADDRESS} an hour per address, counting refused ones`, async () => {
    const address = clientAddress();
    const register = (from: string) =>
      call(t.url, 'POST', '/auth/users/register', { body: { username: 'x' }, headers: { 'x-forwarded-for': from } });
    for (let request = 1; request <= REGISTRATIONS_PER_ADDRESS; request++)
      expect((await register(address)).status, `request ${request}`).toBe(400);
    const limited = await register(address);
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe(TOO_MANY);
    expect((await register(clientAddress())).status).toBe(400);
  });
});

const REDIS_URL = process.env.REDIS_URL || undefined;

/** With REDIS_URL every api node counts against the same limits (docs/security.md "Rate limits"). */
describe.skipIf(!REDIS_URL)(
  `rate limits across two api nodes (Redis${REDIS_URL ? '' : ' — skipped: set REDIS_URL=redis://… to run it'})`,
  () => {
    let a: TestApi;
    let b: TestApi;
    beforeAll(async () => {
      const env = { REDIS_URL: REDIS_URL! };
      [a, b] = await Promise.all([startTestApi({ env }), startTestApi({ env })]);
    });
    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
    });
    // Redis outlives a test run (for up to an hour, the limit's window): each run counts from an address of its own.
    const freshAddress = () => `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::1`;

    it('counts one address against one limit, whichever node each request reaches', async () => {
      const address = freshAddress();
      const register = (node: TestApi) =>
        call(node.url, 'POST', '/auth/users/register', { body: { username: 'x' }, headers: { 'x-forwarded-for': address } });
      for (let request = 1; request <= REGISTRATIONS_PER_ADDRESS; request++) {
        expect((await register(request % 2 ? a : b)).status, `request ${request}`).toBe(400);
      }
      expect((await register(a)).status).toBe(429);
      expect((await register(b)).status).toBe(429);
    });

    it('counts in memory while Redis is away, so nothing is refused for want of it, and the limit still holds', async () => {
      const redis = await connectRedis(REDIS_URL!, a.api.app.log);
      const { loginPerAccount } = createLimiters(redis);
      const key = `away-${freshAddress()}`;
      await loginPerAccount.consume(key);
      expect((await redis.get(`stagedoor:limit:login-account:${key}`)) ?? '').toBe('1');
      await redis.close();
      // This node now counts afresh in memory: the whole allowance, then no more.
      for (let attempt = 1; attempt <= FAILURES_PER_ACCOUNT; attempt++) await loginPerAccount.consume(key);
      await expect(loginPerAccount.consume(key)).rejects.toBeInstanceOf(RateLimiterRes);
    });
  },
);
