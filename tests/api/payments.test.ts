import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPromo } from '../../api/payments/promos';
import { PROMO_EXPIRED, PROMO_UNKNOWN, PROMO_USED_UP } from '../../api/payments/promos';
import { TOO_MANY } from '../../api/auth/rate-limits';
import { renewDueSubscriptions } from '../../api/payments/renewals';
import { expirePendingPayments } from '../../api/payments/service';
import { createTestGateway, NOT_A_TEST_CARD, EXPIRED_MESSAGE } from '../../api/payments/test-gateway';
import { FAILURE_MESSAGES } from '../../api/payments/gateway';
import {
  call,
  clientAddress,
  describeEachDatabase,
  makeArtist,
  registerFan,
  startTestApi,
  type TestApi,
  type TestUser,
} from '../helpers/api';

/**
 * Subscribing through POST /payment/subscribe/performers with the test gateway (the default without Stripe keys):
 * free clubs, each test card, 3-D Secure approval, promo codes, idempotency and renewals, over real HTTP.
 */

const CARDS = {
  success: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  authenticate: '4000 0027 6000 3184',
  expired: '4000 0000 0000 0069',
  insufficient: '4000 0000 0000 9995',
};

/** The promo code limits of docs/security.md: tries per fan and per address in 15 minutes. */
const PROMO_TRIES_PER_FAN = 20;
const PROMO_TRIES_PER_ADDRESS = 60;

