import { afterAll, beforeAll, expect, it } from 'vitest';
import { acquireLock, writeAdminToken } from '../../api/db/lock';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { call, describeEachDatabase, makeArtist, registerFan, startTestApi, type TestApi, type TestUser } from '../helpers/api';
import { startSmtp, type TestSmtp } from '../helpers/notify';
import { runCliProcess } from '../helpers/process';

/**
 * A refund takes off exactly the time its payment paid for, with the test gateway over real HTTP and mail through a
 * real SMTP server: a fan with a card year and a gift's year stacked after it keeps the gift's year when the card
 * year is refunded (by the artist or from the CLI), and loses it when the gift is refunded; a partial refund and a
 * refund keeping access take nothing off; a refunded gift reads as refunded, never as paid.
 */

const YEAR = 365 * 24 * 3600 * 1000;
const CARD = { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' };

describeEachDatabase('refunds take off the time they paid for', (database) => {
  let t: TestApi;
  let smtp: TestSmtp;
  let artist: TestUser;
  let dataDir: string;
  let release: () => void;

  beforeAll(async () => {
    smtp = await startSmtp();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-refund-periods-'));
    const lock = acquireLock(dataDir, 'server');
    release = () => lock.release();
    t = await startTestApi({
      database: database.name,
      dataDir,
      adminToken: writeAdminToken(dataDir),
      env: { SMTP_URL: smtp.url, PUBLIC_WEB_URL: 'https://fans.example' },
    });
    lock.setApiUrl(t.url);
    artist = await registerFan(t, 'periods');
    await makeArtist(t, artist, { yearlyPriceCents: 2000, name: 'Period Band' });
  });
  afterAll(async () => {
    release?.();
    await t?.close();
    await smtp?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const card = async (fan: TestUser) =>
    (await call(t.url, 'POST', '/payment/test-gateway/cards', { token: fan.token, body: CARD })).body.data.id as string;
  async function join(fan: TestUser) {
    const paid = await call(t.url, 'POST', '/payment/subscribe/performers', {
      token: fan.token,
      body: { type: 'yearly', performerId: artist.id, paymentGateway: 'test', cardId: await card(fan) },
    });
    expect(paid.body.data.status, JSON.stringify(paid.body)).toBe('succeeded');
    return paid.body.data._id as string;
  }
  /** A year bought by someone else for the fan, and opened by the fan: answers the gift's payment and link. */
  async function giftTo(fan: TestUser) {
    const buyer = await registerFan(t, 'giver');
    const bought = await call(t.url, 'POST', '/gifts', {
      token: buyer.token,
      body: { performerId: artist.id, recipientEmail: fan.email, paymentGateway: 'test', cardId: await card(buyer) },
    });
    expect(bought.body.data.status, JSON.stringify(bought.body)).toBe('succeeded');
    const mails = await smtp.waitFor(fan.email, 2);
    const mail = mails.find((m) => (m.parsed.text ?? '').includes('/gift/'))!;
    const link = /https:\/\/fans\.example\/gift\/([\w-]+)/.exec(mail.parsed.text ?? '')![1];
    const opened = await call(t.url, 'POST', `/gifts/${link}/redeem`, { token: fan.token });
    expect(opened.body.data?.state, JSON.stringify(opened.body)).toBe('yours');
    return { paymentId: bought.body.data._id as string, link, buyer };
  }
  const membership = async (fan: TestUser) =>
    (await call(t.url, 'GET', `/subscriptions/performers/${artist.id}`, { token: fan.token })).body.data as {
      type: string;
      active: boolean;
      autoRenew: boolean;
      expiresAt: string;
      status: string;
    };
  const access = async (fan: TestUser) =>
    (await call(t.url, 'GET', `/performers/${artist.username}`, { token: fan.token })).body.data.isSubscribed as boolean;
  const refund = (paymentId: string, body: Record<string, unknown>) =>
    call(t.url, 'POST', `/payments/${paymentId}/refund`, { token: artist.token, body });
  const yearsFromNow = (at: string) => (Date.parse(at) - Date.now()) / YEAR;
  const paymentState = async (paymentId: string) => {
    const list = await call(t.url, 'GET', '/performers/me/payments?limit=100', { token: artist.token });
    return (list.body.data.data as { _id: string; state: string }[]).find((row) => row._id === paymentId)?.state;
  };

  it('a full refund of the card year leaves the gift’s year, which now starts today and never renews', async () => {
    const fan = await registerFan(t);
    const cardYear = await join(fan);
    const gift = await giftTo(fan);
    expect(yearsFromNow((await membership(fan)).expiresAt)).toBeCloseTo(2, 1);

    const answer = await refund(cardYear, { reason: 'Charged twice' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toMatchObject({ endedAccess: false, payment: { state: 'refunded' } });
    expect(await access(fan)).toBe(true);
    const after = await membership(fan);
    expect(after).toMatchObject({ type: 'gift', autoRenew: false, active: true });
    expect(yearsFromNow(after.expiresAt)).toBeCloseTo(1, 2);
    // The gift is still paid and still the fan's: money and access agree.
    expect(await paymentState(gift.paymentId)).toBe('paid');
    expect((await call(t.url, 'GET', `/gifts/${gift.link}`, { token: fan.token })).body.data.state).toBe('yours');
    const [mail] = (await smtp.waitFor(fan.email, 3)).filter((m) => m.parsed.subject?.includes('refunded'));
    expect(mail.parsed.text).toContain('Your membership carries on');

    // Refunding the gift afterwards takes its year off: nothing is left.
    const rest = await refund(gift.paymentId, { reason: 'Gift returned' });
    expect(rest.body.data).toMatchObject({ endedAccess: true, payment: { state: 'refunded' } });
    expect(await access(fan)).toBe(false);
  });

  it('a full refund of an opened gift that lengthened a card membership takes its year off, and the gift reads as refunded', async () => {
    const fan = await registerFan(t);
    const cardYear = await join(fan);
    const gift = await giftTo(fan);

    // A partial refund of the gift takes no time off.
    const part = await refund(gift.paymentId, { amount: '5', reason: 'Part of it' });
    expect(part.body.data).toMatchObject({ endedAccess: false, payment: { state: 'partially_refunded' } });
    expect(yearsFromNow((await membership(fan)).expiresAt)).toBeCloseTo(2, 1);

    const rest = await refund(gift.paymentId, { reason: 'Gift returned' });
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    // The card year runs on: the membership did not end, but a year came off it.
    expect(rest.body.data).toMatchObject({ endedAccess: false, payment: { state: 'refunded' } });
    const after = await membership(fan);
    expect(after).toMatchObject({ type: 'yearly', autoRenew: true, active: true });
    expect(yearsFromNow(after.expiresAt)).toBeCloseTo(1, 1);
    expect(await paymentState(gift.paymentId)).toBe('refunded');
    expect((await call(t.url, 'GET', `/gifts/${gift.link}`, { token: fan.token })).body.data.state).toBe('void');

    // Then the card year: nothing is left.
    const card = await refund(cardYear, { reason: 'Leaving' });
    expect(card.body.data).toMatchObject({ endedAccess: true });
    expect(await access(fan)).toBe(false);
  });

  it('a gift refunded in full keeping access leaves its year; the card year refunded then ends only its own part', async () => {
    const fan = await registerFan(t);
    const cardYear = await join(fan);
    const gift = await giftTo(fan);
    const kept = await refund(gift.paymentId, { reason: 'On the house', keepAccess: 'on' });
    expect(kept.body.data).toMatchObject({ endedAccess: false, payment: { state: 'refunded' } });
    expect(yearsFromNow((await membership(fan)).expiresAt)).toBeCloseTo(2, 1);
    // The gift's year was kept as a courtesy: refunding the card year still leaves it.
    await refund(cardYear, { reason: 'Leaving' });
    expect(await access(fan)).toBe(true);
    expect(yearsFromNow((await membership(fan)).expiresAt)).toBeCloseTo(1, 2);
  });

  it('the CLI refund follows the same rule: the fan’s card year goes, the gift’s year stays', async () => {
    const cli = (...args: string[]) => runCliProcess(['refund', ...args], { DATA_DIR: dataDir });
    const fan = await registerFan(t);
    await join(fan);
    const gift = await giftTo(fan);
    const run = await cli('--artist', artist.username, '--fan', fan.email, '--reason', 'Support refund');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('their membership carries on');
    expect(await access(fan)).toBe(true);
    expect(yearsFromNow((await membership(fan)).expiresAt)).toBeCloseTo(1, 2);
    // The buyer's latest payment is the gift: refunding it from the CLI takes the gift's year, the last one left.
    const buyer = await cli('--artist', artist.username, '--fan', gift.buyer.email);
    expect(buyer.code).toBe(0);
    expect(await access(fan)).toBe(false);
    expect(await paymentState(gift.paymentId)).toBe('refunded');
  }, 120_000);
});
