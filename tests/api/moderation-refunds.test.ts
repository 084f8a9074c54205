import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moderationMessages } from '#contract/moderation';
import { call, describeEachDatabase, makeArtist, registerFan, startTestApi, type TestApi, type TestUser } from '../helpers/api';
import { startSmtp, type TestSmtp } from '../helpers/notify';
import { startStripeStandIn, type StripeStandIn } from '../helpers/stripe-stand-in';

/**
 * An artist blocks a fan and also ends their membership with a refund of its unused part: the amount shown first
 * (prorated by the unused days of the period the payment paid for), the refund rows and the gateway's refund, access
 * gone and no renewal, once however often the form is sent; a free membership just ends; a gift's year is refunded
 * to its buyer; nothing is refunded twice. With the test gateway and mail through a real SMTP server, and with the
 * real Stripe SDK against the local stand-in.
 */

const CARD = { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' };
const DAY = 24 * 3600 * 1000;
/** The card year is half used: paid 182 days ago, 183 days of 365 left. */
const HALF_USED = `UPDATE payments SET created_at = now() - interval '182 days' WHERE id = $1`;
const HALF_LEFT = `UPDATE subscriptions SET expires_at = now() + interval '183 days', started_at = now() - interval '182 days'
                    WHERE id = (SELECT subscription_id FROM payments WHERE id = $1)`;

interface Shown {
  free: boolean;
  disputed: boolean;
  refunds: { kind: 'card' | 'gift'; amount: string; amountCents: number; unusedDays: number; periodDays: number }[];
  totalCents: number;
  total: string;
}

describeEachDatabase('ending a blocked fan’s membership with a refund', (database) => {
  let t: TestApi;
  let smtp: TestSmtp;
  let artist: TestUser;
  let freeArtist: TestUser;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startTestApi({ database: database.name, env: { SMTP_URL: smtp.url, PUBLIC_WEB_URL: 'https://fans.example' } });
    artist = await registerFan(t, 'endrefund');
    await makeArtist(t, artist, { yearlyPriceCents: 2000, name: 'Refund Band' });
    freeArtist = await registerFan(t, 'endfree');
    await makeArtist(t, freeArtist, { yearlyPriceCents: 0, name: 'Free Band' });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const card = async (fan: TestUser) =>
    (await call(t.url, 'POST', '/payment/test-gateway/cards', { token: fan.token, body: CARD })).body.data.id as string;
  /** A fan whose card year with the artist is half used; answers the fan and the payment. */
  async function halfUsedFan() {
    const fan = await registerFan(t);
    const paid = await call(t.url, 'POST', '/payment/subscribe/performers', {
      token: fan.token,
      body: { type: 'yearly', performerId: artist.id, paymentGateway: 'test', cardId: await card(fan) },
    });
    expect(paid.body.data.status, JSON.stringify(paid.body)).toBe('succeeded');
    const paymentId = paid.body.data._id as string;
    await t.db.query(HALF_USED, [paymentId]);
    await t.db.query(HALF_LEFT, [paymentId]);
    // The receipt first, so that the mails a test waits for come after it.
    await smtp.waitFor(fan.email, 1);
    return { fan, paymentId };
  }
  const shown = async (fan: TestUser, by = artist) => {
    const answer = await call(t.url, 'GET', `/moderation/fans/${fan.id}`, { token: by.token });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data.membership as Shown | null;
  };
  const blockAndEnd = (fan: TestUser, refundCents?: number, by = artist) =>
    call(t.url, 'PUT', `/moderation/blocks/${fan.id}`, { token: by.token, body: { endMembership: true, refundCents } });
  const access = async (fan: TestUser, of = artist) =>
    (await call(t.url, 'GET', `/performers/${of.username}`, { token: fan.token })).body.data.isSubscribed as boolean;
  const refundRows = (paymentId: string) =>
    t.db.query<{ amount: number; status: string; endsAccess: boolean; source: string }>(
      `SELECT amount_cents AS amount, status, ends_access AS "endsAccess", source FROM refunds WHERE payment_id = $1 ORDER BY created_at`,
      [paymentId],
    );
  const subscription = async (fan: TestUser, of = artist) =>
    (
      await t.db.query<{ status: string; autoRenew: boolean; expiresAt: Date }>(
        `SELECT status, auto_renew AS "autoRenew", expires_at AS "expiresAt" FROM subscriptions WHERE user_id = $1 AND artist_id = $2`,
        [fan.id, of.id],
      )
    )[0];

  it('a card year half used: the confirmation shows the prorated amount, and ending refunds exactly it and ends access', async () => {
    const { fan, paymentId } = await halfUsedFan();
    // 183 of 365 days unused of the $20.00 paid.
    const expected = Math.round((2000 * 183) / 365);
    expect(await shown(fan)).toEqual({
      free: false,
      disputed: false,
      refunds: [{ kind: 'card', amount: `$${(expected / 100).toFixed(2)}`, amountCents: expected, unusedDays: 183, periodDays: 365 }],
      totalCents: expected,
      total: `$${(expected / 100).toFixed(2)}`,
    });
    expect(await access(fan)).toBe(true);

    const answer = await blockAndEnd(fan, expected);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toEqual({ fanId: fan.id, blocked: true, membershipEnded: true, refunded: expected / 100 });

    // The ledger: one refund of the unused part, made, ending access; the payment counts it.
    expect(await refundRows(paymentId)).toEqual([{ amount: expected, status: 'succeeded', endsAccess: true, source: 'artist' }]);
    const [payment] = await t.db.query<{ refunded: number }>('SELECT refunded_cents AS refunded FROM payments WHERE id = $1', [paymentId]);
    expect(payment.refunded).toBe(expected);
    // Access: gone now, and never renewed.
    expect(await access(fan)).toBe(false);
    const after = await subscription(fan);
    expect(after).toMatchObject({ status: 'refunded', autoRenew: false });
    expect(after.expiresAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await shown(fan)).toBeNull();
    // The fan is told, as every refund tells them.
    const mail = (await smtp.waitFor(fan.email, 2)).find((m) => m.parsed.subject?.includes('refunded'))!;
    expect(mail.parsed.subject).toBe(`Refund Band refunded $${(expected / 100).toFixed(2)}`);
    expect(mail.parsed.text).toContain(moderationMessages.refundReason('Refund Band'));
    // The artist's log says what was done.
    const log = (await call(t.url, 'GET', '/moderation/audit', { token: artist.token })).body.data.data as {
      action: string;
      subject: string;
      detail: string;
    }[];
    expect(log.find((entry) => entry.action === 'ended membership' && entry.subject === `@${fan.username}`)?.detail).toBe(
      `Refunded the unused part: $${(expected / 100).toFixed(2)}`,
    );
  });

  it('a form sent twice, one after the other or both at once, refunds once', async () => {
    const { fan, paymentId } = await halfUsedFan();
    const { totalCents } = (await shown(fan))!;
    expect((await blockAndEnd(fan, totalCents)).body.data).toMatchObject({ membershipEnded: true, refunded: totalCents / 100 });
    const again = await blockAndEnd(fan, totalCents);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data).toMatchObject({ blocked: true, membershipEnded: false, refunded: 0 });
    expect(await refundRows(paymentId)).toHaveLength(1);

    // Less than half unused, so that two refunds of it would still fit in what was paid: only the key stops a second.
    const second = await halfUsedFan();
    await t.db.query(`UPDATE subscriptions SET expires_at = now() + interval '100 days' WHERE user_id = $1`, [second.fan.id]);
    const { totalCents: fewer } = (await shown(second.fan))!;
    expect(fewer).toBe(Math.round((2000 * 100) / 282));
    const both = await Promise.all([blockAndEnd(second.fan, fewer), blockAndEnd(second.fan, fewer)]);
    expect(both.map((answer) => answer.status)).toEqual([200, 200]);
    expect(both.reduce((sum, answer) => sum + answer.body.data.refunded, 0)).toBe(fewer / 100);
    expect(await refundRows(second.paymentId)).toHaveLength(1);
    expect(await access(second.fan)).toBe(false);
  });

  it('a free membership just ends: nothing refunded, access gone', async () => {
    const fan = await registerFan(t);
    const joined = await call(t.url, 'POST', '/payment/subscribe/performers', {
      token: fan.token,
      body: { type: 'free', performerId: freeArtist.id },
    });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect(await access(fan, freeArtist)).toBe(true);
    expect(await shown(fan, freeArtist)).toMatchObject({ free: true, refunds: [], totalCents: 0 });

    const answer = await blockAndEnd(fan, 0, freeArtist);
    expect(answer.body.data).toMatchObject({ membershipEnded: true, refunded: 0 });
    expect(await access(fan, freeArtist)).toBe(false);
    expect(await subscription(fan, freeArtist)).toMatchObject({ status: 'expired', autoRenew: false });
    const [{ n }] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM refunds r JOIN payments p ON p.id = r.payment_id WHERE p.user_id = $1',
      [fan.id],
    );
    expect(n).toBe(0);
    // No refund mail to tell them, so a mail of its own does (after the free membership's welcome).
    const ended = (await smtp.waitFor(fan.email, 2)).find((m) => m.parsed.subject === 'Your Free Band membership has ended');
    expect(ended?.parsed.text).toContain('Free Band ended your membership of their fan club today.');
  });

  it('a payment already refunded is not refunded again: the membership kept after it just ends', async () => {
    const { fan, paymentId } = await halfUsedFan();
    const refunded = await call(t.url, 'POST', `/payments/${paymentId}/refund`, {
      token: artist.token,
      body: { reason: 'Goodwill', keepAccess: true },
    });
    expect(refunded.body.data, JSON.stringify(refunded.body)).toMatchObject({ endedAccess: false });
    expect(await access(fan)).toBe(true);
    expect(await shown(fan)).toMatchObject({ free: true, refunds: [], totalCents: 0 });

    const answer = await blockAndEnd(fan, 0);
    expect(answer.body.data).toMatchObject({ membershipEnded: true, refunded: 0 });
    expect(await refundRows(paymentId)).toHaveLength(1);
    expect(await access(fan)).toBe(false);
  });

  it('a partly refunded payment gives back the unused share of what is left of it', async () => {
    const { fan, paymentId } = await halfUsedFan();
    await call(t.url, 'POST', `/payments/${paymentId}/refund`, { token: artist.token, body: { amount: '10', reason: 'Half back' } });
    const expected = Math.round((1000 * 183) / 365);
    expect((await shown(fan))!.totalCents).toBe(expected);
    expect((await blockAndEnd(fan, expected)).body.data).toMatchObject({ refunded: expected / 100 });
    const [payment] = await t.db.query<{ refunded: number }>('SELECT refunded_cents AS refunded FROM payments WHERE id = $1', [paymentId]);
    expect(payment.refunded).toBe(1000 + expected);
  });

  it('a total that changed since the page was shown is asked about again, not refunded; the block stands', async () => {
    const { fan, paymentId } = await halfUsedFan();
    const { total, totalCents } = (await shown(fan))!;
    const answer = await blockAndEnd(fan, totalCents + 5);
    expect(answer.status).toBe(409);
    expect(answer.body.message).toBe(moderationMessages.refundChanged(total));
    expect(await refundRows(paymentId)).toHaveLength(0);
    expect(await access(fan)).toBe(true);
    expect((await call(t.url, 'GET', `/moderation/fans/${fan.id}`, { token: artist.token })).body.data.blocked).toBe(true);
  });

  it('a gift’s year after the card year: the gift’s buyer gets its unused part, the fan theirs, and nothing is left', async () => {
    const { fan, paymentId } = await halfUsedFan();
    const buyer = await registerFan(t, 'giver');
    const bought = await call(t.url, 'POST', '/gifts', {
      token: buyer.token,
      body: { performerId: artist.id, recipientEmail: fan.email, paymentGateway: 'test', cardId: await card(buyer) },
    });
    expect(bought.body.data.status, JSON.stringify(bought.body)).toBe('succeeded');
    const giftMail = (await smtp.waitFor(fan.email, 2)).find((m) => (m.parsed.text ?? '').includes('/gift/'))!;
    const link = /https:\/\/fans\.example\/gift\/([\w-]+)/.exec(giftMail.parsed.text ?? '')![1];
    expect((await call(t.url, 'POST', `/gifts/${link}/redeem`, { token: fan.token })).body.data?.state).toBe('yours');
    const giftPayment = bought.body.data._id as string;

    const cardPart = Math.round((2000 * 183) / 365);
    const seen = (await shown(fan))!;
    // The gift's year is all unused (it starts after the card year): a year of 365 or 366 days.
    const giftDays = seen.refunds[0]?.periodDays;
    expect([365, 366]).toContain(giftDays);
    expect(seen.refunds.map(({ kind, amountCents, unusedDays, periodDays }) => ({ kind, amountCents, unusedDays, periodDays }))).toEqual([
      { kind: 'gift', amountCents: 2000, unusedDays: giftDays, periodDays: giftDays },
      { kind: 'card', amountCents: cardPart, unusedDays: 183, periodDays: 365 },
    ]);
    expect(seen.totalCents).toBe(2000 + cardPart);

    expect((await blockAndEnd(fan, seen.totalCents)).body.data).toMatchObject({ membershipEnded: true, refunded: (2000 + cardPart) / 100 });
    expect(await refundRows(giftPayment)).toMatchObject([{ amount: 2000, status: 'succeeded' }]);
    expect(await refundRows(paymentId)).toMatchObject([{ amount: cardPart, status: 'succeeded', endsAccess: true }]);
    expect(await access(fan)).toBe(false);
    expect((await subscription(fan)).status).toBe('refunded');
    // The gift reads as refunded, never as paid, and its buyer is told.
    expect((await call(t.url, 'GET', `/gifts/${link}`, { token: fan.token })).body.data.state).toBe('void');
    const buyerMail = (await smtp.waitFor(buyer.email, 2)).find((m) => m.parsed.subject?.includes('refunded'))!;
    expect(buyerMail.parsed.text).toContain(moderationMessages.giftRefundReason('Refund Band'));
    // The fan's own mail says the membership ended.
    const fanMail = (await smtp.waitFor(fan.email, 3)).find((m) => m.parsed.subject?.includes('refunded'))!;
    expect(fanMail.parsed.text).not.toContain('carries on');
  });

  it('a fan is refused; nothing runs: blocking with the option ends nothing', async () => {
    const fan = await registerFan(t);
    const other = await registerFan(t);
    expect((await call(t.url, 'PUT', `/moderation/blocks/${other.id}`, { token: fan.token, body: { endMembership: true } })).status).toBe(
      403,
    );
    const answer = await blockAndEnd(other);
    expect(answer.body.data).toMatchObject({ blocked: true, membershipEnded: false, refunded: 0 });
  });

  describe('with Stripe (local stand-in)', () => {
    let stand: StripeStandIn;
    let s: TestApi;
    let stripeArtist: TestUser;
    beforeAll(async () => {
      stand = await startStripeStandIn();
      s = await startTestApi({
        database: database.name,
        env: {
          STRIPE_SECRET_KEY: 'sk_test_block',
          STRIPE_PUBLISHABLE_KEY: 'pk_test_block',
          STRIPE_WEBHOOK_SECRET: 'whsec_test_block',
          STRIPE_API_URL: stand.url,
          PUBLIC_WEB_URL: 'http://web.test',
        },
      });
      stripeArtist = await registerFan(s, 'stripeblock');
      await makeArtist(s, stripeArtist, { yearlyPriceCents: 4999, name: 'Stripe Block' });
    });
    afterAll(async () => {
      await s?.close();
      await stand?.close();
    });

    it('refunds the unused part through Stripe’s refund API and cancels the subscription so it never renews', async () => {
      const fan = await registerFan(s);
      const paid = await call(s.url, 'POST', '/payment/subscribe/performers', {
        token: fan.token,
        body: { type: 'yearly', performerId: stripeArtist.id, paymentGateway: 'stripe', cardId: 'pm_card_visa' },
      });
      expect(paid.body.data?.status, JSON.stringify(paid.body)).toBe('succeeded');
      const paymentId = paid.body.data._id as string;
      await s.db.query(HALF_USED, [paymentId]);
      await s.db.query(HALF_LEFT, [paymentId]);
      const [{ sub }] = await s.db.query<{ sub: string }>('SELECT gateway_subscription_id AS sub FROM payments WHERE id = $1', [paymentId]);
      const expected = Math.round((4999 * 183) / 365);
      const membership = (await call(s.url, 'GET', `/moderation/fans/${fan.id}`, { token: stripeArtist.token })).body.data
        .membership as Shown;
      expect(membership.totalCents).toBe(expected);

      const mark = stand.calls.length;
      const answer = await call(s.url, 'PUT', `/moderation/blocks/${fan.id}`, {
        token: stripeArtist.token,
        body: { endMembership: true, refundCents: expected },
      });
      expect(answer.body.data, JSON.stringify(answer.body)).toMatchObject({ membershipEnded: true, refunded: expected / 100 });
      const calls = stand.calls.slice(mark);
      expect(calls.filter((c) => c.path === '/v1/refunds')).toMatchObject([
        { idempotencyKey: `refund-${paymentId}-0`, body: { amount: String(expected) } },
      ]);
      expect(calls.some((c) => c.method === 'DELETE' && c.path === `/v1/subscriptions/${sub}`)).toBe(true);
      expect((await call(s.url, 'GET', `/performers/${stripeArtist.username}`, { token: fan.token })).body.data.isSubscribed).toBe(false);
      // Within a day of now: it ended today.
      const [row] = await s.db.query<{ expiresAt: Date }>('SELECT expires_at AS "expiresAt" FROM subscriptions WHERE user_id = $1', [
        fan.id,
      ]);
      expect(Math.abs(row.expiresAt.getTime() - Date.now())).toBeLessThan(DAY);
    });
  });
});