describeEachDatabase('payments with the test gateway', (database) => {
  let t: TestApi;
  let paid: TestUser;
  let other: TestUser;
  let free: TestUser;

  beforeAll(async () => {
    t = await startTestApi({ database: database.name, env: { PUBLIC_WEB_URL: 'http://web.test' } });
    paid = await registerFan(t, 'paidartist');
    await makeArtist(t, paid, { yearlyPriceCents: 4999, name: 'Paid Artist' });
    other = await registerFan(t, 'otherartist');
    await makeArtist(t, other, { yearlyPriceCents: 2000, name: 'Other Artist' });
    free = await registerFan(t, 'freeartist');
    await makeArtist(t, free, { yearlyPriceCents: 0, name: 'Free Artist' });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function card(fan: TestUser, number: string, expiry = { expMonth: 12, expYear: new Date().getFullYear() + 2 }) {
    const answer = await call(t.url, 'POST', '/payment/test-gateway/cards', { token: fan.token, body: { number, ...expiry, cvc: '123' } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data.id as string;
  }

  function pay(fan: TestUser, body: Record<string, unknown>, key?: string) {
    return call(t.url, 'POST', '/payment/subscribe/performers', {
      token: fan.token,
      body: { type: 'yearly', performerId: paid.id, paymentGateway: 'test', ...body },
      headers: key ? { 'idempotency-key': key } : {},
    });
  }

  async function subscribed(fan: TestUser, artist: TestUser) {
    const answer = await call(t.url, 'GET', `/performers/${artist.username}`, { token: fan.token });
    return answer.body.data.isSubscribed as boolean;
  }

  const count = async (sql: string, params: unknown[]) => (await t.db.query<{ n: number }>(sql, params))[0].n;

  /** GET /payment/promo-codes/check as a signed-in fan, from an address of its own unless given one. */
  const checkPromo = (fan: TestUser | undefined, performerId: string, code: string, address = clientAddress()) =>
    call(t.url, 'GET', '/payment/promo-codes/check', {
      token: fan?.token,
      query: { performerId, code },
      headers: { 'x-forwarded-for': address },
    });

  it('says which gateway is in use', async () => {
    const answer = await call(t.url, 'GET', '/payment/gateway');
    expect(answer.body.data).toEqual({ paymentGateway: 'test', publishableKey: null });
  });

  it('a free artist: type free subscribes at once, twice is still one subscription, and a paid club refuses it', async () => {
    const fan = await registerFan(t);
    const first = await call(t.url, 'POST', '/payment/subscribe/performers', {
      token: fan.token,
      body: { type: 'free', performerId: free.id },
    });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      status: 'succeeded',
      amount: 0,
      subscription: { type: 'free', active: true, autoRenew: true, pricePaid: 0 },
    });
    expect(await subscribed(fan, free)).toBe(true);
    const again = await call(t.url, 'POST', '/payment/subscribe/performers', {
      token: fan.token,
      body: { type: 'free', performerId: free.id },
    });
    expect(again.body.data.subscription._id).toBe(first.body.data.subscription._id);
    expect(await count('SELECT count(*)::int AS n FROM subscriptions WHERE user_id = $1', [fan.id])).toBe(1);

    const refused = await call(t.url, 'POST', '/payment/subscribe/performers', {
      token: fan.token,
      body: { type: 'free', performerId: paid.id },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors!.type).toBeDefined();
    expect(await subscribed(fan, paid)).toBe(false);
  });

  it('4242 4242 4242 4242 succeeds: a year of access at the artist’s price, listed in the fan’s subscriptions', async () => {
    const fan = await registerFan(t);
    const answer = await pay(fan, { cardId: await card(fan, CARDS.success) });
    expect(answer.status).toBe(200);
    const payment = answer.body.data;
    expect(payment).toMatchObject({
      status: 'succeeded',
      amount: 49.99,
      listPrice: 49.99,
      currency: 'usd',
      nextAction: null,
      failure: null,
    });
    // The same day next year, whatever the time of day (365.25 days was the next day after 18:00 UTC).
    const nextYear = new Date();
    nextYear.setUTCFullYear(nextYear.getUTCFullYear() + 1);
    expect(Math.abs(Date.parse(payment.subscription.expiresAt) - nextYear.getTime())).toBeLessThan(60_000);
    expect(await subscribed(fan, paid)).toBe(true);
    const list = await call(t.url, 'GET', '/subscriptions/user/search', { token: fan.token, query: { limit: Number.MAX_SAFE_INTEGER } });
    expect(list.body.data.data.map((s: { performerInfo: { _id: string } }) => s.performerInfo._id)).toEqual([paid.id]);
    // The card number itself is never stored.
    const cards = await t.db.query<{ last4: string }>('SELECT last4 FROM test_gateway_cards WHERE user_id = $1', [fan.id]);
    expect(cards).toEqual([{ last4: '4242' }]);
    // A second payment for the same club is refused: nothing is charged twice.
    const second = await pay(fan, { cardId: await card(fan, CARDS.success) });
    expect(second.status).toBe(409);
    expect(await count('SELECT count(*)::int AS n FROM payments WHERE user_id = $1', [fan.id])).toBe(1);
  });

  it('declined, insufficient funds and expired cards fail with their reason, and create no subscription', async () => {
    const fan = await registerFan(t);
    for (const [number, reason] of [
      [CARDS.declined, 'card_declined'],
      [CARDS.insufficient, 'insufficient_funds'],
      [CARDS.expired, 'expired_card'],
    ] as const) {
      const answer = await pay(fan, { cardId: await card(fan, number) });
      expect(answer.status).toBe(200);
      expect(answer.body.data).toMatchObject({
        status: 'failed',
        failure: { reason, message: FAILURE_MESSAGES[reason] },
        subscription: null,
      });
    }
    expect(await subscribed(fan, paid)).toBe(false);
    expect(await count('SELECT count(*)::int AS n FROM subscriptions WHERE user_id = $1', [fan.id])).toBe(0);
    // After the failures the fan can still pay with a good card.
    const ok = await pay(fan, { cardId: await card(fan, CARDS.success) });
    expect(ok.body.data.status).toBe('succeeded');
  });

  it('card input is checked before any payment: expiry in the past, a real card number, a mistyped number', async () => {
    const fan = await registerFan(t);
    const past = await call(t.url, 'POST', '/payment/test-gateway/cards', {
      token: fan.token,
      body: { number: CARDS.success, expMonth: 1, expYear: 20, cvc: '123' },
    });
    expect(past.status).toBe(400);
    expect(past.body.errors!.expMonth).toEqual([EXPIRED_MESSAGE]);
    const real = await call(t.url, 'POST', '/payment/test-gateway/cards', {
      token: fan.token,
      body: { number: '4111 1111 1111 1111', expMonth: 12, expYear: 2040, cvc: '123' },
    });
    expect(real.status).toBe(400);
    expect(real.body.errors!.number).toEqual([NOT_A_TEST_CARD]);
    const typo = await call(t.url, 'POST', '/payment/test-gateway/cards', {
      token: fan.token,
      body: { number: '4242 4242 4242 4241', expMonth: 12, expYear: 2040, cvc: '12' },
    });
    expect(typo.status).toBe(400);
    expect(Object.keys(typo.body.errors!).sort()).toEqual(['cvc', 'number']);
    // Another fan's card token cannot be used.
    const stranger = await registerFan(t);
    const stolen = await pay(stranger, { cardId: await card(fan, CARDS.success) });
    expect(stolen.status).toBe(400);
    expect(stolen.body.errors!.cardId).toBeDefined();
    expect(await count('SELECT count(*)::int AS n FROM payments WHERE user_id = $1', [stranger.id])).toBe(0);
  });

  it('4000 0027 6000 3184 requires authentication: the approval page, then confirm completes it', async () => {
    const fan = await registerFan(t);
    const answer = await pay(fan, { cardId: await card(fan, CARDS.authenticate) });
    const payment = answer.body.data;
    expect(payment.status).toBe('requires_action');
    expect(payment.nextAction.type).toBe('redirect');
    expect(await subscribed(fan, paid)).toBe(false);

    // Confirming before the fan answered changes nothing.
    const early = await call(t.url, 'POST', `/payment/${payment._id}/confirm`, { token: fan.token });
    expect(early.body.data.status).toBe('requires_action');

    const url = new URL(payment.nextAction.url);
    const page = await fetch(new URL(url.pathname + url.search, t.url));
    const html = await page.text();
    expect(html).toContain('Test payment');
    expect(html).toContain('Nothing is charged');
    expect(html).toContain('$49.99');
    // A wrong secret does not open it.
    expect((await fetch(new URL(url.pathname + '?secret=nope', t.url))).status).toBe(404);

    const approve = await fetch(new URL(url.pathname, t.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret: url.searchParams.get('secret')!, decision: 'approve' }),
      redirect: 'manual',
    });
    expect(approve.status).toBe(303);
    expect(approve.headers.get('location')).toBe(`http://web.test/${paid.username}/subscribe/confirm?payment=${payment._id}`);

    // Another fan cannot confirm it.
    const stranger = await registerFan(t);
    expect((await call(t.url, 'POST', `/payment/${payment._id}/confirm`, { token: stranger.token })).status).toBe(404);

    const confirmed = await call(t.url, 'POST', `/payment/${payment._id}/confirm`, { token: fan.token });
    expect(confirmed.body.data).toMatchObject({ status: 'succeeded', subscription: { active: true } });
    expect(await subscribed(fan, paid)).toBe(true);
    // Confirming again answers the same, once.
    const again = await call(t.url, 'POST', `/payment/${payment._id}/confirm`, { token: fan.token });
    expect(again.body.data.status).toBe('succeeded');
    expect(await count('SELECT count(*)::int AS n FROM subscriptions WHERE user_id = $1', [fan.id])).toBe(1);
  });

  it('the approval page runs no script and cannot be framed: a CSP of its own, X-Frame-Options DENY', async () => {
    const fan = await registerFan(t);
    const payment = (await pay(fan, { cardId: await card(fan, CARDS.authenticate) })).body.data;
    const url = new URL(payment.nextAction.url);
    const page = await fetch(new URL(url.pathname + url.search, t.url));
    expect(page.status).toBe(200);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const policy = page.headers.get('content-security-policy') ?? '';
    const directives = Object.fromEntries(policy.split(';').map((d) => [d.trim().split(/\s+/)[0], d.trim().split(/\s+/).slice(1)]));
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['script-src']).toBeUndefined();
    // Its forms post to itself, which sends the fan back to the web's confirm page.
    expect(directives['form-action']).toEqual(["'self'", 'http://web.test']);
    // The address holds the page's secret: it goes to no one as a Referer.
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('failing authentication fails the payment with authentication_failed', async () => {
    const fan = await registerFan(t);
    const payment = (await pay(fan, { cardId: await card(fan, CARDS.authenticate) })).body.data;
    const url = new URL(payment.nextAction.url);
    await fetch(new URL(url.pathname, t.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret: url.searchParams.get('secret')!, decision: 'fail' }),
      redirect: 'manual',
    });
    const confirmed = await call(t.url, 'POST', `/payment/${payment._id}/confirm`, { token: fan.token });
    expect(confirmed.body.data).toMatchObject({ status: 'failed', failure: { reason: 'authentication_failed' } });
    expect(await subscribed(fan, paid)).toBe(false);
  });

  it('a payment waiting for authentication is called off when its fan starts another for the club', async () => {
    const fan = await registerFan(t);
    const waiting = (await pay(fan, { cardId: await card(fan, CARDS.authenticate) })).body.data;
    expect((await pay(fan, { cardId: await card(fan, CARDS.success) })).body.data.status).toBe('succeeded');
    // Approving the first one now charges nothing more.
    const url = new URL(waiting.nextAction.url);
    const page = await (await fetch(new URL(url.pathname + url.search, t.url))).text();
    expect(page).toContain('already been answered');
    const confirmed = await call(t.url, 'POST', `/payment/${waiting._id}/confirm`, { token: fan.token });
    expect(confirmed.body.data).toMatchObject({ status: 'failed', failure: { reason: 'expired' } });
    expect(await count(`SELECT count(*)::int AS n FROM payments WHERE user_id = $1 AND status = 'succeeded'`, [fan.id])).toBe(1);
  });

  it('a payment left processing by a crash does not block the fan for ever', async () => {
    const fan = await registerFan(t);
    await t.db.query(
      `INSERT INTO payments (user_id, artist_id, gateway, status, amount_cents, list_price_cents, updated_at)
       VALUES ($1, $2, 'test', 'processing', 4999, 4999, now() - interval '1 hour')`,
      [fan.id, paid.id],
    );
    expect((await pay(fan, { cardId: await card(fan, CARDS.success) })).body.data.status).toBe('succeeded');
    expect(await count(`SELECT count(*)::int AS n FROM payments WHERE user_id = $1 AND status = 'failed'`, [fan.id])).toBe(1);
  });

  it('promo codes: percent and amount off, expired, used up, unknown (another artist’s reads as unknown)', async () => {
    await createPromo(t.db, { artist: paid.username, code: 'HALF', percentOff: 50 });
    await createPromo(t.db, { artist: paid.username, code: 'TENOFF', amountOff: 1000 });
    await createPromo(t.db, { artist: paid.username, code: 'OLD', percentOff: 10, expiresAt: new Date(Date.now() - 1000) });
    await createPromo(t.db, { artist: paid.username, code: 'ONCE', percentOff: 20, maxRedemptions: 1 });
    await createPromo(t.db, { artist: other.username, code: 'OTHERS', percentOff: 20 });

    const checker = await registerFan(t);
    const check = await checkPromo(checker, paid.id, 'half');
    expect(check.body.data).toMatchObject({ code: 'HALF', percentOff: 50, price: 49.99, discountedPrice: 24.99 });

    const half = await registerFan(t);
    expect((await pay(half, { cardId: await card(half, CARDS.success), promo: 'half' })).body.data).toMatchObject({
      status: 'succeeded',
      amount: 24.99,
      listPrice: 49.99,
      promo: 'HALF',
      subscription: { pricePaid: 24.99 },
    });
    const ten = await registerFan(t);
    expect((await pay(ten, { cardId: await card(ten, CARDS.success), promo: 'TENOFF' })).body.data).toMatchObject({ amount: 39.99 });

    const fan = await registerFan(t);
    const cardId = await card(fan, CARDS.success);
    for (const [code, message] of [
      ['OLD', PROMO_EXPIRED],
      ['OTHERS', PROMO_UNKNOWN],
      ['NOPE', PROMO_UNKNOWN],
    ]) {
      const answer = await pay(fan, { cardId, promo: code });
      expect(answer.status, code).toBe(400);
      expect(answer.body.errors!.promo).toEqual([message]);
    }
    expect(await count('SELECT count(*)::int AS n FROM payments WHERE user_id = $1', [fan.id])).toBe(0);

    // A declined payment gives its redemption back; the one success uses it up.
    const declined = await registerFan(t);
    expect((await pay(declined, { cardId: await card(declined, CARDS.declined), promo: 'ONCE' })).body.data.status).toBe('failed');
    const first = await registerFan(t);
    expect((await pay(first, { cardId: await card(first, CARDS.success), promo: 'ONCE' })).body.data).toMatchObject({ amount: 39.99 });
    const second = await registerFan(t);
    const usedUp = await pay(second, { cardId: await card(second, CARDS.success), promo: 'ONCE' });
    expect(usedUp.status).toBe(400);
    expect(usedUp.body.errors!.promo).toEqual([PROMO_USED_UP]);
    expect((await checkPromo(checker, paid.id, 'ONCE')).body.errors!.promo).toEqual([PROMO_USED_UP]);
  });

  it('the promo check needs a log-in, is limited per fan and per address, and says nothing of other artists’ codes', async () => {
    await createPromo(t.db, { artist: other.username, code: 'ELSEWHERE', percentOff: 10 });
    const fan = await registerFan(t);
    expect((await checkPromo(undefined, paid.id, 'ELSEWHERE')).status).toBe(401);

    // Another artist's code answers exactly as a code that exists nowhere.
    const elsewhere = await checkPromo(fan, paid.id, 'ELSEWHERE');
    const nowhere = await checkPromo(fan, paid.id, 'NOWHERE');
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toEqual(nowhere.body);
    expect((await pay(fan, { cardId: await card(fan, CARDS.success), promo: 'ELSEWHERE' })).body).toEqual(
      (await pay(fan, { cardId: await card(fan, CARDS.success), promo: 'NOWHERE' })).body,
    );

    // Per fan, from any address: 20 tries (the two checks and the two payments with a code above count), then 429,
    // at the check and at a payment naming a code.
    for (let attempt = 5; attempt <= PROMO_TRIES_PER_FAN; attempt++)
      expect((await checkPromo(fan, paid.id, `GUESS${attempt}`)).status, `try ${attempt}`).toBe(400);
    const limited = await checkPromo(fan, paid.id, 'GUESSMORE');
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe(TOO_MANY);
    expect((await pay(fan, { cardId: await card(fan, CARDS.success), promo: 'GUESSMORE' })).status).toBe(429);

    // Per address, whichever fans: 60 tries.
    const address = clientAddress();
    const fans = await Promise.all([registerFan(t), registerFan(t), registerFan(t), registerFan(t)]);
    for (let attempt = 1; attempt <= PROMO_TRIES_PER_ADDRESS; attempt++) {
      const answer = await checkPromo(fans[attempt % 3], paid.id, `SPRAY${attempt}`, address);
      expect(answer.status, `try ${attempt}`).toBe(400);
    }
    expect((await checkPromo(fans[3], paid.id, 'SPRAYMORE', address)).status).toBe(429);
    expect((await checkPromo(fans[3], paid.id, 'SPRAYMORE')).status).toBe(400);
  });

  it('a payment left waiting for 3-D Secure gives its promo code back: at once when its fan pays again, else after 30 minutes', async () => {
    await createPromo(t.db, { artist: paid.username, code: 'TWICE', percentOff: 10, maxRedemptions: 2 });
    const payment = async (fan: TestUser, id: string) => (await call(t.url, 'GET', `/payment/${id}`, { token: fan.token })).body.data;

    // One fan starts two payments with the code and abandons both on the bank's page.
    const abandoner = await registerFan(t);
    const authenticating = await card(abandoner, CARDS.authenticate);
    const first = (await pay(abandoner, { cardId: authenticating, promo: 'TWICE' })).body.data;
    const second = (await pay(abandoner, { cardId: authenticating, promo: 'TWICE' })).body.data;
    expect([first.status, second.status]).toEqual(['requires_action', 'requires_action']);
    expect(await payment(abandoner, first._id)).toMatchObject({
      status: 'failed',
      failure: { reason: 'expired', message: FAILURE_MESSAGES.expired },
    });
    // Its approval page no longer approves anything.
    const approval = new URL(first.nextAction.url);
    expect(await (await fetch(new URL(approval.pathname + approval.search, t.url))).text()).not.toContain('Approve payment');

    // So the code still has a redemption for another fan; the second abandoned payment holds the other.
    const other = await registerFan(t);
    expect((await pay(other, { cardId: await card(other, CARDS.success), promo: 'TWICE' })).body.data).toMatchObject({
      status: 'succeeded',
      promo: 'TWICE',
    });
    const tooLate = await registerFan(t);
    const usedUp = await pay(tooLate, { cardId: await card(tooLate, CARDS.success), promo: 'TWICE' });
    expect(usedUp.body.errors!.promo).toEqual([PROMO_USED_UP]);

    // Half an hour without a step, the second expires too and its redemption is free again.
    await t.db.query(`UPDATE payments SET updated_at = now() - interval '31 minutes' WHERE id = $1`, [second._id]);
    expect((await pay(tooLate, { cardId: await card(tooLate, CARDS.success), promo: 'TWICE' })).body.data).toMatchObject({
      status: 'succeeded',
    });
    expect(await payment(abandoner, second._id)).toMatchObject({ status: 'failed', failure: { reason: 'expired' } });
    expect(await count(`SELECT times_redeemed AS n FROM promo_codes WHERE code = 'TWICE'`, [])).toBe(2);
  });

  it('a payment waiting for 3-D Secure expires after 30 minutes by itself, and can no longer be confirmed', async () => {
    const fan = await registerFan(t);
    const waiting = (await pay(fan, { cardId: await card(fan, CARDS.authenticate) })).body.data;
    await t.db.query(`UPDATE payments SET updated_at = now() - interval '31 minutes' WHERE id = $1`, [waiting._id]);
    await expirePendingPayments(t.api.ctx.db, null);
    const confirmed = await call(t.url, 'POST', `/payment/${waiting._id}/confirm`, { token: fan.token });
    expect(confirmed.body.data).toMatchObject({ status: 'failed', failure: { reason: 'expired' }, subscription: null });
    expect(await subscribed(fan, paid)).toBe(false);
  });

  it('a double submit with one idempotency key makes one payment, even when both arrive at once', async () => {
    const fan = await registerFan(t);
    const cardId = await card(fan, CARDS.success);
    const key = `double-${fan.username}`;
    const [a, b] = await Promise.all([pay(fan, { cardId }, key), pay(fan, { cardId }, key)]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body.data._id).toBe(b.body.data._id);
    expect(a.body.data.status).toBe('succeeded');
    expect(b.body.data.status).toBe('succeeded');
    const replay = await pay(fan, { cardId }, key);
    expect(replay.body.data._id).toBe(a.body.data._id);
    expect(await count('SELECT count(*)::int AS n FROM payments WHERE user_id = $1', [fan.id])).toBe(1);
    expect(await count('SELECT count(*)::int AS n FROM subscriptions WHERE user_id = $1', [fan.id])).toBe(1);
  });

  it('two submits without a key at once: one payment succeeds, the other is refused', async () => {
    const fan = await registerFan(t);
    const cardId = await card(fan, CARDS.success);
    const answers = await Promise.all([pay(fan, { cardId }), pay(fan, { cardId })]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await count(`SELECT count(*)::int AS n FROM payments WHERE user_id = $1 AND status = 'succeeded'`, [fan.id])).toBe(1);
  });

  it('eight submits without a key at once: exactly one charge, every other submit refused', async () => {
    // The refusals race the first payment: a submit that checked "not subscribed yet" before the first payment
    // succeeded, and inserted its own after, once charged the fan a second time.
    for (let round = 0; round < 3; round++) {
      const fan = await registerFan(t);
      const cardId = await card(fan, CARDS.success);
      const answers = await Promise.all(Array.from({ length: 8 }, () => pay(fan, { cardId })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
      expect(await count(`SELECT count(*)::int AS n FROM payments WHERE user_id = $1 AND status = 'succeeded'`, [fan.id])).toBe(1);
    }
  });

  it('a submit that finds the fan subscribed once its payment is recorded is refused, not charged', async () => {
    // The race above, made certain: the first payment's subscription appears after this submit checked "not
    // subscribed" and while it records its own payment (here a trigger adds it in that moment). The check that
    // counts is the one after the payment is recorded, in the same transaction.
    const fan = await registerFan(t);
    const cardId = await card(fan, CARDS.success);
    await t.db.query(`
      CREATE FUNCTION subscribed_meanwhile() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO subscriptions (user_id, artist_id, type, price_paid_cents, expires_at)
        VALUES (NEW.user_id, NEW.artist_id, 'yearly', 4999, now() + interval '1 year') ON CONFLICT DO NOTHING;
        RETURN NEW;
      END $$`);
    await t.db.query(
      `CREATE TRIGGER subscribed_meanwhile BEFORE INSERT ON payments FOR EACH ROW WHEN (NEW.user_id = '${fan.id}') EXECUTE FUNCTION subscribed_meanwhile()`,
    );
    try {
      const answer = await pay(fan, { cardId });
      expect(answer.status, JSON.stringify(answer.body)).toBe(409);
      expect(answer.body.message).toMatch(/^You are already subscribed to .+\.$/);
      expect(await count(`SELECT count(*)::int AS n FROM payments WHERE user_id = $1`, [fan.id])).toBe(0);
    } finally {
      await t.db.query('DROP TRIGGER subscribed_meanwhile ON payments');
      await t.db.query('DROP FUNCTION subscribed_meanwhile()');
    }
  });

  it('refuses what cannot be paid: no token, an artist, the wrong gateway, no card, an unknown artist', async () => {
    const fan = await registerFan(t);
    expect((await call(t.url, 'POST', '/payment/subscribe/performers', { body: { type: 'yearly', performerId: paid.id } })).status).toBe(
      401,
    );
    const asArtist = await pay(other, { cardId: 'tok_test_x' });
    expect(asArtist.status).toBe(403);
    const wrongGateway = await pay(fan, { paymentGateway: 'stripe', cardId: 'pm_card_visa' });
    expect(wrongGateway.status).toBe(400);
    expect(wrongGateway.body.errors!.paymentGateway).toBeDefined();
    const noCard = await pay(fan, {});
    expect(noCard.status).toBe(400);
    expect(noCard.body.errors!.cardId).toBeDefined();
    expect((await pay(fan, { performerId: '00000000-0000-0000-0000-000000000000', cardId: 'x' })).status).toBe(404);
    const badType = await pay(fan, { type: 'monthly' });
    expect(badType.status).toBe(400);
    expect(badType.body.errors!.type).toBeDefined();
  });

  it('auto-renewal turns off and on; the fan’s subscription shows start, end and price', async () => {
    const fan = await registerFan(t);
    await pay(fan, { cardId: await card(fan, CARDS.success) });
    const mine = await call(t.url, 'GET', `/subscriptions/performers/${paid.id}`, { token: fan.token });
    expect(mine.body.data).toMatchObject({ performerId: paid.id, active: true, autoRenew: true, pricePaid: 49.99, type: 'yearly' });
    const off = await call(t.url, 'PUT', `/subscriptions/${mine.body.data._id}/auto-renew`, {
      token: fan.token,
      body: { autoRenew: false },
    });
    expect(off.body.data).toMatchObject({ autoRenew: false, active: true });
    expect(await subscribed(fan, paid)).toBe(true);
    const on = await call(t.url, 'PUT', `/subscriptions/${mine.body.data._id}/auto-renew`, { token: fan.token, body: { autoRenew: true } });
    expect(on.body.data.autoRenew).toBe(true);
    const stranger = await registerFan(t);
    expect(
      (await call(t.url, 'PUT', `/subscriptions/${mine.body.data._id}/auto-renew`, { token: stranger.token, body: { autoRenew: false } }))
        .status,
    ).toBe(404);
    expect((await call(t.url, 'GET', `/subscriptions/performers/${paid.id}`, { token: stranger.token })).status).toBe(404);
  });

  it('renewals: a due subscription is charged and extended a year; a failing card is tried again while the fan keeps access', async () => {
    const good = await registerFan(t);
    await pay(good, { cardId: await card(good, CARDS.success) });
    const bad = await registerFan(t);
    const authCard = await card(bad, CARDS.authenticate);
    const payment = (await pay(bad, { cardId: authCard })).body.data;
    const url = new URL(payment.nextAction.url);
    await fetch(new URL(url.pathname, t.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret: url.searchParams.get('secret')!, decision: 'approve' }),
      redirect: 'manual',
    });
    await call(t.url, 'POST', `/payment/${payment._id}/confirm`, { token: bad.token });
    const cancelled = await registerFan(t);
    await pay(cancelled, { cardId: await card(cancelled, CARDS.success) });
    await t.db.query(`UPDATE subscriptions SET auto_renew = false WHERE user_id = $1`, [cancelled.id]);

    const soon = new Date(Date.now() + 60_000);
    await t.db.query(`UPDATE subscriptions SET expires_at = $2 WHERE user_id = ANY($1)`, [[good.id, bad.id, cancelled.id], soon]);
    const result = await renewDueSubscriptions(
      { db: t.db, cache: t.api.ctx.cache, jobs: t.api.ctx.jobs },
      createTestGateway(t.db, t.config),
      new Date(),
    );
    expect(result.renewed).toBeGreaterThanOrEqual(1);

    const expires = async (id: string) =>
      (
        await t.db.query<{ expiresAt: Date; autoRenew: boolean }>(
          `SELECT expires_at AS "expiresAt", auto_renew AS "autoRenew" FROM subscriptions WHERE user_id = $1`,
          [id],
        )
      )[0];
    const renewed = await expires(good.id);
    expect(new Date(renewed.expiresAt).getTime()).toBeGreaterThan(soon.getTime() + 364 * 86_400_000);
    // Off-session, a card that needs authentication cannot be charged: tried again in a day, access lasts meanwhile
    // (tests/api/renewal-mail.test.ts follows the retries to the end).
    const retrying = await expires(bad.id);
    expect(new Date(retrying.expiresAt).getTime()).toBeGreaterThan(soon.getTime() + 86_400_000);
    expect(retrying.autoRenew).toBe(true);
    expect(new Date((await expires(cancelled.id)).expiresAt).getTime()).toBe(soon.getTime());
    expect(
      await count(`SELECT count(*)::int AS n FROM payments WHERE user_id = $1 AND kind = 'renewal' AND status = 'succeeded'`, [good.id]),
    ).toBe(1);

    // Once its end has passed, access is gone.
    await t.db.query(`UPDATE subscriptions SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [bad.id]);
    expect(await subscribed(bad, paid)).toBe(false);
  });
});
