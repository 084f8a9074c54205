import { tag } from '../cache/tags.js';
import { one, type Queryable } from '../db/client.js';
import { queueMail } from '../mail/queue.js';
import { FAILURE_MESSAGES } from './gateway.js';
import { platformFeeCents } from './money-settings.js';
import { discountedCents, releasePromo } from './promos.js';
import type { RenewalCharger, RenewalContext } from './renewals.js';

/**
 * Free trials (docs/payments.md "Free trials"): a new member of a club with a trial gives a card and pays nothing;
 * the membership runs until trial_ends_at, when the first year (after any promo code) is charged. Three days
 * before, the fan is reminded. Turning renewal off during the trial cancels it: nothing is charged and access ends
 * with the trial. Stripe charges its own trials at their end (trial_period_days; invoice.paid tells us); the test
 * gateway's are charged here, by the hourly renewals job, with the clock it is given, so tests move time.
 */

/** How long before a trial ends the fan is reminded. */
export const TRIAL_REMINDER_DAYS = 3;
const DAY_MS = 24 * 3600 * 1000;
const SWEEP_MS = 3600 * 1000;
const BATCH = 500;

/** What the end of a subscription's trial will charge: the price the fan started the trial at, after their promo code. */
export async function trialCharge(db: Queryable, subscriptionId: string) {
  const row = await one<{
    userId: string;
    artistId: string;
    listCents: number;
    currency: string;
    cardId: string | null;
    promoCodeId: string | null;
    percentOff: number | null;
    amountOffCents: number | null;
    payoutAccountId: string | null;
  }>(
    db,
    `SELECT s.user_id AS "userId", s.artist_id AS "artistId", p.list_price_cents AS "listCents", p.currency, s.card_id AS "cardId",
            p.promo_code_id AS "promoCodeId", pc.percent_off AS "percentOff", pc.amount_off_cents AS "amountOffCents",
            CASE WHEN a.payout_status = 'enabled' THEN a.payout_account_id END AS "payoutAccountId"
       FROM subscriptions s
       JOIN payments p ON p.subscription_id = s.id AND p.kind = 'trial' AND p.status = 'succeeded'
       JOIN artist_profiles a ON a.user_id = s.artist_id
       LEFT JOIN promo_codes pc ON pc.id = p.promo_code_id
      WHERE s.id = $1 ORDER BY p.created_at DESC LIMIT 1`,
    [subscriptionId],
  );
  return row && { ...row, amountCents: discountedCents(row.listCents, row, row.currency) };
}

/** Charges the test gateway's trials that have ended (auto-renewal on) and lets the cancelled ones lapse. */
export async function convertTrials(rc: RenewalContext & { feePercent: number }, testGateway: RenewalCharger | null, now: Date) {
  const { db } = rc;
  const due = await db.query<{ id: string; userId: string; trialEndsAt: Date; autoRenew: boolean }>(
    `SELECT id, user_id AS "userId", trial_ends_at AS "trialEndsAt", auto_renew AS "autoRenew"
       FROM subscriptions WHERE trial_ends_at <= $1 AND status = 'active' AND gateway = 'test'
      ORDER BY trial_ends_at LIMIT ${BATCH}`,
    // The sweep runs hourly: a trial ending before the next run is charged now, so access never lapses in between.
    [new Date(now.getTime() + SWEEP_MS)],
  );
  let charged = 0;
  for (const sub of due) {
    const charge = await trialCharge(db, sub.id);
    if (!sub.autoRenew || !charge || !testGateway) {
      // Cancelled during the trial: it simply ends with it.
      await db.query(
        `UPDATE subscriptions SET trial_ends_at = NULL, auto_renew = false, updated_at = now() WHERE id = $1 AND trial_ends_at = $2`,
        [sub.id, sub.trialEndsAt],
      );
      if (charge?.promoCodeId) await releasePromo(db, charge.promoCodeId);
      continue;
    }
    const outcome = await testGateway.chargeRenewal(charge.cardId, charge.userId);
    const reason = outcome.status === 'failed' ? outcome.reason : null;
    await db.transaction(async (tx) => {
      const updated = reason
        ? await tx.query(
            `UPDATE subscriptions SET trial_ends_at = NULL, auto_renew = false, expires_at = least(expires_at, $3), updated_at = now()
              WHERE id = $1 AND trial_ends_at = $2 RETURNING id`,
            [sub.id, sub.trialEndsAt, now],
          )
        : await tx.query(
            `UPDATE subscriptions SET trial_ends_at = NULL, expires_at = $2::timestamptz + interval '1 year', price_paid_cents = $3,
                    updated_at = now()
              WHERE id = $1 AND trial_ends_at = $2 RETURNING id`,
            [sub.id, sub.trialEndsAt, charge.amountCents],
          );
      if (!updated.length) return;
      const [payment] = await tx.query<{ id: string }>(
        `INSERT INTO payments (user_id, artist_id, subscription_id, gateway, kind, status, amount_cents, list_price_cents, currency,
                               card_id, promo_code_id, failure_reason, failure_message, period_end, fee_cents, payout_account_id)
         VALUES ($1, $2, $3, 'test', 'subscribe', $4, $5, $6, $7, $8, $9, $10, $11, $12::timestamptz + interval '1 year', $13, $14)
         RETURNING id`,
        [
          charge.userId,
          charge.artistId,
          sub.id,
          reason ? 'failed' : 'succeeded',
          charge.amountCents,
          charge.listCents,
          charge.currency,
          charge.cardId,
          charge.promoCodeId,
          reason,
          reason ? FAILURE_MESSAGES[reason] : null,
          sub.trialEndsAt,
          reason ? 0 : platformFeeCents(charge.amountCents, rc.feePercent),
          charge.payoutAccountId,
        ],
      );
      if (reason) {
        if (charge.promoCodeId) await releasePromo(tx, charge.promoCodeId);
        await queueMail(
          rc.jobs,
          { kind: 'renewalFailed', paymentId: payment.id, nextAttempt: null, accessUntil: now.toISOString() },
          { key: `trial-failed:${payment.id}`, tx },
        );
      } else {
        charged += 1;
        await queueMail(rc.jobs, { kind: 'receipt', paymentId: payment.id }, { key: `receipt:${payment.id}`, tx });
      }
    });
    if (reason) await rc.cache.invalidate(tag.fanSubscriptions(sub.userId), tag.artist(charge.artistId));
  }
  return { due: due.length, charged };
}

/** Reminds fans 3 days before their trial ends (either gateway), once per trial. */
export async function remindTrialsEnding(rc: RenewalContext, now: Date) {
  return rc.db.transaction(async (tx) => {
    const rows = await tx.query<{ id: string; trialEndsAt: Date }>(
      `UPDATE subscriptions SET trial_reminded_at = $1
        WHERE id IN (
          SELECT id FROM subscriptions
           WHERE trial_ends_at > $1 AND trial_ends_at <= $2 AND trial_reminded_at IS NULL AND auto_renew AND status = 'active'
           LIMIT ${BATCH})
        RETURNING id, trial_ends_at AS "trialEndsAt"`,
      [now, new Date(now.getTime() + TRIAL_REMINDER_DAYS * DAY_MS)],
    );
    for (const row of rows) {
      const trialEndsAt = new Date(row.trialEndsAt).toISOString();
      await queueMail(
        rc.jobs,
        { kind: 'trialEnding', subscriptionId: row.id, trialEndsAt },
        { key: `trial-ending:${row.id}:${trialEndsAt}`, tx },
      );
    }
    return rows.length;
  });
}
