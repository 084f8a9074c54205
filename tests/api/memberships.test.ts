import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Membership } from '#contract/payments';
import { call, describeEachDatabase, makeArtist, registerFan, startTestApi, subscribe, type TestApi } from '../helpers/api';

/** GET /subscriptions/me: a fan's memberships across clubs, each with its offer, currency and receipts. */
describeEachDatabase('a fan’s memberships', (database) => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ database: database.name });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('lists every club of the fan with its renewal, price in the club’s currency and receipts; nobody else’s', async () => {
    const [pounds, euros, fan, other] = await Promise.all([
      registerFan(t, 'artist'),
      registerFan(t, 'artist'),
      registerFan(t),
      registerFan(t),
    ]);
    await makeArtist(t, pounds, { yearlyPriceCents: 2999, name: 'The Late Nights' });
    await makeArtist(t, euros, { yearlyPriceCents: 1500, name: 'Nova Ricci' });
    await t.db.query(`UPDATE artist_profiles SET currency = 'gbp' WHERE user_id = $1`, [pounds.id]);
    await t.db.query(`UPDATE artist_profiles SET currency = 'eur' WHERE user_id = $1`, [euros.id]);
    for (const artist of [pounds, euros]) await subscribe(t, fan.id, artist.id);
    await subscribe(t, other.id, pounds.id);
    // The euro club's membership ran out.
    await t.db.query(`UPDATE subscriptions SET expires_at = now() - interval '1 day' WHERE user_id = $1 AND artist_id = $2`, [
      fan.id,
      euros.id,
    ]);
    const [{ id: subscriptionId }] = await t.db.query<{ id: string }>(
      'SELECT id FROM subscriptions WHERE user_id = $1 AND artist_id = $2',
      [fan.id, pounds.id],
    );
    await t.db.query(
      `INSERT INTO payments (user_id, artist_id, subscription_id, gateway, status, amount_cents, list_price_cents, currency, refunded_cents)
       VALUES ($1, $2, $3, 'test', 'succeeded', 2999, 2999, 'gbp', 500), ($1, $2, $3, 'test', 'failed', 2999, 2999, 'gbp', 0),
              ($4, $2, NULL, 'test', 'succeeded', 2999, 2999, 'gbp', 0)`,
      [fan.id, pounds.id, subscriptionId, other.id],
    );

    const answer = await call<{ data: Membership[] }>(t.url, 'GET', '/subscriptions/me', { token: fan.token });
    expect(answer.status).toBe(200);
    const list = answer.body.data.data;
    expect(list.map((m) => [m.artist.username, m.subscription.active])).toEqual([
      [pounds.username, true],
      [euros.username, false],
    ]);
    expect(list[0].artist).toMatchObject({ name: 'The Late Nights', yearlyPrice: 29.99, currency: 'gbp' });
    expect(list[0].subscription).toMatchObject({ autoRenew: true, active: true });
    // Only the payment that went through, and with what was given back.
    expect(list[0].receipts).toMatchObject([{ amount: 29.99, refunded: 5, currency: 'gbp', kind: 'subscribe' }]);
    expect(list[1]).toMatchObject({ artist: { currency: 'eur', yearlyPrice: 15 }, receipts: [] });

    // Cancelling from the list is the same call as from the club's page; the list says so at once.
    await call(t.url, 'PUT', `/subscriptions/${subscriptionId}/auto-renew`, { token: fan.token, body: { autoRenew: false } });
    const after = await call<{ data: Membership[] }>(t.url, 'GET', '/subscriptions/me', { token: fan.token });
    expect(after.body.data.data[0].subscription.autoRenew).toBe(false);
  });
});
