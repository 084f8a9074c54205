import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_TAKEN, INCORRECT_DETAILS, USERNAME_TAKEN } from '../../api/auth/routes';
import fs from 'node:fs';
import path from 'node:path';
import { messages, RESERVED_USERNAMES } from '#contract/accounts';
import {
  call,
  clientAddress,
  describeEachDatabase,
  FAN_PASSWORD,
  login,
  mailsTo,
  makeArtist,
  registerFan,
  subscribe,
  startTestApi,
  uniqueName,
  waitForMail,
  type TestApi,
} from '../helpers/api';

/** Accounts over real HTTP: registration, log-in, the current user, log-out and the register step's edit. */
describeEachDatabase('accounts', (database) => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ database: database.name });
  });
  afterAll(async () => {
    await t?.close();
  });

  const register = (body: unknown) =>
    call<{ token: string }>(t.url, 'POST', '/auth/users/register', { body, headers: { 'x-forwarded-for': clientAddress() } });

  it('registers a fan: status 0 and a token that signs them in', async () => {
    const username = uniqueName();
    const answer = await register({ username, email: `${username}@example.com`, password: FAN_PASSWORD });
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe(0);
    expect(answer.body.data.token).toEqual(expect.any(String));
    const me = await call(t.url, 'GET', '/users/me', { token: answer.body.data.token });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ username, email: `${username}@example.com`, isPerformer: false });
  });

  it('trims and lowercases the username and the email', async () => {
    const username = uniqueName();
    const answer = await register({
      username: `  ${username.toUpperCase()} `,
      email: ` ${username.toUpperCase()}@Example.COM `,
      password: FAN_PASSWORD,
    });
    expect(answer.status).toBe(200);
    const me = await call(t.url, 'GET', '/users/me', { token: answer.body.data.token });
    expect(me.body.data).toMatchObject({ username, email: `${username}@example.com` });
  });

  it('answers 400 for a taken username and 422 for a taken email, whatever their case', async () => {
    const fan = await registerFan(t);
    const other = uniqueName();

    const sameName = await register({ username: fan.username.toUpperCase(), email: `${other}@example.com`, password: FAN_PASSWORD });
    expect(sameName.status).toBe(400);
    expect(sameName.body).toMatchObject({ status: 400, message: USERNAME_TAKEN, errors: { username: [USERNAME_TAKEN] } });

    const sameEmail = await register({ username: other, email: fan.email.toUpperCase(), password: FAN_PASSWORD });
    expect(sameEmail.status).toBe(422);
    expect(sameEmail.body).toMatchObject({ status: 422, message: EMAIL_TAKEN, errors: { email: [EMAIL_TAKEN] } });

    // Both taken: the username is reported, as the spec's 400 comes first.
    const both = await register({ username: fan.username, email: fan.email, password: FAN_PASSWORD });
    expect(both.status).toBe(400);
  });

  it('refuses a username that is the first part of a path the web or the api uses, with a clear message', async () => {
    // Every first path segment a username could spell: the web's route files and public files, the web tier's own
    // paths, the api's routes and its realtime socket. A page added without reserving its name fails here.
    const pages = fs
      .readdirSync(path.resolve('app/routes'))
      .map((file) =>
        file
          .replace(/\.tsx?$/, '')
          .split('.')
          .find((segment) => !segment.startsWith('_')),
      )
      .filter((segment): segment is string => Boolean(segment) && !segment!.startsWith('$'));
    const publicFiles = fs.readdirSync(path.resolve('public')).map((name) => name.replace(/\..*$/, ''));
    const apiPrefixes = t.api.routes.map((route) => route.url.split('/')[1]);
    const used = [...new Set([...pages, ...publicFiles, ...apiPrefixes, 'healthz', 'build', 'socket'])].filter(
      (name): name is string => typeof name === 'string' && /^[a-z0-9]{3,30}$/.test(name),
    );
    expect(used).toEqual(
      expect.arrayContaining(['lite', 'messages', 'discover', 'login', 'logout', 'password', 'images', 'media', 'socket']),
    );
    expect(used.filter((name) => !RESERVED_USERNAMES.includes(name))).toEqual([]);

    const other = uniqueName();
    for (const username of [...used, 'Password', ' LITE ']) {
      const answer = await register({ username, email: `${other}@example.com`, password: FAN_PASSWORD });
      expect(answer.status, username).toBe(400);
      expect(answer.body.errors, username).toEqual({ username: [messages.usernameReserved] });
    }
  });

  it('answers 400 with its message on each field, never 500', async () => {
    const name = uniqueName();
    const valid = { username: name, email: `${name}@example.com`, password: FAN_PASSWORD };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...valid, email: '' }, 'email', messages.emailRequired],
      [{ ...valid, email: '   ' }, 'email', messages.emailRequired],
      [{ ...valid, email: undefined }, 'email', messages.emailRequired],
      [{ ...valid, email: 'not-an-email' }, 'email', messages.emailInvalid],
      [{ ...valid, username: 'ab' }, 'username', messages.usernameTooShort],
      [{ ...valid, username: undefined }, 'username', messages.usernameTooShort],
      [{ ...valid, username: 'fan_club' }, 'username', messages.usernameCharacters],
      [{ ...valid, username: 'a'.repeat(31) }, 'username', messages.usernameTooLong],
      [{ ...valid, password: 'Short-1' }, 'password', messages.passwordTooShort],
      [{ ...valid, password: undefined }, 'password', messages.passwordTooShort],
      [{ ...valid, password: 'alllowercase-1' }, 'password', messages.passwordComplexity],
      [{ ...valid, password: 'NoNumbersHere!' }, 'password', messages.passwordComplexity],
      [{ ...valid, password: 'NoSpecials123' }, 'password', messages.passwordComplexity],
    ];
    for (const [body, field, message] of cases) {
      const answer = await register(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.status).toBe(400);
      expect(answer.body.errors?.[field], JSON.stringify(body)).toContain(message);
    }
    const all = await register({});
    expect(all.status).toBe(400);
    expect(Object.keys(all.body.errors ?? {}).sort()).toEqual(['email', 'password', 'username']);
  });

  it('answers 4xx, never 500, for bodies that are not what a form sends', async () => {
    const bodies: { body?: unknown; headers?: Record<string, string> }[] = [
      { body: '{"username":', headers: { 'content-type': 'application/json' } },
      { body: [1, 2] },
      { body: { username: 42, email: true, password: null } },
      { body: 'plain text', headers: { 'content-type': 'text/plain' } },
      {},
    ];
    for (const { body, headers } of bodies) {
      const answer = await call(t.url, 'POST', '/auth/users/register', {
        body,
        headers: { 'x-forwarded-for': clientAddress(), ...headers },
      });
      expect(answer.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(answer.status, JSON.stringify(body)).toBeLessThan(500);
      expect(answer.body.message).toEqual(expect.any(String));
    }
  });

  it('logs in by email or by username, in any case, with a new token each time', async () => {
    const fan = await registerFan(t);
    const byEmail = await login(t, fan.email.toUpperCase(), fan.password);
    expect(byEmail.status).toBe(200);
    expect(byEmail.body).toEqual({ status: 0, data: { token: expect.any(String) } });
    const byUsername = await login(t, fan.username, fan.password);
    expect(byUsername.status).toBe(200);
    expect(byUsername.body.data.token).not.toBe(byEmail.body.data.token);
    for (const token of [byEmail.body.data.token, byUsername.body.data.token, fan.token]) {
      expect((await call(t.url, 'GET', '/users/me', { token })).status).toBe(200);
    }
    // Session fixation: a token the client already holds (one an attacker planted) is never the one a log-in hands out.
    const planted = 'planted-by-an-attacker-0123456789';
    const fixated = await call<{ token: string }>(t.url, 'POST', '/auth/login', {
      token: planted,
      body: { username: fan.email, password: fan.password, remember: true },
      headers: { 'x-forwarded-for': clientAddress() },
    });
    expect(fixated.status).toBe(200);
    expect(fixated.body.data.token).not.toBe(planted);
    expect((await call(t.url, 'GET', '/users/me', { token: planted })).status).toBe(401);
  });

  it('answers 422 with the same body for a wrong password and for an unknown user', async () => {
    const fan = await registerFan(t);
    const wrongPassword = await login(t, fan.email, 'Wrong-Password-1');
    const unknownUser = await login(t, `${uniqueName('nobody')}@example.com`, fan.password);
    expect(wrongPassword.status).toBe(422);
    expect(unknownUser.status).toBe(422);
    expect(wrongPassword.body).toEqual({ status: 422, message: INCORRECT_DETAILS });
    expect(unknownUser.body).toEqual(wrongPassword.body);
  });

  it('takes as long to refuse an unknown user as a wrong password, so timing does not tell which accounts exist', async () => {
    const fan = await registerFan(t);
    const known: number[] = [];
    const unknown: number[] = [];
    const timed = async (name: string) => {
      const started = performance.now();
      expect((await login(t, name, 'Wrong-Password-1')).status).toBe(422);
      return performance.now() - started;
    };
    // Interleaved, below the 10 failures that block an account: a slow moment on the machine hits both sides.
    for (let i = 0; i < 7; i++) {
      known.push(await timed(fan.email));
      unknown.push(await timed(`${uniqueName('nobody')}@example.com`));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    // Both verify an argon2id hash (tens of ms); skipping it for unknown users answers them in a few ms.
    expect(median(unknown) / median(known), `unknown ${unknown.map(Math.round)} ms, known ${known.map(Math.round)} ms`).toBeGreaterThan(
      0.5,
    );
  });

  it('validates the log-in body with its messages', async () => {
    const empty = await call(t.url, 'POST', '/auth/login', {
      body: { username: '  ', password: '' },
      headers: { 'x-forwarded-for': clientAddress() },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual({ username: [messages.emailRequired], password: [messages.passwordRequired] });
    const missing = await call(t.url, 'POST', '/auth/login', { body: {}, headers: { 'x-forwarded-for': clientAddress() } });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual({ username: [messages.emailRequired], password: [messages.passwordRequired] });
  });

  it('GET /users/me answers exactly the documented fields', async () => {
    const fan = await registerFan(t);
    const me = await call(t.url, 'GET', '/users/me', { token: fan.token });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      status: 0,
      data: { _id: fan.id, name: fan.username, avatar: '', username: fan.username, email: fan.email, isPerformer: false },
    });
  });

  it('GET /users/me answers 401 without a token, with an unknown or malformed one, and with an expired one', async () => {
    const fan = await registerFan(t);
    const tries = [
      {},
      { token: 'not-a-real-token' },
      { headers: { authorization: `Basic ${fan.token}` } },
      { headers: { authorization: 'Bearer' } },
      { token: 'x'.repeat(500) },
    ];
    for (const options of tries) {
      const answer = await call(t.url, 'GET', '/users/me', options);
      expect(answer.status, JSON.stringify(options)).toBe(401);
      expect(answer.body).toEqual({ status: 401, message: 'Token expired' });
    }
    await t.db.query(`UPDATE sessions SET expires_at = now() - interval '1 minute' WHERE user_id = $1`, [fan.id]);
    expect((await call(t.url, 'GET', '/users/me', { token: fan.token })).status).toBe(401);
  });

  it('GET /users/me answers 403 for a forbidden account', async () => {
    const fan = await registerFan(t);
    await t.db.query(`UPDATE users SET status = 'forbidden' WHERE id = $1`, [fan.id]);
    const me = await call(t.url, 'GET', '/users/me', { token: fan.token });
    expect(me.status).toBe(403);
    expect(me.body).toEqual({ status: 403, message: 'Access forbidden' });
  });

  it('logs out: that token stops working, the fan’s other sessions do not', async () => {
    const fan = await registerFan(t);
    const other = (await login(t, fan.email, fan.password)).body.data.token;
    const out = await call(t.url, 'POST', '/auth/logout', { token: fan.token });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ status: 0, data: { success: true } });
    expect((await call(t.url, 'GET', '/users/me', { token: fan.token })).status).toBe(401);
    expect((await call(t.url, 'POST', '/auth/logout', { token: fan.token })).status).toBe(401);
    expect((await call(t.url, 'GET', '/users/me', { token: other })).status).toBe(200);
  });

  it('PUT /users changes username, email and password; this session stays, the others end', async () => {
    const fan = await registerFan(t);
    const otherSession = (await login(t, fan.email, fan.password)).body.data.token;
    const username = uniqueName('edited');
    const changes = { username, email: `${username}@example.com`, password: 'Another-Pass-2' };
    const answer = await call(t.url, 'PUT', '/users', { token: fan.token, body: changes });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 0,
      data: { _id: fan.id, name: username, avatar: '', username, email: changes.email, isPerformer: false },
    });
    expect((await call(t.url, 'GET', '/users/me', { token: fan.token })).body.data).toMatchObject({ username, email: changes.email });
    expect((await call(t.url, 'GET', '/users/me', { token: otherSession })).status).toBe(401);
    expect((await login(t, changes.email, changes.password)).status).toBe(200);
    expect((await login(t, fan.username, fan.password)).status).toBe(422);
  });

  it('PUT /users keeps the user’s own username and email without a conflict, and answers 400/422 for someone else’s', async () => {
    const [fan, other] = await Promise.all([registerFan(t), registerFan(t)]);
    const same = await call(t.url, 'PUT', '/users', {
      token: fan.token,
      body: { username: fan.username, email: fan.email, password: FAN_PASSWORD },
    });
    expect(same.status).toBe(200);

    const takenName = await call(t.url, 'PUT', '/users', {
      token: fan.token,
      body: { username: other.username.toUpperCase(), email: fan.email, password: FAN_PASSWORD },
    });
    expect(takenName.status).toBe(400);
    expect(takenName.body.errors).toEqual({ username: [USERNAME_TAKEN] });

    const takenEmail = await call(t.url, 'PUT', '/users', {
      token: fan.token,
      body: { username: fan.username, email: other.email.toUpperCase(), password: FAN_PASSWORD },
    });
    expect(takenEmail.status).toBe(422);
    expect(takenEmail.body.errors).toEqual({ email: [EMAIL_TAKEN] });

    const invalid = await call(t.url, 'PUT', '/users', { token: fan.token, body: { username: 'a!', email: 'nope', password: 'short' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toEqual({
      username: [messages.usernameTooShort],
      email: [messages.emailInvalid],
      password: [messages.passwordTooShort],
    });

    const anonymous = await call(t.url, 'PUT', '/users', { body: { username: fan.username, email: fan.email, password: FAN_PASSWORD } });
    expect(anonymous.status).toBe(401);
    expect((await call(t.url, 'GET', '/users/me', { token: fan.token })).body.data).toMatchObject({
      username: fan.username,
      email: fan.email,
    });
  });

  describe('PUT /users needs the current password to change the email or the password (finding 6)', () => {
    /** A fan past sign-up: registered over an hour ago. */
    async function settledFan() {
      const fan = await registerFan(t);
      await t.db.query(`UPDATE users SET created_at = now() - interval '2 hours' WHERE id = $1`, [fan.id]);
      return fan;
    }
    const put = (fan: { token: string }, body: Record<string, unknown>) => call(t.url, 'PUT', '/users', { token: fan.token, body });
    const NEW_PASSWORD = 'Another-Pass-2';

    it('a stolen session alone changes neither: a missing current password is 400, a wrong one 422, on the field', async () => {
      const fan = await settledFan();
      const newEmail = `${uniqueName('thief')}@example.com`;
      for (const changes of [
        { username: fan.username, email: newEmail, password: NEW_PASSWORD },
        { username: fan.username, email: fan.email, password: NEW_PASSWORD },
      ]) {
        const missing = await put(fan, changes);
        expect(missing.status).toBe(400);
        expect(missing.body).toEqual({
          status: 400,
          message: messages.currentPasswordRequired,
          errors: { currentPassword: [messages.currentPasswordRequired] },
        });
        const wrong = await put(fan, { ...changes, currentPassword: 'Not-The-Password-1' });
        expect(wrong.status).toBe(422);
        expect(wrong.body).toEqual({
          status: 422,
          message: messages.currentPasswordIncorrect,
          errors: { currentPassword: [messages.currentPasswordIncorrect] },
        });
      }
      expect((await call(t.url, 'GET', '/users/me', { token: fan.token })).body.data.email).toBe(fan.email);
      expect((await login(t, fan.email, fan.password)).status).toBe(200);
      expect(await mailsTo(t, fan.email)).toEqual([]);
    });

    it('with the current password both change, and the old address is told', async () => {
      const fan = await settledFan();
      const newEmail = `${uniqueName('moved')}@example.com`;
      const answer = await put(fan, { username: fan.username, email: newEmail, password: NEW_PASSWORD, currentPassword: fan.password });
      expect(answer.status).toBe(200);
      expect(answer.body.data.email).toBe(newEmail);
      expect((await login(t, newEmail, NEW_PASSWORD)).status).toBe(200);
      const notice = await waitForMail(t, fan.email);
      expect(notice.subject).toBe('The email address of your Stagedoor account was changed');
      expect(notice.text).toContain(newEmail);
      expect(await mailsTo(t, newEmail)).toEqual([]);
      // The password alone: the address is told too.
      const again = await put(fan, { username: fan.username, email: newEmail, password: 'Third-Pass-3!', currentPassword: NEW_PASSWORD });
      expect(again.status).toBe(200);
      expect((await waitForMail(t, newEmail)).subject).toBe('Your Stagedoor password was changed');
    });

    it('the username alone, or the email with the password sent unchanged, needs nothing more', async () => {
      const fan = await settledFan();
      const renamed = uniqueName('renamed');
      expect((await put(fan, { username: renamed, email: fan.email, password: fan.password })).status).toBe(200);
      // Sending the password it already has proves it: the email may change with it.
      const newEmail = `${uniqueName('moved')}@example.com`;
      expect((await put(fan, { username: renamed, email: newEmail, password: fan.password })).status).toBe(200);
      expect((await waitForMail(t, fan.email)).subject).toBe('The email address of your Stagedoor account was changed');
    });

    it('guessing the current password counts as failed log-ins: 10, then 429', async () => {
      const fan = await settledFan();
      for (let attempt = 1; attempt <= 10; attempt++) {
        const guess = await put(fan, {
          username: fan.username,
          email: fan.email,
          password: NEW_PASSWORD,
          currentPassword: `Guess-${attempt}-Pass`,
        });
        expect(guess.status, `guess ${attempt}`).toBe(422);
      }
      expect(
        (await put(fan, { username: fan.username, email: fan.email, password: NEW_PASSWORD, currentPassword: fan.password })).status,
      ).toBe(429);
      // Guessing through the new-password field (a match needs no current password) is counted too.
      const other = await settledFan();
      for (let attempt = 1; attempt <= 10; attempt++)
        expect((await put(other, { username: other.username, email: other.email, password: `Guess-${attempt}-Pass` })).status).toBe(400);
      expect((await put(other, { username: other.username, email: other.email, password: other.password })).status).toBe(429);
    });

    it('the sign-up step’s edit keeps working as the register page sends it, for a fan signing up only', async () => {
      // Registered minutes ago, nothing paid, no subscription: the register page's ?edit=true body, without currentPassword.
      const fan = await registerFan(t);
      const newEmail = `${uniqueName('typo')}@example.com`;
      const edited = await put(fan, { username: fan.username, email: newEmail, password: NEW_PASSWORD });
      expect(edited.status).toBe(200);
      expect((await waitForMail(t, fan.email)).subject).toBe('The email address of your Stagedoor account was changed');

      // A member (a subscription), or a fan who paid, is past sign-up, however recent.
      const member = await registerFan(t);
      const artist = await registerFan(t, 'artist');
      await makeArtist(t, artist);
      await subscribe(t, member.id, artist.id);
      expect((await put(member, { username: member.username, email: member.email, password: NEW_PASSWORD })).status).toBe(400);
      const payer = await registerFan(t);
      await t.db.query(
        `INSERT INTO payments (user_id, artist_id, gateway, status, amount_cents, list_price_cents) VALUES ($1, $2, 'test', 'succeeded', 100, 100)`,
        [payer.id, artist.id],
      );
      expect((await put(payer, { username: payer.username, email: payer.email, password: NEW_PASSWORD })).status).toBe(400);
    });
  });

  it('answers unknown paths with 404 in the same envelope', async () => {
    const answer = await call(t.url, 'GET', '/no/such/path');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ status: 404, message: 'Not found' });
  });

  it('GET /healthz answers ok while the database answers', async () => {
    const answer = await call(t.url, 'GET', '/healthz');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'ok' });
  });
});
