import type { Db } from '../db/client.js';
import { FAILURE_MESSAGES, type GatewayOutcome } from './gateway.js';

/**
 * Yearly renewals of the subscriptions we bill ourselves: free memberships and the test gateway's. (Stripe renews
 * its own and tells us through invoice.paid.) A due subscription with auto-renewal on is charged its artist's
 * current price and extended by a year; a failed charge leaves it to lapse at the end of the paid year.
 */

export interface RenewalCharger {
  chargeRenewal(cardId: string | null, userId: string): Promise<GatewayOutcome>;
}

const ONE_YEAR = `interval '1 year'`;

export async function renewDueSubscriptions(db: Db, testGateway: RenewalCharger | null, now = new Date()) {
  const due = await db.query<{
    id: string;
    userId: string;
    artistId: string;
    gateway: 'free' | 'test';
    cardId: string | null;
    priceCents: number;
    currency: string;
    expiresAt: Date;
  }>(
    `SELECT s.id, s.user_id AS "userId", s.artist_id AS "artistId", s.gateway, s.card_id AS "cardId",
            p.yearly_price_cents AS "priceCents", p.currency, s.expires_at AS "expiresAt"
       FROM subscriptions s JOIN artist_profiles p ON p.user_id = s.artist_id
      WHERE s.auto_renew AND s.status = 'active' AND s.expires_at <= $1 AND s.gateway IN ('free', 'test')
      ORDER BY s.expires_at LIMIT 500`,
    [now],
  );
  let renewed = 0;
  for (const sub of due) {
    // Still due (another node may have renewed it a moment ago)?
    if (sub.gateway === 'free' || sub.priceCents === 0) {
      const rows = await db.query(
        `UPDATE subscriptions SET expires_at = expires_at + ${ONE_YEAR}, updated_at = now() WHERE id = $1 AND expires_at = $2 RETURNING id`,
        [sub.id, sub.expiresAt],
      );
      renewed += rows.length;
      continue;
    }
    if (!testGateway) continue;
    const outcome = await testGateway.chargeRenewal(sub.cardId, sub.userId);
    await db.transaction(async (tx) => {
      if (outcome.status === 'succeeded') {
        const rows = await tx.query(
          `UPDATE subscriptions SET expires_at = expires_at + ${ONE_YEAR}, price_paid_cents = $3, updated_at = now()
            WHERE id = $1 AND expires_at = $2 RETURNING id`,
          [sub.id, sub.expiresAt, sub.priceCents],
        );
        if (!rows.length) return;
        renewed += 1;
      } else {
        // Tried once: no more attempts; the fan keeps access to the end of the paid year and can subscribe again.
        await tx.query('UPDATE subscriptions SET auto_renew = false, updated_at = now() WHERE id = $1', [sub.id]);
      }
      const reason = outcome.status === 'failed' ? outcome.reason : null;
      await tx.query(
        `INSERT INTO payments (user_id, artist_id, subscription_id, gateway, kind, status, amount_cents, list_price_cents, currency,
                               card_id, failure_reason, failure_message, period_end)
         VALUES ($1, $2, $3, 'test', 'renewal', $4, $5, $5, $6, $7, $8, $9, $10::timestamptz + ${ONE_YEAR})`,
        [sub.userId, sub.artistId, sub.id, outcome.status === 'succeeded' ? 'succeeded' : 'failed', sub.priceCents, sub.currency, sub.cardId, reason, reason ? FAILURE_MESSAGES[reason] : null, sub.expiresAt],
      );
    });
  }
  return { due: due.length, renewed };
}
