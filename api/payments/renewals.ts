import type { ReadCache } from '../cache/read-cache.js';
import { tag } from '../cache/tags.js';
import type { Db } from '../db/client.js';
import type { JobQueue } from '../jobs/queue.js';
import { queueMail } from '../mail/queue.js';
import { FAILURE_MESSAGES, type GatewayOutcome } from './gateway.js';

/**
 * Yearly renewals of the subscriptions we bill ourselves: free memberships and the test gateway's. (Stripe renews
 * its own and tells us through invoice.paid and invoice.payment_failed.) A due subscription with auto-renewal on is
 * charged its artist's current price and extended by a year. A failed charge is tried again 1, 3 and 7 days after
 * the first failure; the fan keeps access meanwhile, and the membership lapses when the last try fails. Every
 * charge mails a receipt, every failure says what happened and when we try again, and 7 days before a paid
 * renewal the fan is reminded. The sweep runs hourly (a job) with the clock it is given, so tests move time.
 */

export interface RenewalCharger {
  chargeRenewal(cardId: string | null, userId: string): Promise<GatewayOutcome>;
}

export interface RenewalContext {
  db: Db;
  cache: ReadCache;
  jobs: JobQueue;
  /** The platform's share of each charge, in percent (PLATFORM_FEE_PERCENT). */
  feePercent?: number;
}

/** Days after the first failed renewal at which it is tried again. */
export const RENEWAL_RETRY_DAYS = [1, 3, 7];
/** How long before a subscription ends it is renewed. */
export const RENEWAL_AHEAD_MS = 24 * 3600 * 1000;
/** How long before a paid renewal the fan is reminded. */
export const REMINDER_AHEAD_DAYS = 7;
const DAY_MS = 24 * 3600 * 1000;
/** A retry is due at a time; the hourly sweep may reach it up to an hour later: access lasts a day past it. */
const RETRY_GRACE_MS = DAY_MS;
const BATCH = 500;

const ONE_YEAR = `interval '1 year'`;

