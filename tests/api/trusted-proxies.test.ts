import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOO_MANY } from '../../api/auth/rate-limits';
import { webApiTransport } from '../../server/api-transport';
import { call, startTestApi, uniqueName, type TestApi } from '../helpers/api';

/**
 * Who the client is, for the per-address rate limits (docs/security.md, finding 9). X-Forwarded-For is believed only from
 * the proxies of TRUSTED_PROXIES (loopback by default): a caller anywhere else, a neighbour on the same private
 * network included, cannot choose its own address. Measured with the password-reset limit: 30 per address an hour.
 */
const RESETS_PER_ADDRESS = 30;

interface Forgot {
  (forwardedFor: string): Promise<{ status: number; message?: string }>;
}

/** Asks for one reset more than the limit, each naming a fresh email: answers the statuses in order. */
async function spend(forgot: Forgot, forwardedFor: (request: number) => string) {
  const statuses: number[] = [];
  for (let request = 1; request <= RESETS_PER_ADDRESS + 1; request++) statuses.push((await forgot(forwardedFor(request))).status);
  return statuses;
}

const email = () => `${uniqueName('probe')}@example.com`;

describe('trusted proxies, by default loopback only', () => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A request arriving from a neighbour on a private network, forging X-Forwarded-For. */
  const fromNeighbour = (forwardedFor: string) =>
    t.api.app
      .inject({
        method: 'POST',
        url: '/auth/users/forgot',
        payload: { email: email() },
        headers: { 'x-forwarded-for': forwardedFor },
        remoteAddress: '10.1.2.3',
      })
      .then((answer) => ({ status: answer.statusCode, message: answer.json<{ message?: string }>().message }));

  it('a private address is not believed: a forged X-Forwarded-For does not change its rate-limit key', async () => {
    const statuses = await spend(fromNeighbour, (request) => `203.0.113.${request}`);
    expect(statuses.slice(0, RESETS_PER_ADDRESS)).toEqual(Array(RESETS_PER_ADDRESS).fill(200));
    expect(statuses.at(-1)).toBe(429);
  });

  it('loopback (the web tier on this machine) is believed', async () => {
    const forgot = (forwardedFor: string) =>
      call(t.url, 'POST', '/auth/users/forgot', { body: { email: email() }, headers: { 'x-forwarded-for': forwardedFor } });
    expect(await spend(forgot, (request) => `198.51.100.${request}`)).toEqual(Array(RESETS_PER_ADDRESS + 1).fill(200));
  });
});

describe('trusted proxies configured (TRUSTED_PROXIES=10.9.9.9)', () => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ env: { TRUSTED_PROXIES: '10.9.9.9' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('loopback is then a client like any other: its forged X-Forwarded-For is ignored', async () => {
    const forgot = (forwardedFor: string) =>
      call(t.url, 'POST', '/auth/users/forgot', { body: { email: email() }, headers: { 'x-forwarded-for': forwardedFor } });
    const statuses = await spend(forgot, (request) => `203.0.113.${request}`);
    expect(statuses.at(-1)).toBe(429);
  });

  it('the configured proxy is believed: each client it names counts for itself', async () => {
    const viaProxy = (forwardedFor: string) =>
      t.api.app
        .inject({
          method: 'POST',
          url: '/auth/users/forgot',
          payload: { email: email() },
          headers: { 'x-forwarded-for': forwardedFor },
          remoteAddress: '10.9.9.9',
        })
        .then((answer) => ({ status: answer.statusCode }));
    expect(await spend(viaProxy, (request) => `198.51.100.${request}`)).toEqual(Array(RESETS_PER_ADDRESS + 1).fill(200));
    const one = await spend(viaProxy, () => '198.51.100.200');
    expect(one.at(-1)).toBe(429);
  });

  it('the web tier in the same process still passes the fan’s address, whatever TRUSTED_PROXIES says', async () => {
    const transport = webApiTransport({ apiUrl: 'http://127.0.0.1:8080', apiPort: 8080 }, t.api);
    const forgot = async (forwardedFor: string) => {
      const answer = await transport({
        method: 'POST',
        url: '/auth/users/forgot',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': forwardedFor },
        body: JSON.stringify({ email: email() }),
        signal: new AbortController().signal,
      });
      return { status: answer.status, message: (JSON.parse(answer.text) as { message?: string }).message };
    };
    const fan = await spend(forgot, () => '192.0.2.7');
    expect(fan.at(-1)).toBe(429);
    expect((await forgot('192.0.2.7')).message).toBe(TOO_MANY);
    expect((await forgot('192.0.2.8')).status).toBe(200);
  });
});
