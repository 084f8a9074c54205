import { formatCents } from '#contract/money';
import type { ApiContext } from '../context.js';
import { one, type Queryable } from '../db/client.js';
import { findSender, formatDate } from './jobs.js';
import * as templates from './money-templates.js';
import { discountedCents } from '../payments/promos.js';
import { trialCharge } from '../payments/trials.js';
import type { Template } from './templates.js';
import type { MoneyMailJob } from './kinds.js';

async function recipient(db: Queryable, userId: string) {
  return one<{ email: string; name: string }>(
    db,
    `SELECT email, coalesce(nullif(name, ''), username) AS name FROM users WHERE id = $1 AND status = 'active'`,
    [userId],
  );
}

export async function buildMoneyMail(
  ctx: Pick<ApiContext, 'db' | 'config'>,
  job: MoneyMailJob,
): Promise<{ to: string; template: Template } | undefined> {
  const { db, config } = ctx;
  const web = config.publicWebUrl;
  switch (job.kind) {
    case 'trialStarted': {
      const payment = await one<{
        userId: string;
        artistId: string;
        listCents: number;
        percentOff: number | null;
        amountOffCents: number | null;
        currency: string;
        trialEnds: Date;
        brand: string | null;
        last4: string | null;
      }>(
        db,
        `SELECT p.user_id AS "userId", p.artist_id AS "artistId", p.list_price_cents AS "listCents", pc.percent_off AS "percentOff",
                pc.amount_off_cents AS "amountOffCents", p.currency, p.period_end AS "trialEnds", c.brand, c.last4
           FROM payments p LEFT JOIN promo_codes pc ON pc.id = p.promo_code_id LEFT JOIN test_gateway_cards c ON c.id = p.card_id
          WHERE p.id = $1`,
        [job.paymentId],
      );
      if (!payment) return undefined;
      const [fan, from] = await Promise.all([recipient(db, payment.userId), findSender(db, config, payment.artistId)]);
      if (!fan || !from) return undefined;
      return {
        to: fan.email,
        template: templates.trialStarted({
          artist: from.sender,
          trialEnds: formatDate(payment.trialEnds),
          amount: formatCents(discountedCents(payment.listCents, payment, payment.currency), payment.currency),
          card: payment.brand && payment.last4 ? `${payment.brand} ending ${payment.last4}` : null,
          accountUrl: `${web}/${from.artist.username}/account`,
        }),
      };
    }
    case 'trialEnding': {
      const charge = await trialCharge(db, job.subscriptionId);
      if (!charge) return undefined;
      const [fan, from] = await Promise.all([recipient(db, charge.userId), findSender(db, config, charge.artistId)]);
      if (!fan || !from) return undefined;
      return {
        to: fan.email,
        template: templates.trialEnding({
          artist: from.sender,
          trialEnds: formatDate(job.trialEndsAt),
          amount: formatCents(charge.amountCents, charge.currency),
          accountUrl: `${web}/${from.artist.username}/account`,
        }),
      };
    }
    case 'refund': {
      const refund = await one<{
        userId: string;
        artistId: string;
        amountCents: number;
        paidCents: number;
        currency: string;
        reason: string;
        endsAccess: boolean;
        createdAt: Date;
        kind: string;
      }>(
        db,
        `SELECT p.user_id AS "userId", p.artist_id AS "artistId", r.amount_cents AS "amountCents", p.amount_cents AS "paidCents",
                p.currency, r.reason, r.ends_access AS "endsAccess", r.created_at AS "createdAt", p.kind
           FROM refunds r JOIN payments p ON p.id = r.payment_id WHERE r.id = $1`,
        [job.refundId],
      );
      if (!refund) return undefined;
      const [fan, from] = await Promise.all([recipient(db, refund.userId), findSender(db, config, refund.artistId)]);
      if (!fan || !from) return undefined;
      return {
        to: fan.email,
        template: templates.refund({
          artist: from.sender,
          amount: formatCents(refund.amountCents, refund.currency),
          paid: formatCents(refund.paidCents, refund.currency),
          reason: refund.reason || 'Refunded at your request.',
          date: formatDate(refund.createdAt),
          // A gift's refund goes to its buyer, whose own membership (if any) is not what ended.
          accessEnded: refund.endsAccess && refund.kind !== 'gift',
          accountUrl: `${web}/${from.artist.username}/account`,
          subscribeUrl: `${web}/${from.artist.username}/subscribe`,
        }),
      };
    }
    case 'disputeOpened': {
      const payment = await one<{ artistId: string; fan: string; amountCents: number; currency: string; createdAt: Date }>(
        db,
        `SELECT p.artist_id AS "artistId", coalesce(nullif(u.name, ''), u.username) AS fan, p.amount_cents AS "amountCents",
                p.currency, p.created_at AS "createdAt"
           FROM payments p JOIN users u ON u.id = p.user_id WHERE p.id = $1`,
        [job.paymentId],
      );
      if (!payment) return undefined;
      const [artist, from] = await Promise.all([recipient(db, payment.artistId), findSender(db, config, payment.artistId)]);
      if (!artist || !from) return undefined;
      return {
        to: artist.email,
        template: templates.disputeOpened({
          artistName: from.sender.name,
          fan: payment.fan,
          amount: formatCents(payment.amountCents, payment.currency),
          date: formatDate(payment.createdAt),
          earningsUrl: `${web}/${from.artist.username}/account/earnings`,
        }),
      };
    }
    case 'gift':
    case 'giftReceipt': {
      const gift = await one<{
        artistId: string;
        buyerId: string;
        recipientEmail: string;
        message: string;
        amountCents: number;
        currency: string;
        createdAt: Date;
        brand: string | null;
        last4: string | null;
      }>(
        db,
        `SELECT g.artist_id AS "artistId", g.buyer_id AS "buyerId", g.recipient_email AS "recipientEmail", g.message,
                p.amount_cents AS "amountCents", p.currency, p.created_at AS "createdAt", c.brand, c.last4
           FROM gifts g JOIN payments p ON p.id = g.payment_id LEFT JOIN test_gateway_cards c ON c.id = p.card_id
          WHERE g.id = $1 AND p.status = 'succeeded'`,
        [job.giftId],
      );
      if (!gift) return undefined;
      const [buyer, from] = await Promise.all([recipient(db, gift.buyerId), findSender(db, config, gift.artistId)]);
      if (!buyer || !from) return undefined;
      if (job.kind === 'giftReceipt') {
        return {
          to: buyer.email,
          template: templates.giftReceipt({
            artist: from.sender,
            amount: formatCents(gift.amountCents, gift.currency),
            recipient: gift.recipientEmail,
            date: formatDate(gift.createdAt),
            card: gift.brand && gift.last4 ? `${gift.brand} ending ${gift.last4}` : null,
          }),
        };
      }
      return {
        to: gift.recipientEmail,
        template: templates.gift({
          artist: from.sender,
          from: buyer.name,
          message: gift.message,
          redeemUrl: job.link,
          expiresNote: 'Open it whenever you like: your year starts the day you do.',
        }),
      };
    }
  }
}
