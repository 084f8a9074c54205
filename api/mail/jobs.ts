import type { Config } from '#contract/config';
import { formatPrice } from '#contract/money';
import type { ApiContext } from '../context.js';
import { one, type Queryable } from '../db/client.js';
import { FAILURE_MESSAGES, type FailureReason } from '../payments/gateway.js';
import { renderMail } from './render.js';
import * as templates from './templates.js';
import type { Sender } from './layout.js';
import type { MailJob } from './kinds.js';
import { buildMoneyMail } from './money-mails.js';

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
export const formatDate = (date: Date | string) => dateFormat.format(new Date(date));
const money = (cents: number, currency: string) => formatPrice(cents / 100, currency);

/** An image the profile names, as an absolute URL a mail client can load. */
export function absoluteImage(config: Config, path: string | null | undefined) {
  if (!path) return null;
  if (/^https?:\/\//.test(path)) return path;
  return `${path.startsWith('/performers/images/') ? config.publicApiUrl : config.publicWebUrl}${path}`;
}

interface ArtistRow {
  id: string;
  username: string;
  name: string;
  avatar: string;
}

export async function findSender(db: Queryable, config: Config, artistId: string) {
  const artist = await one<ArtistRow>(db, 'SELECT id, username, name, avatar FROM users WHERE id = $1', [artistId]);
  if (!artist) return undefined;
  const sender: Sender = { name: artist.name || artist.username, imageUrl: absoluteImage(config, artist.avatar) };
  return { artist, sender };
}

const links = (config: Config, username: string) => ({
  artistUrl: `${config.publicWebUrl}/${username}`,
  accountUrl: `${config.publicWebUrl}/${username}/account`,
  subscribeUrl: `${config.publicWebUrl}/${username}/subscribe`,
});

/** Builds the mail a job stands for from the database as it is now; undefined when there is no longer anyone to send it to. */
export async function buildMail(
  ctx: Pick<ApiContext, 'db' | 'config'>,
  job: MailJob,
): Promise<{ to: string; template: templates.Template } | undefined> {
  const { db, config } = ctx;
  switch (job.kind) {
    case 'receipt':
    case 'renewalFailed': {
      const payment = await one<{
        userId: string;
        artistId: string;
        kind: 'subscribe' | 'renewal';
        amountCents: number;
        listPriceCents: number;
        currency: string;
        promo: string | null;
        brand: string | null;
        last4: string | null;
        createdAt: Date;
        periodEnd: Date | null;
        expiresAt: Date | null;
        failureReason: FailureReason | null;
        failureMessage: string | null;
      }>(
        db,
        `SELECT p.user_id AS "userId", p.artist_id AS "artistId", p.kind, p.amount_cents AS "amountCents",
                p.list_price_cents AS "listPriceCents", p.currency, pc.code AS promo, c.brand, c.last4, p.created_at AS "createdAt",
                p.period_end AS "periodEnd", s.expires_at AS "expiresAt", p.failure_reason AS "failureReason", p.failure_message AS "failureMessage"
           FROM payments p LEFT JOIN promo_codes pc ON pc.id = p.promo_code_id
           LEFT JOIN test_gateway_cards c ON c.id = p.card_id
           LEFT JOIN subscriptions s ON s.id = p.subscription_id
          WHERE p.id = $1`,
        [job.paymentId],
      );
      if (!payment) return undefined;
      const [fan, from] = await Promise.all([recipient(db, payment.userId), findSender(db, config, payment.artistId)]);
      if (!fan || !from) return undefined;
      const link = links(config, from.artist.username);
      if (job.kind === 'renewalFailed') {
        const reason =
          payment.failureMessage ?? (payment.failureReason ? FAILURE_MESSAGES[payment.failureReason] : FAILURE_MESSAGES.card_declined);
        return {
          to: fan.email,
          template: templates.renewalFailed({
            artist: from.sender,
            amount: money(payment.amountCents, payment.currency),
            reason,
            nextAttempt: job.nextAttempt && formatDate(job.nextAttempt),
            accessUntil: formatDate(job.accessUntil),
            accountUrl: link.accountUrl,
            subscribeUrl: link.subscribeUrl,
          }),
        };
      }
      return {
        to: fan.email,
        template: templates.receipt({
          artist: from.sender,
          amount: money(payment.amountCents, payment.currency),
          listPrice: money(payment.listPriceCents, payment.currency),
          promo: payment.promo,
          card: payment.brand && payment.last4 ? `${payment.brand} ending ${payment.last4}` : null,
          date: formatDate(payment.createdAt),
          nextRenewal: formatDate(payment.periodEnd ?? payment.expiresAt ?? payment.createdAt),
          renewal: payment.kind === 'renewal',
          accountUrl: link.accountUrl,
        }),
      };
    }
    case 'renewalReminder':
    case 'renewalChanged':
    case 'membershipEnded':
    case 'welcome': {
      const subscription = await one<{
        userId: string;
        artistId: string;
        expiresAt: Date;
        gateway: string;
        priceCents: number;
        lastListCents: number | null;
        currency: string;
      }>(
        db,
        `SELECT s.user_id AS "userId", s.artist_id AS "artistId", s.expires_at AS "expiresAt", s.gateway,
                p.yearly_price_cents AS "priceCents", s.currency,
                (SELECT list_price_cents FROM payments WHERE subscription_id = s.id AND status = 'succeeded' ORDER BY created_at DESC LIMIT 1) AS "lastListCents"
           FROM subscriptions s JOIN artist_profiles p ON p.user_id = s.artist_id WHERE s.id = $1`,
        [job.subscriptionId],
      );
      if (!subscription) return undefined;
      const [fan, from] = await Promise.all([recipient(db, subscription.userId), findSender(db, config, subscription.artistId)]);
      if (!fan || !from) return undefined;
      const link = links(config, from.artist.username);
      // Stripe renews at the price the subscription was made with; we renew the others at the artist's price now.
      const renewalCents =
        subscription.gateway === 'stripe' ? (subscription.lastListCents ?? subscription.priceCents) : subscription.priceCents;
      const amount = money(renewalCents, subscription.currency);
      if (job.kind === 'membershipEnded')
        return { to: fan.email, template: templates.membershipEnded({ artist: from.sender, artistUrl: link.artistUrl }) };
      if (job.kind === 'welcome')
        return {
          to: fan.email,
          template: templates.welcome({ artist: from.sender, artistUrl: link.artistUrl, accountUrl: link.accountUrl }),
        };
      if (job.kind === 'renewalReminder') {
        return {
          to: fan.email,
          template: templates.renewalReminder({
            artist: from.sender,
            amount,
            renewalDate: formatDate(job.renewsAt),
            accountUrl: link.accountUrl,
          }),
        };
      }
      return {
        to: fan.email,
        template: templates.renewalChanged({
          artist: from.sender,
          autoRenew: job.autoRenew,
          date: formatDate(subscription.expiresAt),
          amount,
          accountUrl: link.accountUrl,
        }),
      };
    }
    case 'trialStarted':
    case 'trialEnding':
    case 'refund':
    case 'disputeOpened':
    case 'gift':
    case 'giftReceipt':
      return buildMoneyMail(ctx, job);
    case 'passwordReset': {
      const user = await recipient(db, job.userId);
      return user && { to: user.email, template: templates.passwordReset({ name: user.name, link: job.link }) };
    }
    case 'passwordChanged': {
      const user = await recipient(db, job.userId);
      const resetUrl = `${config.publicWebUrl}/password/reset/request`;
      return user && { to: user.email, template: templates.passwordChanged({ name: user.name, date: formatDate(job.at), resetUrl }) };
    }
    case 'emailConfirm': {
      const user = await recipient(db, job.userId);
      return user && { to: job.newEmail, template: templates.emailConfirm({ name: user.name, newEmail: job.newEmail, link: job.link }) };
    }
    case 'emailChanged': {
      const user = await recipient(db, job.userId);
      const resetUrl = `${config.publicWebUrl}/password/reset/request`;
      return (
        user && {
          to: job.oldEmail,
          template: templates.emailChanged({ name: user.name, newEmail: job.newEmail, date: formatDate(job.at), resetUrl }),
        }
      );
    }
  }
}

async function recipient(db: Queryable, userId: string) {
  const user = await one<{ email: string; name: string; username: string }>(
    db,
    `SELECT email, name, username FROM users WHERE id = $1 AND status = 'active'`,
    [userId],
  );
  return user && { email: user.email, name: user.name || user.username };
}

/** The mail queue's worker: render, then send; a throw (SMTP refused) is retried by the queue. */
export function mailWorker(ctx: Pick<ApiContext, 'db' | 'config' | 'mailer' | 'log'>) {
  return async (job: MailJob, running: { id: string }) => {
    const built = await buildMail(ctx, job);
    if (!built) {
      ctx.log.info({ mail: job.kind }, 'mail: nobody to send it to any more');
      return;
    }
    const mail = await renderMail(built.to, built.template, { messageId: `<${running.id}@stagedoor.mail>` });
    await ctx.mailer.send(mail);
  };
}
