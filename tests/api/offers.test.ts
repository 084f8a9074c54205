import { afterAll, beforeAll, expect, it } from 'vitest';
import { giftMessages } from '#contract/gifts';
import { promoMessages } from '#contract/promo-schemas';
import { queues } from '../../api/jobs/queues';
import { PROMO_PAUSED } from '../../api/payments/promos';
import { call, describeEachDatabase, makeArtist, registerFan, startTestApi, type TestApi, type TestUser } from '../helpers/api';
import { startSmtp, type ReceivedMail, type TestSmtp } from '../helpers/notify';

/**
 * The artist's own offers and the ledger, with the test gateway over real HTTP and mail through a real SMTP server:
 * promo codes made, paused and expired by the artist; a free trial charged at its end by the renewals job on a clock
 * the test moves, with its reminder, and one cancelled; a gift bought, mailed, redeemed by a new account and never
 * renewed; the earnings figures against a ledger the test builds (a promo and a refund in it).
 */

const DAY = 24 * 3600 * 1000;
const CARD = { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' };

describeEachDatabase('offers and earnings', (database) => {
  let t: TestApi;
  let smtp: TestSmtp;
  let clock = Date.now();

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startTestApi({
      database: database.name,
      now: () => new Date(clock),
      env: { SMTP_URL: smtp.url, PUBLIC_WEB_URL: 'https://fans.example' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  async function artist(priceCents = 2000, name = 'Offer Band') {
    const user = await registerFan(t, 'offers');
    await makeArtist(t, user, { yearlyPriceCents: priceCents, name });
    return user;
  }
  async function card(fan: TestUser) {
    return (await call(t.url, 'POST', '/payment/test-gateway/cards', { token: fan.token, body: CARD })).body.data.id as string;
  }
  async function join(fan: TestUser, performer: TestUser, promo?: string) {
    return call(t.url, 'POST', '/payment/subscribe/performers', {
      token: fan.token,
      body: { type: 'yearly', performerId: performer.id, paymentGateway: 'test', cardId: await card(fan), promo },
    });
  }
  const access = async (fan: TestUser, performer: TestUser) =>
    (await call(t.url, 'GET', `/performers/${performer.username}`, { token: fan.token })).body.data.isSubscribed as boolean;
  const text = (mail: ReceivedMail) => mail.parsed.text ?? '';
  const sweep = async (at: number) => {
    clock = at;
    await t.api.ctx.jobs.send(queues.renewalsSweep, {});
  };
  async function settle(check: () => Promise<boolean>) {
    const deadline = Date.now() + 10_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('the job did not do it within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('promo codes: the artist makes, pauses, resumes and expires them; fans see why one cannot be used; redemptions listed', async () => {
    const band = await artist(2000);
    const make = (body: Record<string, unknown>) => call(t.url, 'POST', '/performers/me/promos', { token: band.token, body });
    const made = await make({ code: 'GIGNIGHT', discount: 'percent', value: '25', endsOn: '31/12/2099', maxUses: '2' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const [code] = made.body.data.data;
    expect(code).toMatchObject({
      code: 'GIGNIGHT',
      percentOff: 25,
      maxRedemptions: 2,
      state: 'active',
      expiresAt: '2100-01-01T00:00:00.000Z',
    });
    expect((await make({ code: 'gignight', discount: 'amount', value: '5' })).body.errors).toEqual({
      code: [promoMessages.taken('gignight')],
    });
    expect((await make({ code: 'X', discount: 'percent', value: '150', endsOn: '31/02/2030', maxUses: '0' })).body.errors).toEqual({
      code: [promoMessages.code],
      value: [promoMessages.percent],
      endsOn: [promoMessages.endsOn],
      maxUses: [promoMessages.maxUses],
    });
    expect((await make({ code: 'OLDCODE', discount: 'amount', value: '5', endsOn: '01/01/2020' })).body.errors).toEqual({
      endsOn: [promoMessages.endsInPast],
    });

    const fan = await registerFan(t);
    const act = (action: string) => call(t.url, 'POST', `/performers/me/promos/${code._id}`, { token: band.token, body: { action } });
    expect((await act('pause')).body.data.data[0].state).toBe('paused');
    const refused = await join(fan, band, 'GIGNIGHT');
    expect(refused.body.errors).toEqual({ promo: [PROMO_PAUSED] });
    expect((await act('resume')).body.data.data[0].state).toBe('active');
    const paid = await join(fan, band, 'gignight');
    expect(paid.body.data).toMatchObject({ status: 'succeeded', amount: 15, promo: 'GIGNIGHT' });
    const listed = (await call(t.url, 'GET', '/performers/me/promos', { token: band.token })).body.data;
    expect(listed.data[0]).toMatchObject({ timesRedeemed: 1, redemptions: [{ fan: { username: fan.username }, amount: 15 }] });
    expect((await act('expire')).body.data.data[0].state).toBe('expired');
    expect((await join(await registerFan(t), band, 'GIGNIGHT')).body.errors?.promo).toEqual(['This promo code has expired.']);
    // Another artist cannot touch it.
    const other = await artist();
    expect(
      (await call(t.url, 'POST', `/performers/me/promos/${code._id}`, { token: other.token, body: { action: 'resume' } })).status,
    ).toBe(404);
  });

  it('a free trial: card taken, nothing charged; reminded 3 days before; charged at its end by the job (with the promo)', async () => {
    const band = await artist(3000, 'Trial Band');
    await t.db.query('UPDATE artist_profiles SET trial_days = 14 WHERE user_id = $1', [band.id]);
    await t.db.query(`INSERT INTO promo_codes (artist_id, code, percent_off) VALUES ($1, 'HALF', 50)`, [band.id]);
    const fan = await registerFan(t);
    expect((await call(t.url, 'GET', `/payment/trial/${band.id}`, { token: fan.token })).body.data).toEqual({ trialDays: 14 });
    const started = await join(fan, band, 'HALF');
    expect(started.body.data).toMatchObject({ status: 'succeeded', kind: 'trial', amount: 0, subscription: { active: true } });
    const trialEnd = Date.parse(started.body.data.subscription.trialEndsAt);
    expect(Math.round((trialEnd - Date.now()) / DAY)).toBe(14);
    const [welcome] = await smtp.waitFor(fan.email, 1);
    expect(welcome.parsed.subject).toBe('Your free trial of Trial Band’s fan club has started');
    expect(text(welcome)).toContain('$15.00');
    // One trial per fan and club.
    expect((await call(t.url, 'GET', `/payment/trial/${band.id}`, { token: fan.token })).body.data).toEqual({ trialDays: 0 });

    await sweep(trialEnd - 5 * DAY);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(smtp.to(fan.email)).toHaveLength(1);
    await sweep(trialEnd - 2.5 * DAY);
    const [, reminder] = await smtp.waitFor(fan.email, 2);
    expect(reminder.parsed.subject).toMatch(/^Your free trial of Trial Band’s fan club ends on /);
    expect(text(reminder)).toContain('$15.00');

    // Nothing charged before the end; at the end, the first year after the promo, a receipt, a year of access.
    const charges = async () =>
      t.db.query<{ kind: string; amount: number; status: string; fee: number }>(
        `SELECT kind, amount_cents AS amount, status, fee_cents AS fee FROM payments WHERE user_id = $1 ORDER BY created_at`,
        [fan.id],
      );
    expect(await charges()).toEqual([{ kind: 'trial', amount: 0, status: 'succeeded', fee: 0 }]);
    await sweep(trialEnd + 60_000);
    await settle(async () => (await charges()).length === 2);
    expect((await charges())[1]).toEqual({ kind: 'subscribe', amount: 1500, status: 'succeeded', fee: 150 });
    const [, , receipt] = await smtp.waitFor(fan.email, 3);
    expect(receipt.parsed.subject).toBe('Your receipt for Trial Band’s fan club');
    const after = (await call(t.url, 'GET', `/subscriptions/performers/${band.id}`, { token: fan.token })).body.data;
    expect(after.trialEndsAt).toBeNull();
    expect(Date.parse(after.expiresAt)).toBe(trialEnd + 365 * DAY);
    await sweep(trialEnd + 2 * 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await charges()).toHaveLength(2);
  });

  it('a trial cancelled during it ends with it: nothing is charged', async () => {
    const band = await artist(3000, 'Cancel Band');
    await t.db.query('UPDATE artist_profiles SET trial_days = 7 WHERE user_id = $1', [band.id]);
    const fan = await registerFan(t);
    const started = await join(fan, band);
    const trialEnd = Date.parse(started.body.data.subscription.trialEndsAt);
    const cancelled = await call(t.url, 'PUT', `/subscriptions/${started.body.data.subscription._id}/auto-renew`, {
      token: fan.token,
      body: { autoRenew: false },
    });
    expect(cancelled.status).toBe(200);
    await sweep(trialEnd - 2 * DAY);
    await sweep(trialEnd + 60_000);
    await settle(async () => {
      const [row] = await t.db.query<{ trial: Date | null }>('SELECT trial_ends_at AS trial FROM subscriptions WHERE user_id = $1', [
        fan.id,
      ]);
      return row.trial === null;
    });
    const paid = await t.db.query(`SELECT 1 FROM payments WHERE user_id = $1 AND kind = 'subscribe'`, [fan.id]);
    expect(paid).toHaveLength(0);
    // Its access ran until the trial's end: once the real clock passes it, it is over (moved here by hand).
    await t.db.query(`UPDATE subscriptions SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [fan.id]);
    expect(await access(fan, band)).toBe(false);
    // No reminder for a cancelled trial; only the trial's own mail and the cancellation's.
    const subjects = smtp.to(fan.email).map((mail) => mail.parsed.subject);
    expect(subjects.some((subject) => subject?.includes('ends on'))).toBe(false);
  });

  it('a gift: bought for an email, mailed with a link, opened by a new account, a year that never renews', async () => {
    const band = await artist(2500, 'Gift Band');
    const buyer = await registerFan(t);
    const recipient = `friend${Date.now()}@example.com`;
    const bought = await call(t.url, 'POST', '/gifts', {
      token: buyer.token,
      body: {
        performerId: band.id,
        recipientEmail: recipient,
        message: 'Happy birthday!',
        paymentGateway: 'test',
        cardId: await card(buyer),
      },
      headers: { 'idempotency-key': `gift-${buyer.username}` },
    });
    expect(bought.body.data, JSON.stringify(bought.body)).toMatchObject({
      kind: 'gift',
      status: 'succeeded',
      amount: 25,
      subscription: null,
    });
    // The buyer bought no membership.
    expect(await access(buyer, band)).toBe(false);
    const [receipt] = await smtp.waitFor(buyer.email, 1);
    expect(receipt.parsed.subject).toBe(`Your receipt: a year of Gift Band’s fan club for ${recipient}`);
    const [mail] = await smtp.waitFor(recipient, 1);
    expect(mail.parsed.subject).toBe(`${buyer.username} gave you a year of Gift Band’s fan club`);
    expect(text(mail)).toContain('Happy birthday!');
    const link = /https:\/\/fans\.example\/gift\/([\w-]+)/.exec(text(mail))![1];
    const [{ stored }] = await t.db.query<{ stored: string | null }>('SELECT link_token AS stored FROM gifts WHERE payment_id = $1', [
      bought.body.data._id,
    ]);
    expect(stored).toBeNull();

    // The link works without an account: what it is, who from.
    const seen = await call(t.url, 'GET', `/gifts/${link}`);
    expect(seen.body.data).toMatchObject({
      from: buyer.username,
      state: 'ready',
      recipientEmail: recipient,
      artist: { username: band.username },
    });
    expect((await call(t.url, 'GET', '/gifts/not-a-real-token-0000000000')).status).toBe(404);

    // A new account opens it: a year, type gift, no renewal.
    const friend = await registerFan(t, 'friend');
    const opened = await call(t.url, 'POST', `/gifts/${link}/redeem`, { token: friend.token });
    expect(opened.body.data.state).toBe('yours');
    expect(await access(friend, band)).toBe(true);
    const membership = (await call(t.url, 'GET', `/subscriptions/performers/${band.id}`, { token: friend.token })).body.data;
    expect(membership).toMatchObject({ type: 'gift', autoRenew: false, pricePaid: 0 });
    const nextYear = new Date();
    nextYear.setUTCFullYear(nextYear.getUTCFullYear() + 1);
    expect(Math.abs(Date.parse(membership.expiresAt) - nextYear.getTime())).toBeLessThan(60_000);
    // Someone else with the link cannot open it again; the same fan opening it twice is the same gift.
    const late = await registerFan(t);
    expect((await call(t.url, 'POST', `/gifts/${link}/redeem`, { token: late.token })).body.message).toBe(giftMessages.redeemed);
    expect((await call(t.url, 'POST', `/gifts/${link}/redeem`, { token: friend.token })).status).toBe(200);

    // At the end of the year nothing renews it: the sweep charges no one and the membership ends.
    await sweep(Date.parse(membership.expiresAt) - 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const [row] = await t.db.query<{ expiresAt: Date; autoRenew: boolean }>(
      'SELECT expires_at AS "expiresAt", auto_renew AS "autoRenew" FROM subscriptions WHERE user_id = $1',
      [friend.id],
    );
    expect(new Date(row.expiresAt).toISOString()).toBe(membership.expiresAt);
    expect(row.autoRenew).toBe(false);
    expect(await t.db.query(`SELECT 1 FROM payments WHERE user_id = $1`, [friend.id])).toHaveLength(0);

    // A gift refunded before it is opened can no longer be opened.
    const second = await call(t.url, 'POST', '/gifts', {
      token: buyer.token,
      body: { performerId: band.id, recipientEmail: `other${recipient}`, paymentGateway: 'test', cardId: await card(buyer) },
    });
    const [otherMail] = await smtp.waitFor(`other${recipient}`, 1);
    const otherLink = /https:\/\/fans\.example\/gift\/([\w-]+)/.exec(text(otherMail))![1];
    await call(t.url, 'POST', `/payments/${second.body.data._id}/refund`, { token: band.token, body: { reason: 'Bought by mistake' } });
    expect((await call(t.url, 'GET', `/gifts/${otherLink}`)).body.data.state).toBe('void');
    expect((await call(t.url, 'POST', `/gifts/${otherLink}/redeem`, { token: late.token })).body.message).toBe(giftMessages.void);
    // A free club or one's own cannot be given.
    const free = await artist(0);
    const refused = await call(t.url, 'POST', '/gifts', {
      token: buyer.token,
      body: { performerId: free.id, recipientEmail: recipient, paymentGateway: 'test', cardId: await card(buyer) },
    });
    expect(refused.body.message).toBe(giftMessages.freeClub);
  });

  it('the earnings figures follow a ledger the test builds: months, members joined and left, churn, gross, refunds, fees, net', async () => {
    const band = await artist(2000, 'Ledger Band');
    await t.db.query(`INSERT INTO promo_codes (artist_id, code, percent_off) VALUES ($1, 'TENOFF', 10)`, [band.id]);
    const fans = [await registerFan(t), await registerFan(t), await registerFan(t), await registerFan(t)];
    const payments: string[] = [];
    for (const [index, fan] of fans.entries()) payments.push((await join(fan, band, index === 1 ? 'TENOFF' : undefined)).body.data._id);
    // Two of them paid last month; the first of those left this month (its year was cut short by hand).
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 10));
    for (const id of payments.slice(0, 2)) {
      await t.db.query('UPDATE payments SET created_at = $2 WHERE id = $1', [id, lastMonth]);
      await t.db.query('UPDATE subscriptions SET started_at = $2 WHERE id = (SELECT subscription_id FROM payments WHERE id = $1)', [
        id,
        lastMonth,
      ]);
    }
    await t.db.query(
      `UPDATE subscriptions SET status = 'canceled', expires_at = now() - interval '1 minute' WHERE id = (SELECT subscription_id FROM payments WHERE id = $1)`,
      [payments[0]],
    );
    // This month, £5 of the fourth payment is refunded.
    await call(t.url, 'POST', `/payments/${payments[3]}/refund`, { token: band.token, body: { amount: '5', reason: 'Late' } });

    const earnings = (await call(t.url, 'GET', '/performers/me/earnings', { token: band.token })).body.data;
    expect(earnings).toMatchObject({ currency: 'usd', feePercent: 10, membersNow: 3 });
    expect(earnings.months).toHaveLength(12);
    const key = (date: Date) => date.toISOString().slice(0, 7);
    const [previous, current] = earnings.months.slice(-2);
    // Last month: £20 + £18 (10% off) = £38 gross, fees £3.80, net £34.20; both joined; none at its start.
    expect(previous).toEqual({ month: key(lastMonth), joined: 2, left: 0, churn: null, gross: 38, refunds: 0, fees: 3.8, net: 34.2 });
    // This month: £40 gross, £5 refunded, fees £4.00 less the £0.50 given back, net £31.50; one of two left: 50%.
    expect(current).toEqual({ month: key(now), joined: 2, left: 1, churn: 50, gross: 40, refunds: 5, fees: 3.5, net: 31.5 });
    expect(earnings.totals).toEqual({ gross: 78, refunds: 5, fees: 7.3, net: 65.7 });
    const list = (await call(t.url, 'GET', '/performers/me/payments', { token: band.token, query: { limit: 10 } })).body.data;
    expect(list.total).toBe(4);
    expect(list.data.find((p: { promo: string | null }) => p.promo === 'TENOFF')).toMatchObject({ amount: 18, fee: 1.8, state: 'paid' });
    expect(list.data.find((p: { _id: string }) => p._id === payments[3])).toMatchObject({
      amount: 20,
      refunded: 5,
      refundable: 15,
      fee: 1.5,
      state: 'partially_refunded',
      payout: 'held',
    });

    // The membership figures are kept between reads (the read cache): a fan who joins now shows at once.
    await join(await registerFan(t), band);
    const after = (await call(t.url, 'GET', '/performers/me/earnings', { token: band.token })).body.data;
    expect(after.membersNow).toBe(4);
    expect(after.months.at(-1)).toMatchObject({ joined: 3, left: 1, gross: 60 });
    const subscribers = (await call(t.url, 'GET', '/performers/me/subscribers', { token: band.token, query: { limit: 2 } })).body.data;
    expect(subscribers.total).toBe(4);
    expect(subscribers.data).toHaveLength(2);
  });
});
