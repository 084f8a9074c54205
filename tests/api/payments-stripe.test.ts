import Stripe from 'stripe';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BAD_SIGNATURE, MALFORMED_EVENT } from '../../api/payments/webhooks';
import { createPromo } from '../../api/payments/promos';
import { call, describeEachDatabase, makeArtist, registerFan, startTestApi, type TestApi, type TestUser } from '../helpers/api';
import { startStripeStandIn, type StripeStandIn } from '../helpers/stripe-stand-in';

/**
 * The Stripe gateway with the real `stripe` SDK, pointed by STRIPE_API_URL at a local stand-in for Stripe's API
 * (tests/helpers/stripe-stand-in.ts): the calls it makes, 3-D Secure, Checkout, and webhooks signed with the SDK's
 * test-header helper (valid, bad signature, duplicate, out of order).
 */

const WEBHOOK_SECRET = 'whsec_test_standin';

describeEachDatabase('payments with Stripe (local stand-in)', (database) => {
  let stand: StripeStandIn;
  let t: TestApi;
  let artist: TestUser;
  const logLines: string[] = [];

  beforeAll(async () => {
    stand = await startStripeStandIn();
    t = await startTestApi({
      database: database.name,
      env: {
        STRIPE_SECRET_KEY: 'sk_test_standin',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_standin',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: stand.url,
        PUBLIC_WEB_URL: 'http://web.test',
        LOG_LEVEL: 'warn',
      },
      logStream: { write: (line: string) => void logLines.push(line) },
    });
    artist = await registerFan(t, 'stripeartist');
    await makeArtist(t, artist, { yearlyPriceCents: 4999, name: 'Stripe Artist' });
  });
  afterAll(async () => {
    await t?.close();
    await stand?.close();
  });

  const pay = (fan: TestUser, body: Record<string, unknown>, key?: string) =>
    call(t.url, 'POST', '/payment/subscribe/performers', {
      token: fan.token,
      body: { type: 'yearly', performerId: artist.id, paymentGateway: 'stripe', ...body },
      headers: key ? { 'idempotency-key': key } : {},
    });

  const subscribed = async (fan: TestUser) =>
    (await call(t.url, 'GET', `/performers/${artist.username}`, { token: fan.token })).body.data.isSubscribed as boolean;

  const gatewaySubscriptionId = async (paymentId: string) =>
    (await t.db.query<{ id: string }>('SELECT gateway_subscription_id AS id FROM payments WHERE id = $1', [paymentId]))[0].id;

  async function webhook(event: unknown, secret = WEBHOOK_SECRET) {
    const payload = JSON.stringify(event);
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret });
    return call(t.url, 'POST', '/payment/webhooks/stripe', {
      body: payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
    });
  }

  let eventCounter = 0;
  const event = (type: string, object: Record<string, unknown>, created = Math.floor(Date.now() / 1000)) => ({
    id: `evt_test_${++eventCounter}_${Date.now()}`,
    object: 'event',
    type,
    created,
    data: { object },
  });

  it('says Stripe is the gateway, with the publishable key for Elements', async () => {
    expect((await call(t.url, 'GET', '/payment/gateway')).body.data).toEqual({
      paymentGateway: 'stripe',
      publishableKey: 'pk_test_standin',
    });
  });

  it('a card that pays: customer, attached card, a yearly subscription at the artist’s price, with idempotency keys', async () => {
    const fan = await registerFan(t);
    const before = stand.calls.length;
    const answer = await pay(fan, { cardId: 'pm_card_visa' }, `first-${fan.username}`);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      status: 'succeeded',
      amount: 49.99,
      paymentGateway: 'stripe',
      subscription: { active: true },
    });
    expect(await subscribed(fan)).toBe(true);

    const made = stand.calls.slice(before);
    expect(made.every((c) => c.authorization === 'Bearer sk_test_standin')).toBe(true);
    const customer = made.find((c) => c.path === '/v1/customers')!;
    expect(customer.body).toMatchObject({ email: fan.email, metadata: { userId: fan.id } });
    expect(made.find((c) => c.path === '/v1/payment_methods/pm_card_visa/attach')).toBeDefined();
    const created = made.find((c) => c.method === 'POST' && c.path === '/v1/subscriptions')!;
    expect(created.idempotencyKey).toBe(`subscribe-first-${fan.username}`);
    expect(created.body).toMatchObject({
      default_payment_method: 'pm_card_visa',
      payment_behavior: 'allow_incomplete',
      items: [{ price_data: { currency: 'usd', unit_amount: '4999', recurring: { interval: 'year' } } }],
      metadata: { paymentId: answer.body.data._id, userId: fan.id, artistId: artist.id },
    });
    // The stored end of access is Stripe's period end.
    const sub = stand.subscriptions.get(await gatewaySubscriptionId(answer.body.data._id))!;
    const expires = Date.parse(answer.body.data.subscription.expiresAt);
    expect(expires).toBe(sub.items.data[0].current_period_end * 1000);

    // The same fan's next payment reuses the customer; the artist's product is made once.
    const second = await registerFan(t);
    const mark = stand.calls.length;
    await pay(second, { cardId: 'pm_card_visa' });
    expect(stand.calls.slice(mark).filter((c) => c.path === '/v1/products')).toHaveLength(0);
  });

  it('a declined card and an expired card fail with their reason; nothing is left half-created at Stripe', async () => {
    const fan = await registerFan(t);
    const declined = await pay(fan, { cardId: 'pm_card_chargeDeclined' });
    expect(declined.body.data).toMatchObject({ status: 'failed', failure: { reason: 'card_declined' } });
    const expired = await pay(fan, { cardId: 'pm_card_chargeDeclinedExpiredCard' });
    expect(expired.body.data).toMatchObject({ status: 'failed', failure: { reason: 'expired_card' } });
    const incomplete = stand.subscriptions.get(await gatewaySubscriptionId(expired.body.data._id))!;
    expect(incomplete.status).toBe('canceled');
    expect(await subscribed(fan)).toBe(false);
  });

  it('3-D Secure: requires_action with the client secret for Stripe.js; after authenticating, confirm completes it', async () => {
    const fan = await registerFan(t);
    const answer = await pay(fan, { cardId: 'pm_card_authenticationRequired' });
    expect(answer.body.data.status).toBe('requires_action');
    expect(answer.body.data.nextAction).toEqual({ type: 'stripe_sdk', clientSecret: expect.stringMatching(/^pi_\w+_secret_/) });
    expect(await subscribed(fan)).toBe(false);
    const subId = await gatewaySubscriptionId(answer.body.data._id);
    stand.authenticate(subId, true);
    const confirmed = await call(t.url, 'POST', `/payment/${answer.body.data._id}/confirm`, { token: fan.token });
    expect(confirmed.body.data).toMatchObject({ status: 'succeeded', subscription: { active: true } });
    expect(await subscribed(fan)).toBe(true);

    const failing = await registerFan(t);
    const other = await pay(failing, { cardId: 'pm_card_authenticationRequired' });
    stand.authenticate(await gatewaySubscriptionId(other.body.data._id), false);
    const failed = await call(t.url, 'POST', `/payment/${other.body.data._id}/confirm`, { token: failing.token });
    expect(failed.body.data).toMatchObject({ status: 'failed', failure: { reason: 'authentication_failed' } });
  });

  it('a payment left waiting for 3-D Secure is cancelled at Stripe when its fan starts another, so it can never charge', async () => {
    const fan = await registerFan(t);
    const waiting = await pay(fan, { cardId: 'pm_card_authenticationRequired' });
    const subId = await gatewaySubscriptionId(waiting.body.data._id);
    expect((await pay(fan, { cardId: 'pm_card_visa' })).body.data.status).toBe('succeeded');
    expect(stand.subscriptions.get(subId)!.status).toBe('canceled');
    const confirmed = await call(t.url, 'POST', `/payment/${waiting.body.data._id}/confirm`, { token: fan.token });
    expect(confirmed.body.data).toMatchObject({ status: 'failed', failure: { reason: 'expired' } });
  });

  it('a promo code becomes a once-only Stripe coupon on the first invoice', async () => {
    await createPromo(t.db, { artist: artist.username, code: 'STRIPE20', percentOff: 20 });
    const fan = await registerFan(t);
    const mark = stand.calls.length;
    const answer = await pay(fan, { cardId: 'pm_card_visa', promo: 'stripe20' });
    expect(answer.body.data).toMatchObject({ status: 'succeeded', amount: 39.99, promo: 'STRIPE20' });
    const coupon = stand.calls.slice(mark).find((c) => c.path === '/v1/coupons')!;
    expect(coupon.body).toMatchObject({ percent_off: '20', duration: 'once', name: 'STRIPE20' });
    const created = stand.calls.slice(mark).find((c) => c.path === '/v1/subscriptions')!;
    expect(created.body.discounts[0].coupon).toMatch(/^coupon_/);
    // The renewal price stays the artist's full price.
    expect(created.body.items[0].price_data.unit_amount).toBe('4999');
  });

  it('without a card (JavaScript off): a Checkout session to redirect to; coming back completes the payment', async () => {
    const fan = await registerFan(t);
    const answer = await pay(fan, {});
    expect(answer.body.data.status).toBe('requires_action');
    expect(answer.body.data.nextAction).toEqual({ type: 'redirect', url: expect.stringMatching(/^https:\/\/checkout\.stripe\.test\//) });
    const session = stand.calls.filter((c) => c.path === '/v1/checkout/sessions').at(-1)!;
    expect(session.body).toMatchObject({
      mode: 'subscription',
      success_url: `http://web.test/${artist.username}/subscribe/confirm?payment=${answer.body.data._id}`,
      cancel_url: `http://web.test/${artist.username}/subscribe/payment`,
    });
    const sessionId = (
      await t.db.query<{ id: string }>('SELECT gateway_payment_id AS id FROM payments WHERE id = $1', [answer.body.data._id])
    )[0].id;
    // Back too early (the fan pressed back): still waiting.
    expect((await call(t.url, 'POST', `/payment/${answer.body.data._id}/confirm`, { token: fan.token })).body.data.status).toBe(
      'requires_action',
    );
    stand.completeCheckout(sessionId);
    const confirmed = await call(t.url, 'POST', `/payment/${answer.body.data._id}/confirm`, { token: fan.token });
    expect(confirmed.body.data).toMatchObject({ status: 'succeeded', subscription: { active: true } });
  });

  it('turning auto-renewal off sets cancel_at_period_end at Stripe, and on again clears it', async () => {
    const fan = await registerFan(t);
    const answer = await pay(fan, { cardId: 'pm_card_visa' });
    const subId = await gatewaySubscriptionId(answer.body.data._id);
    const off = await call(t.url, 'PUT', `/subscriptions/${answer.body.data.subscription._id}/auto-renew`, {
      token: fan.token,
      body: { autoRenew: false },
    });
    expect(off.body.data.autoRenew).toBe(false);
    expect(stand.subscriptions.get(subId)!.cancel_at_period_end).toBe(true);
    await call(t.url, 'PUT', `/subscriptions/${answer.body.data.subscription._id}/auto-renew`, {
      token: fan.token,
      body: { autoRenew: true },
    });
    expect(stand.subscriptions.get(subId)!.cancel_at_period_end).toBe(false);
  });

  it('Stripe unreachable: the payment fails as gateway_unreachable, with no subscription', async () => {
    const down = await startTestApi({
      database: database.name,
      env: { STRIPE_SECRET_KEY: 'sk_test_standin', STRIPE_API_URL: 'http://127.0.0.1:9', PUBLIC_WEB_URL: 'http://web.test' },
    });
    try {
      const owner = await registerFan(down, 'downartist');
      await makeArtist(down, owner, { yearlyPriceCents: 1000 });
      const fan = await registerFan(down);
      const answer = await call(down.url, 'POST', '/payment/subscribe/performers', {
        token: fan.token,
        body: { type: 'yearly', performerId: owner.id, paymentGateway: 'stripe', cardId: 'pm_card_visa' },
      });
      expect(answer.status).toBe(200);
      expect(answer.body.data).toMatchObject({ status: 'failed', failure: { reason: 'gateway_unreachable' }, subscription: null });
      expect((await down.db.query('SELECT 1 FROM subscriptions WHERE user_id = $1', [fan.id])).length).toBe(0);
    } finally {
      await down.close();
    }
  });

  describe_webhooks();

  function describe_webhooks() {
    async function paidSubscription() {
      const fan = await registerFan(t);
      const answer = await pay(fan, { cardId: 'pm_card_visa' });
      const subId = await gatewaySubscriptionId(answer.body.data._id);
      return { fan, subId, subscriptionId: answer.body.data.subscription._id as string };
    }
    const row = async (id: string) =>
      (
        await t.db.query<{ expiresAt: Date; autoRenew: boolean; status: string }>(
          `SELECT expires_at AS "expiresAt", auto_renew AS "autoRenew", status FROM subscriptions WHERE id = $1`,
          [id],
        )
      )[0];
    const invoicePaid = (subId: string, invoiceId: string, periodEnd: number) =>
      event('invoice.paid', {
        id: invoiceId,
        object: 'invoice',
        amount_paid: 4999,
        parent: { type: 'subscription_details', subscription_details: { subscription: subId, metadata: {} } },
        lines: { object: 'list', data: [{ period: { start: periodEnd - 365 * 86400, end: periodEnd } }] },
      });

    it('webhook invoice.paid (a renewal) extends access to the new period end, once however often it arrives', async () => {
      const { fan, subId, subscriptionId } = await paidSubscription();
      const renewedEnd = Math.floor(Date.now() / 1000) + 2 * 365 * 86400;
      const paid = invoicePaid(subId, `in_renewal_${subId}`, renewedEnd);
      const first = await webhook(paid);
      expect(first.status).toBe(200);
      expect(first.body.data).toEqual({ received: true, duplicate: false });
      expect(new Date((await row(subscriptionId)).expiresAt).getTime()).toBe(renewedEnd * 1000);
      const again = await webhook(paid);
      expect(again.body.data).toEqual({ received: true, duplicate: true });
      // The same invoice in a new event (Stripe may resend) is still one renewal record.
      await webhook(invoicePaid(subId, `in_renewal_${subId}`, renewedEnd));
      const renewals = await t.db.query(`SELECT 1 FROM payments WHERE user_id = $1 AND kind = 'renewal'`, [fan.id]);
      expect(renewals).toHaveLength(1);
      // An older invoice arriving late does not shorten access.
      await webhook(invoicePaid(subId, `in_old_${subId}`, renewedEnd - 365 * 86400));
      expect(new Date((await row(subscriptionId)).expiresAt).getTime()).toBe(renewedEnd * 1000);
    });

    it('a webhook with a bad signature is rejected and changes nothing', async () => {
      const { subId, subscriptionId } = await paidSubscription();
      const before = await row(subscriptionId);
      const forged = await webhook(
        invoicePaid(subId, `in_forged_${subId}`, Math.floor(Date.now() / 1000) + 5 * 365 * 86400),
        'whsec_wrong',
      );
      expect(forged.status).toBe(400);
      expect(forged.body.message).toBe(BAD_SIGNATURE);
      const unsigned = await call(t.url, 'POST', '/payment/webhooks/stripe', {
        body: JSON.stringify(event('invoice.paid', {})),
        headers: { 'content-type': 'application/json' },
      });
      expect(unsigned.status).toBe(400);
      expect(await row(subscriptionId)).toEqual(before);
    });

    it('a correctly signed but malformed event answers 400, is logged, and changes nothing (it answered 500)', async () => {
      const { subId, subscriptionId } = await paidSubscription();
      const before = await row(subscriptionId);
      const events = await t.db.query('SELECT id FROM stripe_events');
      const malformed: unknown[] = [
        null,
        [],
        'an event',
        {},
        { id: 5, type: 'invoice.paid', created: 1, data: { object: {} } },
        { id: 'evt_no_data', type: 'invoice.paid', created: 1, data: null },
        { id: 'evt_bad_created', type: 'invoice.paid', created: 'soon', data: { object: {} } },
        event('invoice.paid', { id: 7, parent: { subscription_details: { subscription: subId } }, amount_paid: 'lots' }),
        event('invoice.paid', {
          id: 'in_bad_lines',
          parent: { subscription_details: { subscription: subId } },
          lines: { data: [{ period: { end: 'never' } }] },
        }),
        event('invoice.payment_failed', { id: 'in_bad_amount', subscription: subId, amount_due: -5 }),
        event('customer.subscription.updated', { id: subId, status: 'active', cancel_at_period_end: 'yes' }),
        event('customer.subscription.updated', { id: subId, status: 'active', items: { data: [{ current_period_end: 'later' }] } }),
        event('customer.subscription.deleted', { id: { nested: true }, ended_at: 'x' }),
      ];
      for (const payload of malformed) {
        const answer = await webhook(payload);
        expect(answer.status, JSON.stringify(payload)).toBe(400);
        expect(answer.body.message, JSON.stringify(payload)).toBe(MALFORMED_EVENT);
      }
      expect(await row(subscriptionId)).toEqual(before);
      expect(await t.db.query('SELECT id FROM stripe_events')).toEqual(events);
      expect(logLines.filter((line) => line.includes('malformed Stripe webhook')).length).toBe(malformed.length);
    });

    it('customer.subscription.updated out of order: the newer state wins; deleted is final', async () => {
      const { fan, subId, subscriptionId } = await paidSubscription();
      const t0 = Math.floor(Date.now() / 1000);
      const updated = (cancel: boolean, created: number) =>
        event(
          'customer.subscription.updated',
          { id: subId, object: 'subscription', status: 'active', cancel_at_period_end: cancel, items: { data: [] } },
          created,
        );
      await webhook(updated(true, t0 + 20));
      await webhook(updated(false, t0 + 10)); // older, delivered later
      expect((await row(subscriptionId)).autoRenew).toBe(false);
      await webhook(updated(false, t0 + 30));
      expect((await row(subscriptionId)).autoRenew).toBe(true);

      await webhook(
        event('customer.subscription.deleted', { id: subId, object: 'subscription', status: 'canceled', ended_at: t0 + 40 }, t0 + 40),
      );
      expect((await row(subscriptionId)).status).toBe('canceled');
      expect(await subscribed(fan)).toBe(false);
      await webhook(updated(false, t0 + 50));
      await webhook(invoicePaid(subId, `in_late_${subId}`, t0 + 3 * 365 * 86400));
      expect((await row(subscriptionId)).status).toBe('canceled');
      expect(await subscribed(fan)).toBe(false);
    });

    it('a payment whose confirm never arrives (the page closed, our api was down) is completed by the webhook alone', async () => {
      const fan = await registerFan(t);
      const answer = await pay(fan, { cardId: 'pm_card_authenticationRequired' });
      const subId = await gatewaySubscriptionId(answer.body.data._id);
      stand.authenticate(subId, true);
      expect(await subscribed(fan)).toBe(false);
      const end = stand.subscriptions.get(subId)!.items.data[0].current_period_end as number;
      expect((await webhook(invoicePaid(subId, stand.subscriptions.get(subId)!.latest_invoice, end))).status).toBe(200);
      expect(await subscribed(fan)).toBe(true);
      expect((await call(t.url, 'GET', `/payment/${answer.body.data._id}`, { token: fan.token })).body.data.status).toBe('succeeded');
    });

    it('invoice.paid before the fan’s page confirms completes the payment once; the confirm then agrees', async () => {
      const fan = await registerFan(t);
      const answer = await pay(fan, { cardId: 'pm_card_authenticationRequired' });
      const subId = await gatewaySubscriptionId(answer.body.data._id);
      stand.authenticate(subId, true);
      const end = stand.subscriptions.get(subId)!.items.data[0].current_period_end as number;
      const paid = invoicePaid(subId, stand.subscriptions.get(subId)!.latest_invoice, end);
      await Promise.all([webhook(paid), call(t.url, 'POST', `/payment/${answer.body.data._id}/confirm`, { token: fan.token })]);
      const confirmed = await call(t.url, 'POST', `/payment/${answer.body.data._id}/confirm`, { token: fan.token });
      expect(confirmed.body.data.status).toBe('succeeded');
      expect(await subscribed(fan)).toBe(true);
      expect(await t.db.query('SELECT 1 FROM subscriptions WHERE user_id = $1', [fan.id])).toHaveLength(1);
      expect(await t.db.query(`SELECT 1 FROM payments WHERE user_id = $1`, [fan.id])).toHaveLength(1);
    });
  }
});