export async function renewDueSubscriptions(rc: RenewalContext, testGateway: RenewalCharger | null, now: Date) {
  const { db } = rc;
  const due = await db.query<{
    id: string;
    userId: string;
    artistId: string;
    gateway: 'free' | 'test';
    cardId: string | null;
    priceCents: number;
    currency: string;
    expiresAt: Date;
    paidUntil: Date | null;
    failures: number;
  }>(
    `SELECT s.id, s.user_id AS "userId", s.artist_id AS "artistId", s.gateway, s.card_id AS "cardId",
            p.yearly_price_cents AS "priceCents", p.currency, s.expires_at AS "expiresAt", s.paid_until AS "paidUntil",
            s.renewal_failures AS failures
       FROM subscriptions s JOIN artist_profiles p ON p.user_id = s.artist_id
      WHERE s.auto_renew AND s.status = 'active' AND s.gateway IN ('free', 'test') AND s.trial_ends_at IS NULL
        AND ((s.renewal_retry_at IS NULL AND s.expires_at <= $1) OR s.renewal_retry_at <= $2)
      ORDER BY s.expires_at LIMIT ${BATCH}`,
    [new Date(now.getTime() + RENEWAL_AHEAD_MS), now],
  );
  let renewed = 0;
  for (const sub of due) {
    // Still due (another node may have renewed it a moment ago)? Each update below checks expires_at is unchanged.
    if (sub.gateway === 'free' || sub.priceCents === 0) {
      const rows = await db.query(
        `UPDATE subscriptions SET expires_at = coalesce(paid_until, expires_at) + ${ONE_YEAR}, paid_until = NULL, renewal_failures = 0,
                renewal_retry_at = NULL, updated_at = now()
          WHERE id = $1 AND expires_at = $2 RETURNING id`,
        [sub.id, sub.expiresAt],
      );
      renewed += rows.length;
      continue;
    }
    if (!testGateway) continue;
    const outcome = await testGateway.chargeRenewal(sub.cardId, sub.userId);
    // The year paid for ends here; a renewal after failed tries still starts from it, not from the day it worked.
    const paidUntil = sub.paidUntil ?? sub.expiresAt;
    await db.transaction(async (tx) => {
      let nextAttempt: Date | null = null;
      let accessUntil: Date;
      if (outcome.status === 'succeeded') {
        const rows = await tx.query<{ expiresAt: Date }>(
          `UPDATE subscriptions SET expires_at = $3::timestamptz + ${ONE_YEAR}, paid_until = NULL, renewal_failures = 0, renewal_retry_at = NULL,
                  price_paid_cents = $4, updated_at = now()
            WHERE id = $1 AND expires_at = $2 RETURNING expires_at AS "expiresAt"`,
          [sub.id, sub.expiresAt, paidUntil, sub.priceCents],
        );
        if (!rows.length) return;
        renewed += 1;
        accessUntil = rows[0].expiresAt;
      } else {
        const failures = sub.failures + 1;
        if (failures <= RENEWAL_RETRY_DAYS.length) {
          const gapDays = RENEWAL_RETRY_DAYS[failures - 1] - (RENEWAL_RETRY_DAYS[failures - 2] ?? 0);
          nextAttempt = new Date(now.getTime() + gapDays * DAY_MS);
          accessUntil = new Date(Math.max(new Date(sub.expiresAt).getTime(), nextAttempt.getTime() + RETRY_GRACE_MS));
        } else {
          // The last try failed: the membership lapses now, or at the end of the paid year if that is later.
          accessUntil = new Date(Math.max(new Date(paidUntil).getTime(), now.getTime()));
        }
        const rows = await tx.query(
          `UPDATE subscriptions SET renewal_failures = $3, renewal_retry_at = $4, paid_until = $5, expires_at = $6,
                  auto_renew = $7, updated_at = now()
            WHERE id = $1 AND expires_at = $2 RETURNING id`,
          [
            sub.id,
            sub.expiresAt,
            nextAttempt ? failures : 0,
            nextAttempt,
            nextAttempt ? paidUntil : null,
            accessUntil,
            nextAttempt !== null,
          ],
        );
        if (!rows.length) return;
        // Access may now end sooner than the cached answer says.
        if (!nextAttempt) await rc.cache.invalidate(tag.fanSubscriptions(sub.userId));
      }
      const reason = outcome.status === 'failed' ? outcome.reason : null;
      const [payment] = await tx.query<{ id: string }>(
        `INSERT INTO payments (user_id, artist_id, subscription_id, gateway, kind, status, amount_cents, list_price_cents, currency,
                               card_id, failure_reason, failure_message, period_end, fee_cents, payout_account_id)
         VALUES ($1, $2, $3, 'test', 'renewal', $4, $5, $5, $6, $7, $8, $9, $10::timestamptz + ${ONE_YEAR},
                 CASE WHEN $4::text = 'succeeded' THEN round($5::int * $11::numeric / 100)::int ELSE 0 END,
                 (SELECT payout_account_id FROM artist_profiles WHERE user_id = $2 AND payout_status = 'enabled'))
         RETURNING id`,
        [
          sub.userId,
          sub.artistId,
          sub.id,
          reason ? 'failed' : 'succeeded',
          sub.priceCents,
          sub.currency,
          sub.cardId,
          reason,
          reason ? FAILURE_MESSAGES[reason] : null,
          paidUntil,
          rc.feePercent ?? 0,
        ],
      );
      if (!reason) await queueMail(rc.jobs, { kind: 'receipt', paymentId: payment.id }, { key: `receipt:${payment.id}`, tx });
      else {
        await queueMail(
          rc.jobs,
          {
            kind: 'renewalFailed',
            paymentId: payment.id,
            nextAttempt: nextAttempt?.toISOString() ?? null,
            accessUntil: accessUntil.toISOString(),
          },
          { key: `renewal-failed:${payment.id}`, tx },
        );
      }
    });
  }
  return { due: due.length, renewed };
}

/**
 * Reminds fans 7 days before a paid yearly renewal (auto-renewal on, the test gateway or Stripe), once per
 * renewal: reminded_for remembers the period end it was sent for, in the transaction that queues the mail.
 */
export async function remindUpcomingRenewals(rc: RenewalContext, now: Date) {
  let reminded = 0;
  for (;;) {
    const sent = await rc.db.transaction(async (tx) => {
      const rows = await tx.query<{ id: string; expiresAt: Date }>(
        `UPDATE subscriptions SET reminded_for = expires_at
          WHERE id IN (
            SELECT s.id FROM subscriptions s JOIN artist_profiles p ON p.user_id = s.artist_id
             WHERE s.auto_renew AND s.status = 'active' AND s.type = 'yearly' AND s.renewal_retry_at IS NULL
               AND s.trial_ends_at IS NULL
               AND (s.gateway = 'stripe' OR (s.gateway = 'test' AND p.yearly_price_cents > 0))
               AND s.expires_at > $1 AND s.expires_at <= $2 AND s.reminded_for IS DISTINCT FROM s.expires_at
             LIMIT ${BATCH})
          RETURNING id, expires_at AS "expiresAt"`,
        [now, new Date(now.getTime() + REMINDER_AHEAD_DAYS * DAY_MS)],
      );
      for (const row of rows) {
        const renewsAt = new Date(row.expiresAt).toISOString();
        await queueMail(
          rc.jobs,
          { kind: 'renewalReminder', subscriptionId: row.id, renewsAt },
          { key: `reminder:${row.id}:${renewsAt}`, tx },
        );
      }
      return rows.length;
    });
    reminded += sent;
    if (sent < BATCH) return reminded;
  }
}
