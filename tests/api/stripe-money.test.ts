import Stripe from 'stripe';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeEachDatabase, makeArtist, registerFan, startTestApi, type TestApi, type TestUser } from '../helpers/api';
import { startSmtp, type TestSmtp } from '../helpers/notify';
import { startStripeStandIn, type StripeStandIn } from '../helpers/stripe-stand-in';

/**
 * Money after the first payment with Stripe: the real `stripe` SDK against the local stand-in
 * (tests/helpers/stripe-stand-in.ts), and webhooks signed with the SDK's test-header helper. Refunds through
 * Stripe's refund API with idempotency keys; refunds, disputes, failed renewals and deleted subscriptions told by
 * webhook, each replayed and reordered; Connect Express onboarding and a destination charge with the platform's fee;
 * a free trial that Stripe charges at its end.
 */

const WEBHOOK_SECRET = 'whsec_test_money';
const ADMIN_TOKEN = 'money-admin-token';

describeEachDatabase('money with Stripe (local stand-in)', (database) => {
  let stand: StripeStandIn;
  let smtp: TestSmtp;
  let t: TestApi;
  let artist: TestUser;

  beforeAll(async () => {
    stand = await startStripeStandIn();
    smtp = await startSmtp();
    t = await startTestApi({
      database: database.name,
      adminToken: ADMIN_TOKEN,
      env: {
        STRIPE_SECRET_KEY: 'sk_test_money',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_money',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: stand.url,
        PUBLIC_WEB_URL: 'http://web.test',
        SMTP_URL: smtp.url,
      },
    });
    artist = await registerFan(t, 'stripemoney');
    await makeArtist(t, artist, { yearlyPriceCents: 4999, name: 'Stripe Money' });
  });
  afterAll(async () => {
    await t?.close();
    await stand?.close();
    await smtp?.close();
  });

  async function join(fan: TestUser, performer = artist) {
    const answer = await call(t.url, 'POST', '/payment/subscribe/performers', {
      token: fan.token,
      body: { type: 'yearly', performerId: performer.id, paymentGateway: 'stripe', cardId: 'pm_card_visa' },
    });
    expect(answer.body.data?.status, JSON.stringify(answer.body)).toBe('succeeded');
    // Its receipt first: the mails that follow are then the ones a test looks for.
    await smtp.waitFor(fan.email, 1);
    const [row] = await t.db.query<{ sub: string }>('SELECT gateway_subscription_id AS sub FROM payments WHERE id = $1', [
      answer.body.data._id,
    ]);
    return { paymentId: answer.body.data._id as string, subscriptionId: row.sub, intent: stand.intentOf(row.sub) };
  }

  let eventCounter = 0;
  const event = (type: string, object: Record<string, unknown>, created = Math.floor(Date.now() / 1000)) => ({
    id: `evt_money_${++eventCounter}_${Date.now()}`,
    object: 'event',
    type,
    created,
    data: { object },
  });
  async function webhook(body: ReturnType<typeof event>) {
    const payload = JSON.stringify(body);
    const answer = await call(t.url, 'POST', '/payment/webhooks/stripe', {
      body: payload,
      headers: {
        'content-type': 'application/json',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data as { received: boolean; duplicate: boolean };
  }

  const access = async (fan: TestUser) =>
    (await call(t.url, 'GET', `/performers/${artist.username}`, { token: fan.token })).body.data.isSubscribed as boolean;
  const payment = async (id: string) =>
    (
      await t.db.query<{ refunded: number; dispute: string | null; fee: number; payout: string | null }>(
        'SELECT refunded_cents AS refunded, dispute_status AS dispute, fee_cents AS fee, payout_account_id AS payout FROM payments WHERE id = $1',
        [id],
      )
    )[0];
  const status = async (fan: TestUser) =>
    (await t.db.query<{ status: string }>('SELECT status FROM subscriptions WHERE user_id = $1', [fan.id]))[0].status;
  const refundsOf = async (id: string) =>
    (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM refunds WHERE payment_id = $1', [id]))[0].n;

  it('the artist refunds through Stripe’s refund API with an idempotency key; the webhook that follows changes nothing', async () => {
    const fan = await registerFan(t);
    const paid = await join(fan);
    const mark = stand.calls.length;
    const partial = await call(t.url, 'POST', `/payments/${paid.paymentId}/refund`, {
      token: artist.token,
      body: { amount: '10', reason: 'Late delivery' },
    });
    expect(partial.status, JSON.stringify(partial.body)).toBe(200);
    const first = stand.calls.slice(mark).find((c) => c.path === '/v1/refunds')!;
    expect(first.idempotencyKey).toBe(`refund-${paid.paymentId}-0`);
    expect(first.body).toMatchObject({ payment_intent: paid.intent, amount: '1000', reason: 'requested_by_customer' });
    expect(first.body.reverse_transfer).toBeUndefined();

    const full = await call(t.url, 'POST', `/payments/${paid.paymentId}/refund`, {
      token: artist.token,
      body: { reason: 'Changed my mind' },
    });
    expect(full.body.data).toMatchObject({ refundedNow: 39.99, endedAccess: true });
    const second = stand.calls.slice(mark).filter((c) => c.path === '/v1/refunds')[1];
    expect(second).toMatchObject({ idempotencyKey: `refund-${paid.paymentId}-1000`, body: { amount: '3999' } });
    // Ending access cancels the Stripe subscription, so it does not renew.
    expect(stand.calls.slice(mark).some((c) => c.method === 'DELETE' && c.path === `/v1/subscriptions/${paid.subscriptionId}`)).toBe(true);
    expect(await access(fan)).toBe(false);

    // Stripe's charge.refunded for our own refunds: already counted, no third refund, no third mail.
    expect(
      await webhook(event('charge.refunded', { id: 'ch_ours', amount: 4999, amount_refunded: 4999, payment_intent: paid.intent })),
    ).toEqual({
      received: true,
      duplicate: false,
    });
    expect(await payment(paid.paymentId)).toMatchObject({ refunded: 4999 });
    expect(await refundsOf(paid.paymentId)).toBe(2);
    await smtp.waitFor(fan.email, 3);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // Mails are sent by the queue's workers two at a time: in any order.
    expect(
      smtp
        .to(fan.email)
        .map((mail) => mail.parsed.subject)
        .sort(),
    ).toEqual(['Stripe Money refunded $10.00', 'Stripe Money refunded $39.99', 'Your receipt for Stripe Money’s fan club']);
  });

  it('charge.refunded from Stripe’s dashboard: a partial refund, then the full one ends access; replayed and reordered, applied once', async () => {
    const fan = await registerFan(t);
    const paid = await join(fan);
    const partial = event('charge.refunded', { id: 'ch_dash', amount: 4999, amount_refunded: 1000, payment_intent: paid.intent });
    const full = event('charge.refunded', { id: 'ch_dash', amount: 4999, amount_refunded: 4999, payment_intent: paid.intent });
    // The full one arrives first, then the older partial one, then the full one again.
    await webhook(full);
    expect(await payment(paid.paymentId)).toMatchObject({ refunded: 4999 });
    expect(await status(fan)).toBe('refunded');
    expect(await access(fan)).toBe(false);
    expect((await webhook(partial)).duplicate).toBe(false);
    expect((await webhook(full)).duplicate).toBe(true);
    expect(await payment(paid.paymentId)).toMatchObject({ refunded: 4999 });
    expect(await refundsOf(paid.paymentId)).toBe(1);
    const [, mail] = await smtp.waitFor(fan.email, 2);
    expect(mail.parsed.subject).toBe('Stripe Money refunded $49.99');

    // In order this time, on another fan: the partial refund keeps access, the rest ends it.
    const other = await registerFan(t);
    const second = await join(other);
    await webhook(event('charge.refunded', { id: 'ch_two', amount: 4999, amount_refunded: 999, payment_intent: second.intent }));
    expect(await access(other)).toBe(true);
    await webhook(event('charge.refunded', { id: 'ch_two', amount: 4999, amount_refunded: 4999, payment_intent: second.intent }));
    expect(await access(other)).toBe(false);
    expect(await payment(second.paymentId)).toMatchObject({ refunded: 4999 });
    expect(await refundsOf(second.paymentId)).toBe(2);
  });

  it('a dispute suspends access and tells the artist; won, access comes back; lost, it ends as refunded', async () => {
    const fan = await registerFan(t);
    const paid = await join(fan);
    const dispute = { id: 'dp_won', object: 'dispute', amount: 4999, payment_intent: paid.intent, charge: 'ch_x' };
    const created = event('charge.dispute.created', { ...dispute, status: 'needs_response' });
    await webhook(created);
    expect(await payment(paid.paymentId)).toMatchObject({ dispute: 'open' });
    expect(await status(fan)).toBe('disputed');
    expect(await access(fan)).toBe(false);
    const [told] = await smtp.waitFor(artist.email, 1);
    expect(told.parsed.subject).toBe('A fan disputed a payment of $49.99');
    expect((await webhook(created)).duplicate).toBe(true);
    // The artist cannot refund a disputed payment: the bank decides.
    const refused = await call(t.url, 'POST', `/payments/${paid.paymentId}/refund`, { token: artist.token, body: { reason: 'x' } });
    expect(refused.status).toBe(400);

    await webhook(event('charge.dispute.closed', { ...dispute, status: 'won' }));
    expect(await status(fan)).toBe('active');
    expect(await access(fan)).toBe(true);
    expect(await payment(paid.paymentId)).toMatchObject({ dispute: 'won', refunded: 0 });

    const loser = await registerFan(t);
    const lostPayment = await join(loser);
    const lost = { id: 'dp_lost', object: 'dispute', amount: 4999, payment_intent: lostPayment.intent, charge: 'ch_y' };
    await webhook(event('charge.dispute.created', { ...lost, status: 'needs_response' }));
    const mark = stand.calls.length;
    await webhook(event('charge.dispute.closed', { ...lost, status: 'lost' }));
    expect(await status(loser)).toBe('refunded');
    expect(await access(loser)).toBe(false);
    expect(await payment(lostPayment.paymentId)).toMatchObject({ dispute: 'lost', refunded: 4999 });
    expect(stand.calls.slice(mark).some((c) => c.method === 'DELETE' && c.path === `/v1/subscriptions/${lostPayment.subscriptionId}`)).toBe(
      true,
    );
  });

  it('a dispute’s events in the wrong order: closed (won) first, then created, leaves the fan a member', async () => {
    const fan = await registerFan(t);
    const paid = await join(fan);
    const dispute = { id: 'dp_order', object: 'dispute', amount: 4999, payment_intent: paid.intent, charge: 'ch_z' };
    await webhook(event('charge.dispute.closed', { ...dispute, status: 'won' }, Math.floor(Date.now() / 1000)));
    await webhook(event('charge.dispute.created', { ...dispute, status: 'needs_response' }, Math.floor(Date.now() / 1000) - 3600));
    expect(await payment(paid.paymentId)).toMatchObject({ dispute: 'won' });
    expect(await status(fan)).toBe('active');
    expect(await access(fan)).toBe(true);
  });

  it('invoice.payment_failed replayed and reordered is one failed renewal, and access lasts; subscription.deleted is final', async () => {
    const fan = await registerFan(t);
    const paid = await join(fan);
    const failed = event('invoice.payment_failed', {
      id: 'in_failed_1',
      amount_due: 4999,
      parent: { subscription_details: { subscription: paid.subscriptionId } },
    });
    await webhook(failed);
    expect((await webhook(failed)).duplicate).toBe(true);
    // The same invoice's failure told again under another event id (Stripe retried the charge): still one record.
    await webhook(event('invoice.payment_failed', { ...failed.data.object }));
    const rows = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM payments WHERE gateway_invoice_id = 'in_failed_1' AND status = 'failed' AND kind = 'renewal'`,
    );
    expect(rows[0].n).toBe(1);
    expect(await access(fan)).toBe(true);

    const older = Math.floor(Date.now() / 1000) - 60;
    const deleted = event('customer.subscription.deleted', {
      id: paid.subscriptionId,
      status: 'canceled',
      ended_at: Math.floor(Date.now() / 1000),
    });
    await webhook(deleted);
    expect(await status(fan)).toBe('canceled');
    expect(await access(fan)).toBe(false);
    // An older update arriving late, and the deletion replayed, change nothing.
    await webhook(
      event('customer.subscription.updated', { id: paid.subscriptionId, status: 'active', cancel_at_period_end: false }, older),
    );
    expect((await webhook(deleted)).duplicate).toBe(true);
    expect(await status(fan)).toBe('canceled');
    expect(await access(fan)).toBe(false);
  });

  it('the operator ending a membership Stripe renews cancels it at Stripe, so the fan is not charged next year', async () => {
    const fan = await registerFan(t);
    const paid = await join(fan);
    const mark = stand.calls.length;
    const ended = await call(t.url, 'POST', '/admin/memberships/end', {
      headers: { 'x-stagedoor-admin-token': ADMIN_TOKEN },
      body: { artist: artist.username, fan: fan.email },
    });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(
      stand.calls
        .slice(mark)
        .filter((c) => c.method === 'DELETE')
        .map((c) => c.path),
    ).toEqual([`/v1/subscriptions/${paid.subscriptionId}`]);
    expect(await status(fan)).toBe('expired');
    expect(await access(fan)).toBe(false);
    // Nothing was refunded: ending is not a refund.
    expect(await refundsOf(paid.paymentId)).toBe(0);
  });

  it('Stripe ending the card subscription leaves a gift’s year stacked after it: the membership carries on as a gift', async () => {
    const fan = await registerFan(t);
    const paid = await join(fan);
    // A gift opened on this membership (renewal turned off first, as opening one asks): its year comes after the
    // card's. Gifts cannot be bought through the stand-in, so its ledger is written as POST /gifts and redeem leave it.
    await call(
      t.url,
      'PUT',
      `/subscriptions/${(await t.db.query<{ id: string }>('SELECT id FROM subscriptions WHERE user_id = $1', [fan.id]))[0].id}/auto-renew`,
      {
        token: fan.token,
        body: { autoRenew: false },
      },
    );
    const buyer = await registerFan(t);
    const [giftPayment] = await t.db.query<{ id: string }>(
      `INSERT INTO payments (user_id, artist_id, gateway, kind, status, amount_cents, list_price_cents, currency)
       VALUES ($1, $2, 'stripe', 'gift', 'succeeded', 4999, 4999, 'usd') RETURNING id`,
      [buyer.id, artist.id],
    );
    const [{ cardEnd }] = await t.db.query<{ cardEnd: Date }>(
      `UPDATE subscriptions SET expires_at = expires_at + interval '1 year' WHERE user_id = $1
       RETURNING expires_at - interval '1 year' AS "cardEnd"`,
      [fan.id],
    );
    await t.db.query(
      `INSERT INTO gifts (artist_id, buyer_id, payment_id, recipient_email, token_hash, redeemed_by, redeemed_at, period_from, period_until)
       VALUES ($1, $2, $3, $4, $5, $6, now(), $7::timestamptz, $7::timestamptz + interval '1 year')`,
      [artist.id, buyer.id, giftPayment.id, fan.email, `hash-${fan.id}`, fan.id, cardEnd],
    );

    // Stripe ends the card subscription now (cancelled in its dashboard): the card's time goes, the gift's year stays.
    const deleted = event('customer.subscription.deleted', {
      id: paid.subscriptionId,
      status: 'canceled',
      ended_at: Math.floor(Date.now() / 1000),
    });
    await webhook(deleted);
    expect(await access(fan)).toBe(true);
    const [row] = await t.db.query<{ status: string; type: string; gateway: string; expiresAt: Date; autoRenew: boolean }>(
      `SELECT status, type, gateway, expires_at AS "expiresAt", auto_renew AS "autoRenew" FROM subscriptions WHERE user_id = $1`,
      [fan.id],
    );
    expect(row).toMatchObject({ status: 'active', type: 'gift', gateway: 'free', autoRenew: false });
    expect((new Date(row.expiresAt).getTime() - Date.now()) / (365 * 24 * 3600 * 1000)).toBeCloseTo(1, 2);
    // Replayed, or any later event of that subscription: nothing changes.
    await webhook(event('customer.subscription.deleted', { id: paid.subscriptionId, status: 'canceled' }));
    expect(await access(fan)).toBe(true);
  });

  it('a renewal paid by invoice is refunded through the PaymentIntent Stripe names for its invoice', async () => {
    const fan = await registerFan(t);
    const paid = await join(fan);
    const invoice = stand.renew(paid.subscriptionId);
    await webhook(event('invoice.paid', invoice));
    const [renewal] = await t.db.query<{ id: string; fee: number }>(
      `SELECT id, fee_cents AS fee FROM payments WHERE gateway_invoice_id = $1 AND kind = 'renewal'`,
      [invoice.id],
    );
    expect(renewal.fee).toBe(500);
    const mark = stand.calls.length;
    const answer = await call(t.url, 'POST', `/payments/${renewal.id}/refund`, {
      token: artist.token,
      body: { reason: 'Forgot to cancel' },
    });
    expect(answer.body.data).toMatchObject({ refundedNow: 49.99, endedAccess: true });
    const made = stand.calls.slice(mark);
    expect(made.find((c) => c.path === '/v1/invoice_payments')?.method).toBe('GET');
    expect(made.find((c) => c.path === '/v1/refunds')?.body).toMatchObject({ payment_intent: invoice.payment_intent_id, amount: '4999' });
  });

  it('Connect: onboarding makes an Express account and a link; once it takes payouts, charges go there less the 10% fee', async () => {
    const band = await registerFan(t, 'connectband');
    await makeArtist(t, band, { yearlyPriceCents: 2500, name: 'Connect Band' });
    const mark = stand.calls.length;
    const link = await call(t.url, 'POST', '/performers/me/payouts/onboarding', { token: band.token });
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    const made = stand.calls.slice(mark);
    const account = made.find((c) => c.path === '/v1/accounts')!;
    expect(account.body).toMatchObject({ type: 'express', email: band.email, metadata: { artistId: band.id } });
    expect(account.idempotencyKey).toBe(`account-${band.id}`);
    const accountId = [...stand.accounts.keys()].at(-1)!;
    expect(link.body.data.url).toBe(`https://connect.stripe.test/setup/e/${accountId}`);
    expect(made.find((c) => c.path === '/v1/account_links')!.body).toMatchObject({
      account: accountId,
      type: 'account_onboarding',
      return_url: `http://web.test/${band.username}/account/earnings?payouts=return`,
      refresh_url: `http://web.test/${band.username}/account/earnings?payouts=refresh`,
    });
    const pending = await call(t.url, 'POST', '/performers/me/payouts/refresh', { token: band.token });
    expect(pending.body.data.payoutStatus).toBe('pending');

    // Before payouts work, a fan's payment is charged on the platform: the artist's share is held.
    const early = await registerFan(t);
    const held = await join(early, band);
    expect(stand.subscriptions.get(held.subscriptionId)!.transfer_data).toBeNull();
    expect(await payment(held.paymentId)).toMatchObject({ fee: 250, payout: null });

    // A second link reuses the account.
    const again = stand.calls.length;
    await call(t.url, 'POST', '/performers/me/payouts/onboarding', { token: band.token });
    expect(stand.calls.slice(again).filter((c) => c.path === '/v1/accounts')).toHaveLength(0);

    stand.completeOnboarding(accountId);
    await webhook(event('account.updated', { id: accountId, object: 'account', payouts_enabled: true, details_submitted: true }));
    const enabled = await call(t.url, 'GET', '/performers/me/money', { token: band.token });
    expect(enabled.body.data.payoutStatus).toBe('enabled');

    const fan = await registerFan(t);
    const paid = await join(fan, band);
    const created = stand.calls.filter((c) => c.method === 'POST' && c.path === '/v1/subscriptions').at(-1)!;
    expect(created.body).toMatchObject({ transfer_data: { destination: accountId }, application_fee_percent: '10' });
    expect(stand.intent(paid.intent)).toMatchObject({ transfer_data: { destination: accountId }, application_fee_amount: 250 });
    expect(await payment(paid.paymentId)).toMatchObject({ fee: 250, payout: accountId });
    const list = await call(t.url, 'GET', '/performers/me/payments', { token: band.token });
    expect(list.body.data.data[0]).toMatchObject({ amount: 25, fee: 2.5, payout: 'paid_out' });
    expect(list.body.data.data[1]).toMatchObject({ amount: 25, fee: 2.5, payout: 'held' });

    // A refund of a destination charge takes the share back from the artist's account and the fee from ours.
    const refundMark = stand.calls.length;
    await call(t.url, 'POST', `/payments/${paid.paymentId}/refund`, { token: band.token, body: { reason: 'Test', amount: '10' } });
    expect(stand.calls.slice(refundMark).find((c) => c.path === '/v1/refunds')!.body).toMatchObject({
      reverse_transfer: 'true',
      refund_application_fee: 'true',
    });
    const [{ feeBack }] = await t.db.query<{ feeBack: number }>(
      'SELECT fee_refunded_cents AS "feeBack" FROM refunds WHERE payment_id = $1',
      [paid.paymentId],
    );
    expect(feeBack).toBe(100);
  });

  it('a free trial at Stripe: trial_period_days, nothing charged now; the invoice at its end is the first year', async () => {
    const band = await registerFan(t, 'trialband');
    await makeArtist(t, band, { yearlyPriceCents: 3000, name: 'Trial Band' });
    await t.db.query('UPDATE artist_profiles SET trial_days = 14 WHERE user_id = $1', [band.id]);
    const fan = await registerFan(t);
    const answer = await call(t.url, 'POST', '/payment/subscribe/performers', {
      token: fan.token,
      body: { type: 'yearly', performerId: band.id, paymentGateway: 'stripe', cardId: 'pm_card_visa' },
    });
    expect(answer.body.data).toMatchObject({ status: 'succeeded', amount: 0, subscription: { active: true } });
    const trialEnds = Date.parse(answer.body.data.subscription.trialEndsAt);
    expect(Math.round((trialEnds - Date.now()) / 86_400_000)).toBe(14);
    const created = stand.calls.filter((c) => c.method === 'POST' && c.path === '/v1/subscriptions').at(-1)!;
    expect(created.body.trial_period_days).toBe('14');
    const [row] = await t.db.query<{ sub: string; kind: string }>(
      'SELECT gateway_subscription_id AS sub, kind FROM payments WHERE id = $1',
      [answer.body.data._id],
    );
    expect(row.kind).toBe('trial');
    const [started] = await smtp.waitFor(fan.email, 1);
    expect(started.parsed.subject).toBe('Your free trial of Trial Band’s fan club has started');

    // Stripe charges at the end of the trial and says so with invoice.paid: the first year, the trial over.
    const invoice = stand.renew(row.sub);
    await webhook(event('invoice.paid', invoice));
    const paid = await t.db.query<{ kind: string; amount: number }>(
      `SELECT kind, amount_cents AS amount FROM payments WHERE gateway_invoice_id = $1`,
      [invoice.id],
    );
    expect(paid).toEqual([{ kind: 'subscribe', amount: 3000 }]);
    const after = await call(t.url, 'GET', `/subscriptions/performers/${band.id}`, { token: fan.token });
    expect(after.body.data.trialEndsAt).toBeNull();
  });
});
