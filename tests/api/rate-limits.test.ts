import { afterAll, beforeAll, expect, it } from 'vitest';
import { INCORRECT_DETAILS } from '../../api/auth/routes';
import { TOO_MANY } from '../../api/auth/rate-limits';
import { describeEachDatabase, login, registerFan, startTestApi, type TestApi } from '../helpers/api';

/** docs/api.md: 10 failed log-ins per account in 15 minutes, then 429 with Retry-After, from whatever address. */
const FAILURES_PER_ACCOUNT = 10;

describeEachDatabase('log-in rate limit', (database) => {
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
});
