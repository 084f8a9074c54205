import { afterAll, beforeAll, expect, it } from 'vitest';
import { giftMessages } from '#contract/gifts';
import { promoMessages } from '#contract/promo-schemas';
import { call, describeEachDatabase, makeArtist, registerFan, startTestApi, type TestApi, type TestUser } from '../helpers/api';

/**
 * Money rules over real HTTP with the test gateway: a promo code must fit the artist's price when it is made, and
 * a stored one that no longer fits never charges below zero nor a few cents under the smallest card payment; an
 * artist cannot buy a gift membership.
 */

const CARD = { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' };

describeEachDatabase('money rules', (database) => {
  let t: TestApi;
  let artist: TestUser;

  beforeAll(async () => {
    t = await startTestApi({ database: database.name });
    artist = await registerFan(t, 'rules');
    await makeArtist(t, artist, { yearlyPriceCents: 2000, name: 'Rule Band' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const card = async (user: TestUser) =>
    (await call(t.url, 'POST', '/payment/test-gateway/cards', { token: user.token, body: CARD })).body.data.id as string;
  const makeCode = (body: Record<string, unknown>) => call(t.url, 'POST', '/performers/me/promos', { token: artist.token, body });

  it('an amount off above the price, or one that leaves less than the smallest payment, is refused on the form’s field', async () => {
    const over = await makeCode({ code: 'TOOBIG', discount: 'amount', value: '25' });
    expect(over.status).toBe(422);
    expect(over.body.errors).toEqual({ value: [promoMessages.amountOverPrice('$20.00')] });
    const cents = await makeCode({ code: 'CENTS', discount: 'amount', value: '19.75' });
    expect(cents.status).toBe(422);
    expect(cents.body.errors).toEqual({ value: [promoMessages.belowMinimum('$0.50')] });
    // The whole price off is a free first year, as 100% off is; a code that leaves a real price is fine.
    expect((await makeCode({ code: 'WHOLE', discount: 'amount', value: '20' })).status).toBe(200);
    expect((await makeCode({ code: 'FIVE', discount: 'amount', value: '5' })).status).toBe(200);
    const stored = await t.db.query<{ code: string }>('SELECT code FROM promo_codes WHERE artist_id = $1 ORDER BY code', [artist.id]);
    expect(stored.map((row) => row.code)).toEqual(['FIVE', 'WHOLE']);
  });

  it('a stored code that no longer fits (made before the rule, or the price was lowered): never below zero, never a few cents', async () => {
    const band = await registerFan(t, 'lowered');
    await makeArtist(t, band, { yearlyPriceCents: 1000, name: 'Lowered Band' });
    // Codes kept from before the rule: $15 off a $10 year, and $9.80 off it (20 cents left).
    await t.db.query(
      `INSERT INTO promo_codes (artist_id, code, amount_off_cents) VALUES ($1, 'OLDBIG', 1500), ($1, 'OLDCENTS', 980), ($1, 'OLDFINE', 500)`,
      [band.id],
    );
    const check = async (fan: TestUser, code: string) =>
      (await call(t.url, 'GET', `/payment/promo-codes/check?performerId=${band.id}&code=${code}`, { token: fan.token })).body.data;
    const pay = async (fan: TestUser, promo: string) =>
      call(t.url, 'POST', '/payment/subscribe/performers', {
        token: fan.token,
        body: { type: 'yearly', performerId: band.id, paymentGateway: 'test', cardId: await card(fan), promo },
      });

    for (const code of ['OLDBIG', 'OLDCENTS']) {
      const fan = await registerFan(t);
      expect(await check(fan, code)).toMatchObject({ price: 10, discountedPrice: 0 });
      const paid = await pay(fan, code);
      expect(paid.body.data, JSON.stringify(paid.body)).toMatchObject({ status: 'succeeded', amount: 0, listPrice: 10, promo: code });
      const [row] = await t.db.query<{ amount: number }>(
        `SELECT amount_cents AS amount FROM payments WHERE user_id = $1 AND status = 'succeeded'`,
        [fan.id],
      );
      expect(row.amount).toBe(0);
    }
    const fan = await registerFan(t);
    expect(await check(fan, 'OLDFINE')).toMatchObject({ discountedPrice: 5 });
    expect((await pay(fan, 'OLDFINE')).body.data).toMatchObject({ status: 'succeeded', amount: 5 });
  });

  it('an artist cannot buy a gift membership of another club: 403 with the reason, nothing charged', async () => {
    const other = await registerFan(t, 'buyerartist');
    await makeArtist(t, other, { yearlyPriceCents: 500, name: 'Buying Artist' });
    const bought = await call(t.url, 'POST', '/gifts', {
      token: other.token,
      body: { performerId: artist.id, recipientEmail: 'friend@example.com', paymentGateway: 'test', cardId: await card(other) },
    });
    expect(bought.status).toBe(403);
    expect(bought.body.message).toBe(giftMessages.artistBuyer);
    expect(await t.db.query('SELECT 1 FROM payments WHERE user_id = $1', [other.id])).toHaveLength(0);
    expect(await t.db.query('SELECT 1 FROM gifts WHERE buyer_id = $1', [other.id])).toHaveLength(0);
  });
});
