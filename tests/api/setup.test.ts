import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { messages } from '#contract/accounts';
import { profileMessages } from '#contract/artist-profile';
import { setupMessages } from '#contract/setup';
import {
  call,
  clientAddress,
  describeEachDatabase,
  FAN_PASSWORD,
  registerFan,
  startTestApi,
  uniqueName,
  type TestApi,
} from '../helpers/api';

/**
 * The first-run setup over real HTTP: the owner's account only on an install with no account at all (one winner when
 * several try at once), then the first club on that account; the sign-up rules and their messages on both steps.
 */
describeEachDatabase('first-run setup', (database) => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ database: database.name });
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    // Every test starts from an empty install.
    await t.db.query('TRUNCATE users CASCADE');
  });

  const owner = () => {
    const username = uniqueName('owner');
    return { name: 'Nova Reyes', username, email: `${username}@example.com`, password: FAN_PASSWORD };
  };
  const setupAccount = (body: unknown) =>
    call<{ token: string }>(t.url, 'POST', '/setup/account', { body, headers: { 'x-forwarded-for': clientAddress() } });
  const step = async (token?: string) => (await call<{ step: string }>(t.url, 'GET', '/setup', { token })).body.data.step;
  const accounts = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users'))[0].n;

  it('lets the first visitor of an empty install make the owner account, an operator, signed in', async () => {
    expect(await step()).toBe('account');
    const details = owner();
    const answer = await setupAccount(details);
    expect(answer.status).toBe(200);
    const me = await call(t.url, 'GET', '/users/me', { token: answer.body.data.token });
    expect(me.body.data).toMatchObject({ username: details.username, email: details.email, name: 'Nova Reyes', isPerformer: false });
    const [row] = await t.db.query<{ isOperator: boolean }>('SELECT is_operator AS "isOperator" FROM users WHERE username = $1', [
      details.username,
    ]);
    expect(row.isOperator).toBe(true);
    // The owner may go on to the club; anyone else finds the install set up.
    expect(await step(answer.body.data.token)).toBe('club');
    expect(await step()).toBe('done');
  });

  it('answers 404 to the first step once an account exists, so nobody takes an installed site over', async () => {
    expect((await setupAccount(owner())).status).toBe(200);
    const again = await setupAccount(owner());
    expect(again.status).toBe(404);
    expect(again.body.message).toBe(setupMessages.installed);
    expect(await accounts()).toBe(1);
  });

  it('stays closed on an install that already has accounts but no operator (one set up before this step existed)', async () => {
    await registerFan(t);
    expect(await step()).toBe('done');
    expect((await setupAccount(owner())).status).toBe(404);
    expect(await accounts()).toBe(1);
  });

  it('lets exactly one of several first steps at once win', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => setupAccount(owner())));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 404, 404, 404, 404, 404]);
    expect(await accounts()).toBe(1);
    const [row] = await t.db.query<{ operators: number }>('SELECT count(*)::int AS operators FROM users WHERE is_operator');
    expect(row.operators).toBe(1);
  });

  it('judges the account as sign-up does, with its messages, and makes nothing on a refusal', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...owner(), name: '  ' }, 'name', 'Please enter your name.'],
      [{ ...owner(), username: 'ab' }, 'username', messages.usernameTooShort],
      [{ ...owner(), username: 'nova reyes' }, 'username', messages.usernameCharacters],
      [{ ...owner(), username: 'setup' }, 'username', messages.usernameReserved],
      [{ ...owner(), email: 'nova' }, 'email', messages.emailInvalid],
      [{ ...owner(), password: 'short' }, 'password', messages.passwordTooShort],
      [{ ...owner(), password: 'alllowercase1!' }, 'password', messages.passwordComplexity],
    ];
    for (const [body, field, message] of cases) {
      const answer = await setupAccount(body);
      expect(answer.status, field).toBe(400);
      expect(answer.body.errors?.[field]).toEqual([message]);
    }
    expect(await accounts()).toBe(0);
    expect(await step()).toBe('account');
  });

  it('opens the first club on the owner account: an artist with its price and currency', async () => {
    const details = owner();
    const token = (await setupAccount(details)).body.data.token;
    const club = uniqueName('club');
    const answer = await call(t.url, 'POST', '/setup/club', {
      token,
      body: { name: 'Nova and the Reyes', username: club, yearlyPrice: '49.99', currency: 'eur' },
    });
    expect(answer.status).toBe(200);
    const me = await call(t.url, 'GET', '/users/me', { token });
    expect(me.body.data).toMatchObject({ username: club, isPerformer: true, name: 'Nova and the Reyes' });
    const artist = await call(t.url, 'GET', `/performers/${club}`, { token });
    expect(artist.status).toBe(200);
    expect(artist.body.data).toMatchObject({ name: 'Nova and the Reyes', username: club, yearlyPrice: 49.99 });
    const [profile] = await t.db.query<{ currency: string }>('SELECT currency FROM artist_profiles');
    expect(profile.currency).toBe('eur');
    expect(await step(token)).toBe('done');
    // Made once: the step is over for the owner too.
    const again = await call(t.url, 'POST', '/setup/club', {
      token,
      body: { name: 'Again', username: club, yearlyPrice: '0', currency: 'usd' },
    });
    expect(again.status).toBe(403);
  });

  it('refuses the club step to anyone but an operator', async () => {
    await setupAccount(owner());
    const fan = await registerFan(t);
    const answer = await call(t.url, 'POST', '/setup/club', {
      token: fan.token,
      body: { name: 'Taken over', username: uniqueName('club'), yearlyPrice: '0', currency: 'usd' },
    });
    expect(answer.status).toBe(404);
    // Before judging the body: a fan learns nothing of what the step would accept.
    const empty = await call(t.url, 'POST', '/setup/club', { token: fan.token, body: {} });
    expect(empty.status).toBe(404);
    expect((await call(t.url, 'POST', '/setup/club', { body: {} })).status).toBe(401);
    const [row] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM artist_profiles');
    expect(row.n).toBe(0);
  });

  it('makes one club when the club step is sent twice at once', async () => {
    const token = (await setupAccount(owner())).body.data.token;
    const body = { name: 'Nova', username: uniqueName('club'), yearlyPrice: '0', currency: 'usd' };
    const answers = await Promise.all([1, 2, 3].map(() => call(t.url, 'POST', '/setup/club', { token, body })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 403, 403]);
    const [row] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM artist_profiles');
    expect(row.n).toBe(1);
  });

  it('judges the club with the profile’s messages', async () => {
    const token = (await setupAccount(owner())).body.data.token;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: '', username: uniqueName('club'), yearlyPrice: '10', currency: 'usd' }, 'name', profileMessages.name],
      [{ name: 'Nova', username: 'x', yearlyPrice: '10', currency: 'usd' }, 'username', messages.usernameTooShort],
      [{ name: 'Nova', username: uniqueName('club'), yearlyPrice: '-1', currency: 'usd' }, 'yearlyPrice', profileMessages.price],
      [{ name: 'Nova', username: uniqueName('club'), yearlyPrice: '10.999', currency: 'usd' }, 'yearlyPrice', profileMessages.price],
      [{ name: 'Nova', username: uniqueName('club'), yearlyPrice: '10', currency: 'yen' }, 'currency', profileMessages.currency],
    ];
    for (const [body, field, message] of cases) {
      const answer = await call(t.url, 'POST', '/setup/club', { token, body });
      expect(answer.status, field).toBe(400);
      expect(answer.body.errors?.[field]).toEqual([message]);
    }
    const taken = await registerFan(t);
    const clash = await call(t.url, 'POST', '/setup/club', {
      token,
      body: { name: 'Nova', username: taken.username, yearlyPrice: '1', currency: 'usd' },
    });
    expect(clash.status).toBe(400);
    expect(clash.body.errors?.username).toEqual([expect.stringContaining('already taken')]);
    expect(await step(token)).toBe('club');
  });
});
