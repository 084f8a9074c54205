import { afterAll, beforeAll, expect, it } from 'vitest';
import { queues } from '../../api/jobs/queues';
import { queueMail } from '../../api/mail/queue';
import {
  call,
  clientAddress,
  describeEachDatabase,
  FAN_PASSWORD,
  makeArtist,
  registerFan,
  startTestApi,
  waitForMail,
  type TestApi,
  type TestUser,
} from '../helpers/api';
import { startSmtp, type ReceivedMail, type TestSmtp } from '../helpers/notify';

/**
 * Every mail of docs/notifications.md "Mail", rendered by react-email and delivered through a real SMTP server: headers, the HTML part
 * and the text part. The renewal sweeps run on a clock the test moves (startTestApi's `now`), through the queue.
 */

let t: TestApi;
let smtp: TestSmtp;
let clock = Date.now();
const DAY = 24 * 3600 * 1000;

const SUCCESS_CARD = { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' };

async function paidArtist(price = 4999) {
  const artist = await registerFan(t, 'artist');
  await makeArtist(t, artist, { yearlyPriceCents: price, name: 'Nova Ricci' });
  await t.db.query(`UPDATE users SET avatar = '/performers/images/abc' WHERE id = $1`, [artist.id]);
  return artist;
}

async function payWithCard(fan: TestUser, artist: TestUser, promo?: string) {
  const card = await call(t.url, 'POST', '/payment/test-gateway/cards', { token: fan.token, body: SUCCESS_CARD });
  const paid = await call(t.url, 'POST', '/payment/subscribe/performers', {
    token: fan.token,
    body: { type: 'yearly', performerId: artist.id, paymentGateway: 'test', cardId: card.body.data.id, promo },
  });
  expect(paid.body.data.status, JSON.stringify(paid.body)).toBe('succeeded');
  return paid.body.data;
}

/** Both parts of a mail hold each of these. */
function holds(mail: ReceivedMail, ...texts: string[]) {
  for (const text of texts) {
    // The text part writes headings in capitals.
    expect(mail.parsed.text?.toLowerCase(), `text part: ${text}`).toContain(text.toLowerCase());
    expect(mail.parsed.html, `HTML part: ${text}`).toContain(text.replace(/&/g, '&amp;'));
  }
}

const sweep = async (at: number) => {
  clock = at;
  await t.api.ctx.jobs.send(queues.renewalsSweep, {});
};

describeEachDatabase('mail', (database) => {
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startTestApi({
      database: database.name,
      now: () => new Date(clock),
      env: { SMTP_URL: smtp.url, PUBLIC_WEB_URL: 'https://fans.example', PUBLIC_API_URL: 'https://api.example' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('a receipt for the first payment: artist with image, amount, promo, card, date, next renewal, how to cancel', async () => {
    const artist = await paidArtist();
    await t.db.query(`INSERT INTO promo_codes (artist_id, code, percent_off) VALUES ($1, 'SPRING', 20)`, [artist.id]);
    const fan = await registerFan(t);
    const payment = await payWithCard(fan, artist, 'SPRING');
    const [mail] = await smtp.waitFor(fan.email);
    expect(mail.parsed.subject).toBe('Your receipt for Nova Ricci’s fan club');
    expect(mail.parsed.from?.value).toEqual([{ name: 'Stagedoor', address: 'no-reply@stagedoor.fm' }]);
    expect(mail.parsed.messageId).toMatch(/^<.+@stagedoor\.mail>$/);
    const renews = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
      new Date(payment.subscription.expiresAt),
    );
    holds(mail, 'Nova Ricci', '$39.99', 'SPRING', '$49.99', 'Visa ending 4242', renews, 'turn renewal off');
    expect(mail.parsed.html).toContain('src="https://api.example/performers/images/abc"');
    expect(mail.parsed.html).toContain('href="https://fans.example/');
  });

  it('the renewal reminder 7 days before, and a failed renewal retried after 1, 3 and 7 days before it lapses', async () => {
    const artist = await paidArtist();
    const fan = await registerFan(t);
    await payWithCard(fan, artist);
    await smtp.waitFor(fan.email, 1);
    const [{ expiresAt }] = await t.db.query<{ expiresAt: Date }>(
      'SELECT expires_at AS "expiresAt" FROM subscriptions WHERE user_id = $1',
      [fan.id],
    );
    const end = new Date(expiresAt).getTime();

    await sweep(end - 10 * DAY);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.to(fan.email)).toHaveLength(1);
    await sweep(end - 6.5 * DAY);
    const [, reminder] = await smtp.waitFor(fan.email, 2);
    expect(reminder.parsed.subject).toMatch(/^Your Nova Ricci membership renews on /);
    holds(reminder, '$49.99', 'Cancel or manage renewal', 'turn renewal off');
    await sweep(end - 6 * DAY);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.to(fan.email)).toHaveLength(2);

    // The card now fails: tried a day before the end, then 1, 3 and 7 days after the first failure.
    await t.db.query(`UPDATE test_gateway_cards SET behaviour = 'card_declined' WHERE user_id = $1`, [fan.id]);
    const first = end - 0.5 * DAY;
    await sweep(first);
    const failed = (await smtp.waitFor(fan.email, 3))[2];
    expect(failed.parsed.subject).toBe('We could not renew your Nova Ricci membership');
    holds(failed, 'Your card was declined', 'We will try again on', 'keep access');
    const access = async () => (await call(t.url, 'GET', `/subscriptions/performers/${artist.id}`, { token: fan.token })).body.data;
    for (const [n, day] of [
      [4, 1],
      [5, 3],
    ] as const) {
      await sweep(first + day * DAY);
      const mail = (await smtp.waitFor(fan.email, n))[n - 1];
      expect(mail.parsed.subject).toBe('We could not renew your Nova Ricci membership');
      expect(new Date((await access()).expiresAt).getTime()).toBeGreaterThan(first + day * DAY);
    }
    await sweep(first + 7 * DAY);
    const ended = (await smtp.waitFor(fan.email, 6))[5];
    expect(ended.parsed.subject).toBe('Your Nova Ricci membership has ended');
    holds(ended, 'That was our last try', 'Join again');
    expect(await access()).toMatchObject({ autoRenew: false });
    expect(new Date((await access()).expiresAt).getTime()).toBeLessThanOrEqual(first + 7 * DAY + 1000);
    const renewals = await t.db.query<{ status: string }>(
      `SELECT status FROM payments WHERE user_id = $1 AND kind = 'renewal' ORDER BY created_at`,
      [fan.id],
    );
    expect(renewals.map((r) => r.status)).toEqual(['failed', 'failed', 'failed', 'failed']);
  });

  it('a card fixed between tries renews from the end of the paid year, with a renewal receipt', async () => {
    const artist = await paidArtist();
    const fan = await registerFan(t);
    await payWithCard(fan, artist);
    await smtp.waitFor(fan.email, 1);
    const [{ expiresAt }] = await t.db.query<{ expiresAt: Date }>(
      'SELECT expires_at AS "expiresAt" FROM subscriptions WHERE user_id = $1',
      [fan.id],
    );
    const end = new Date(expiresAt).getTime();
    await t.db.query(`UPDATE test_gateway_cards SET behaviour = 'insufficient_funds' WHERE user_id = $1`, [fan.id]);
    await sweep(end - 0.5 * DAY);
    const [, failed] = await smtp.waitFor(fan.email, 2);
    expect(failed.parsed.subject).toBe('We could not renew your Nova Ricci membership');
    await t.db.query(`UPDATE test_gateway_cards SET behaviour = 'succeed' WHERE user_id = $1`, [fan.id]);
    await sweep(end + 0.6 * DAY);
    const receipt = (await smtp.waitFor(fan.email, 3))[2];
    expect(receipt.parsed.subject).toBe('Your Nova Ricci membership renewed: receipt');
    holds(receipt, '$49.99', 'Visa ending 4242');
    const [row] = await t.db.query<{ expiresAt: Date; failures: number }>(
      'SELECT expires_at AS "expiresAt", renewal_failures AS failures FROM subscriptions WHERE user_id = $1',
      [fan.id],
    );
    expect(Math.abs(new Date(row.expiresAt).getTime() - (end + 365 * DAY))).toBeLessThan(2 * DAY);
    expect(row.failures).toBe(0);
  });

  it('cancellation confirmed, and resumed', async () => {
    const artist = await paidArtist();
    const fan = await registerFan(t);
    const payment = await payWithCard(fan, artist);
    await smtp.waitFor(fan.email, 1);
    const id = payment.subscription._id;
    await call(t.url, 'PUT', `/subscriptions/${id}/auto-renew`, { token: fan.token, body: { autoRenew: false } });
    const cancelled = (await smtp.waitFor(fan.email, 2))[1];
    expect(cancelled.parsed.subject).toBe('Your Nova Ricci membership will not renew');
    holds(cancelled, 'Your cancellation is confirmed', 'You keep access until');
    // The same answer again changes nothing and mails nothing.
    await call(t.url, 'PUT', `/subscriptions/${id}/auto-renew`, { token: fan.token, body: { autoRenew: false } });
    await call(t.url, 'PUT', `/subscriptions/${id}/auto-renew`, { token: fan.token, body: { autoRenew: true } });
    const resumed = (await smtp.waitFor(fan.email, 3))[2];
    expect(resumed.parsed.subject).toBe('Your Nova Ricci membership will renew');
    holds(resumed, 'Renewal is back on', '$49.99');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(smtp.to(fan.email)).toHaveLength(3);
  });

  it('welcome on joining a free club', async () => {
    const artist = await paidArtist(0);
    const fan = await registerFan(t);
    await call(t.url, 'POST', '/payment/subscribe/performers', { token: fan.token, body: { type: 'free', performerId: artist.id } });
    const [mail] = await smtp.waitFor(fan.email);
    expect(mail.parsed.subject).toBe('Welcome to Nova Ricci’s fan club');
    holds(mail, 'You are in', 'Membership is free', `https://fans.example/${artist.username}`);
  });

  it('password reset and password changed', async () => {
    const fan = await registerFan(t);
    await call(t.url, 'POST', '/auth/users/forgot', { body: { email: fan.email }, headers: { 'x-forwarded-for': clientAddress() } });
    const [reset] = await smtp.waitFor(fan.email);
    expect(reset.parsed.subject).toBe('Reset your Stagedoor password');
    const link = /https:\/\/fans\.example\/password\/reset\?token=[\w-]+/.exec(reset.parsed.text ?? '')![0];
    holds(reset, link, 'within one hour');
    const changed = await call(t.url, 'POST', '/auth/password-change', {
      query: { token: new URL(link).searchParams.get('token')! },
      body: { password: `${FAN_PASSWORD}x` },
    });
    expect(changed.status).toBe(200);
    const mail = (await smtp.waitFor(fan.email, 2))[1];
    expect(mail.parsed.subject).toBe('Your Stagedoor password was changed');
    holds(mail, 'was changed on', 'reset your password');
  });

  it('email changed goes to the old address (for PUT /users)', async () => {
    const fan = await registerFan(t);
    await queueMail(
      t.api.ctx.jobs,
      { kind: 'emailChanged', userId: fan.id, oldEmail: fan.email, newEmail: 'new@example.com', at: new Date().toISOString() },
      { key: `test:${fan.id}` },
    );
    const [mail] = await smtp.waitFor(fan.email);
    expect(mail.parsed.subject).toBe('The email address of your Stagedoor account was changed');
    holds(mail, 'new@example.com');
  });
});

describeEachDatabase('mail without SMTP', (database) => {
  let u: TestApi;
  beforeAll(async () => {
    u = await startTestApi({ database: database.name });
  });
  afterAll(() => u?.close());

  it('is written whole to DATA_DIR/outbox: headers, text and HTML', async () => {
    const artist = await registerFan(u, 'artist');
    await makeArtist(u, artist, { yearlyPriceCents: 0, name: 'Juniper Lane' });
    const fan = await registerFan(u);
    await call(u.url, 'POST', '/payment/subscribe/performers', { token: fan.token, body: { type: 'free', performerId: artist.id } });
    const mail = await waitForMail(u, fan.email);
    expect(mail).toMatchObject({
      from: 'Stagedoor <no-reply@stagedoor.fm>',
      subject: 'Welcome to Juniper Lane’s fan club',
      messageId: expect.stringMatching(/@stagedoor\.mail>$/),
    });
    expect(mail.text).toContain('Membership is free');
    expect(mail.html).toMatch(/^<!DOCTYPE html/);
  });
});
