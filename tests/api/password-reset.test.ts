import net from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createMailer } from '../../api/mail/mailer';
import { messages } from '#contract/accounts';
import {
  call,
  clientAddress,
  describeEachDatabase,
  login,
  mailsTo,
  registerFan,
  startTestApi,
  uniqueName,
  waitForMail,
  type TestApi,
} from '../helpers/api';

/** argon2 runs through this counter, so a test can say how many hashes a request cost without timing it. */
const argon2Calls = vi.hoisted(() => ({ hash: 0, verify: 0 }));
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const argon2 = await importOriginal<typeof import('@node-rs/argon2')>();
  return {
    ...argon2,
    hash: (...args: Parameters<typeof argon2.hash>) => {
      argon2Calls.hash += 1;
      return argon2.hash(...args);
    },
    verify: (...args: Parameters<typeof argon2.verify>) => {
      argon2Calls.verify += 1;
      return argon2.verify(...args);
    },
  };
});

const WEB = 'http://web.stagedoor.test';
const INVALID_LINK = 'This password reset link is invalid or has expired. Please request a new one.';
const NEW_PASSWORD = 'Fresh-Start-2026!';

/** The reset journey through the outbox: POST /auth/users/forgot, then POST /auth/password-change?token=. */
describeEachDatabase('password reset', (database) => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ database: database.name, env: { PUBLIC_WEB_URL: WEB } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const forgot = (body: unknown) => call(t.url, 'POST', '/auth/users/forgot', { body, headers: { 'x-forwarded-for': clientAddress() } });
  const change = (token: string | undefined, password: string) =>
    call(t.url, 'POST', '/auth/password-change', {
      query: token === undefined ? {} : { token },
      body: { password },
      headers: { 'x-forwarded-for': clientAddress() },
    });

  /** Requests a reset and answers the token from the link in the mail. */
  async function requestReset(email: string, artist?: string) {
    const before = (await mailsTo(t, email)).length;
    const answer = await forgot({ email, artist });
    expect(answer.status).toBe(200);
    const mail = await waitForMail(t, email, { after: before });
    const link = new URL(/https?:\/\/\S+/.exec(mail.text)![0]);
    return { link, token: link.searchParams.get('token')! };
  }

  it('mails a link to /password/reset?token=… with the artist, and answers the same for an unknown email', async () => {
    const fan = await registerFan(t);
    const known = await forgot({ email: fan.email.toUpperCase(), artist: 'novaricci' });
    const nobody = `${uniqueName('nobody')}@example.com`;
    const unknown = await forgot({ email: nobody, artist: 'novaricci' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual({ status: 0, data: { success: true } });
    expect(unknown.body).toEqual(known.body);

    const mail = await waitForMail(t, fan.email);
    expect(mail.subject).toBe('Reset your Stagedoor password');
    const link = new URL(/https?:\/\/\S+/.exec(mail.text)![0]);
    expect(`${link.origin}${link.pathname}`).toBe(`${WEB}/password/reset`);
    expect(link.searchParams.get('token')).toMatch(/^[\w-]{40,}$/);
    expect(link.searchParams.get('artist')).toBe('novaricci');
    expect(await mailsTo(t, nobody)).toEqual([]);
  });

  it('validates the email with its messages', async () => {
    const empty = await forgot({ email: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual({ email: [messages.emailRequired] });
    const invalid = await forgot({ email: 'fan-at-example' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toEqual({ email: [messages.emailInvalid] });
  });

  it('sets the new password once: the token is spent, the old password and every session stop working', async () => {
    const fan = await registerFan(t);
    const otherSession = (await login(t, fan.username, fan.password)).body.data.token;
    const { token } = await requestReset(fan.email);

    const answer = await change(token, NEW_PASSWORD);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 0, data: { success: true } });

    expect((await login(t, fan.email, NEW_PASSWORD)).status).toBe(200);
    expect((await login(t, fan.email, fan.password)).status).toBe(422);
    for (const session of [fan.token, otherSession]) {
      expect((await call(t.url, 'GET', '/users/me', { token: session })).status).toBe(401);
    }

    const again = await change(token, 'Yet-Another-3!');
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ status: 400, message: INVALID_LINK, errors: { token: [INVALID_LINK] } });
    expect((await login(t, fan.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('a weak password is refused with its message and leaves the token usable', async () => {
    const fan = await registerFan(t);
    const { token } = await requestReset(fan.email);
    const short = await change(token, 'Short-1');
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual({ password: [messages.passwordTooShort] });
    const simple = await change(token, 'onlylowercase');
    expect(simple.status).toBe(400);
    expect(simple.body.errors).toEqual({ password: [messages.passwordComplexity] });
    expect((await change(token, NEW_PASSWORD)).status).toBe(200);
  });

  it('refuses an expired token, an unknown one and a missing one', async () => {
    const fan = await registerFan(t);
    const { token } = await requestReset(fan.email);
    await t.db.query(`UPDATE password_resets SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [fan.id]);
    for (const tried of [token, 'made-up-token', '', undefined]) {
      const answer = await change(tried, NEW_PASSWORD);
      expect(answer.status, String(tried)).toBe(400);
      expect(answer.body.message).toBe(INVALID_LINK);
    }
    expect((await login(t, fan.email, fan.password)).status).toBe(200);
  });

  it('refuses an unknown token before hashing the new password, so junk tokens cost the server little (finding 5)', async () => {
    const fan = await registerFan(t);
    argon2Calls.hash = 0;
    argon2Calls.verify = 0;
    for (let i = 0; i < 3; i++) expect((await change(`junk-${i}`, NEW_PASSWORD)).status).toBe(400);
    expect(argon2Calls).toEqual({ hash: 0, verify: 0 });
    // The counter sees the hashing a real link does: the new password is hashed once.
    const { token } = await requestReset(fan.email);
    expect((await change(token, NEW_PASSWORD)).status).toBe(200);
    expect(argon2Calls.hash).toBe(1);
  });

  it('a link is valid for one hour', async () => {
    const fan = await registerFan(t);
    await requestReset(fan.email);
    const [row] = await t.db.query<{ minutes: number }>(
      `SELECT round(extract(epoch FROM expires_at - created_at) / 60)::int AS minutes FROM password_resets WHERE user_id = $1`,
      [fan.id],
    );
    expect(row.minutes).toBe(60);
  });

  it('using one link spends every other link sent to the same account', async () => {
    const fan = await registerFan(t);
    const first = await requestReset(fan.email);
    // The outbox names mails by millisecond: let the second one land after the first.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await requestReset(fan.email);
    expect(second.token).not.toBe(first.token);
    expect((await change(second.token, NEW_PASSWORD)).status).toBe(200);
    expect((await change(first.token, 'Yet-Another-3!')).status).toBe(400);
  });

  it('sends no mail to a forbidden account', async () => {
    const fan = await registerFan(t);
    await t.db.query(`UPDATE users SET status = 'forbidden' WHERE id = $1`, [fan.id]);
    expect((await forgot({ email: fan.email })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await mailsTo(t, fan.email)).toEqual([]);
  });

  it('answers at once while the mail server is down, the same for a known and an unknown email', async () => {
    // Nothing listens on this port: every SMTP connection is refused, as during an outage.
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const outbox = t.api.ctx.mailer;
    t.api.ctx.mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: t.config.mailFrom,
      outboxDir: t.outboxDir,
      log: () => {},
    });
    try {
      const fan = await registerFan(t);
      for (const email of [fan.email, `${uniqueName('nobody')}@example.com`]) {
        // A reply that waited for the mail would wait out the retries (5 s, 30 s, 2 min) and say the account exists.
        const answer = await call(t.url, 'POST', '/auth/users/forgot', {
          body: { email },
          headers: { 'x-forwarded-for': clientAddress() },
          signal: AbortSignal.timeout(2000),
        });
        expect(answer.status, email).toBe(200);
        expect(answer.body).toEqual({ status: 0, data: { success: true } });
      }
    } finally {
      t.api.ctx.mailer = outbox;
    }
  });
});
