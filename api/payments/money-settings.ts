import type { Config } from '#contract/config';
import type { MoneySettings } from '#contract/earnings';
import { one, type Queryable } from '../db/client.js';

/**
 * What an artist's money turns on: the currency (free to change until a fan has paid in it), the free trial, the
 * platform's fee and where payouts go.
 */

/**
 * True once any payment to the artist has been made or is under way: fans' receipts and renewals are in the currency.
 * As SQL, the artist's id being $1.
 */
const PAID_IN = `EXISTS (SELECT 1 FROM payments WHERE artist_id = $1 AND status <> 'failed')`;

export async function currencyLocked(db: Queryable, artistId: string) {
  const row = await one<{ locked: boolean }>(db, `SELECT ${PAID_IN} AS locked`, [artistId]);
  return row?.locked ?? false;
}

/** The platform's share of an amount (Stripe Connect's application fee), in cents. */
export function platformFeeCents(amountCents: number, percent: number) {
  return Math.round((amountCents * percent) / 100);
}

/** Where the artist's share of a payment goes: their payout account once it can take payouts, else held by the platform. */
export async function payoutDestination(db: Queryable, artistId: string) {
  const row = await one<{ accountId: string | null }>(
    db,
    `SELECT payout_account_id AS "accountId" FROM artist_profiles WHERE user_id = $1 AND payout_status = 'enabled'`,
    [artistId],
  );
  return row?.accountId ?? null;
}

export async function moneySettings(db: Queryable, config: Config, artistId: string): Promise<MoneySettings> {
  // The profile's money fields and whether a payment locks the currency, in one query.
  const profile = await one<{
    currency: string;
    trialDays: number;
    yearlyPriceCents: number;
    payoutStatus: 'none' | 'pending' | 'enabled';
    locked: boolean;
  }>(
    db,
    `SELECT currency, trial_days AS "trialDays", yearly_price_cents AS "yearlyPriceCents", payout_status AS "payoutStatus",
            ${PAID_IN} AS locked
       FROM artist_profiles WHERE user_id = $1`,
    [artistId],
  );
  return {
    currency: profile?.currency ?? 'usd',
    currencyLocked: profile?.locked ?? false,
    yearlyPrice: (profile?.yearlyPriceCents ?? 0) / 100,
    trialDays: profile?.trialDays ?? 0,
    feePercent: config.platformFeePercent,
    payoutStatus: profile?.payoutStatus ?? 'none',
  };
}
