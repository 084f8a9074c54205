import type { ArtistPayment, ArtistPaymentState, Earnings, EarningsMonth, MoneySettings } from '#contract/earnings';
import type { Queryable } from '../db/client.js';

/**
 * The artist's ledger (docs/payments.md "Earnings"), read from payments and refunds as they are: money in by the
 * month it was paid, refunds by the month they were made, the platform's fee less what refunds gave back of it.
 * Members joined and left by month come from the memberships themselves (started_at, and the end of the ones that
 * are over), so a fan who left and joined again counts where they are now.
 */

const PAID_KINDS = `('subscribe', 'renewal', 'gift')`;

/** The 12 months (UTC) ending with the one `now` is in, oldest first, as YYYY-MM with their first instant. */
export function lastTwelveMonths(now: Date) {
  const months: { key: string; start: Date }[] = [];
  for (let back = 11; back >= 0; back -= 1) {
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    months.push({ key: start.toISOString().slice(0, 7), start });
  }
  return months;
}

const cents = (value: unknown) => Number(value ?? 0);
const major = (value: number) => Math.round(value) / 100;

export async function artistEarnings(db: Queryable, artistId: string, settings: MoneySettings, now = new Date()): Promise<Earnings> {
  const months = lastTwelveMonths(now);
  const from = months[0].start;
  const month = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM')`;
  const [paid, refunded, joined, left, atStart, current] = await Promise.all([
    db.query<{ month: string; gross: string; fees: string }>(
      `SELECT ${month('created_at')} AS month, sum(amount_cents) AS gross, sum(fee_cents) AS fees
         FROM payments WHERE artist_id = $1 AND status = 'succeeded' AND kind IN ${PAID_KINDS} AND created_at >= $2
        GROUP BY 1`,
      [artistId, from],
    ),
    db.query<{ month: string; refunds: string; fees: string }>(
      `SELECT ${month('r.created_at')} AS month, sum(r.amount_cents) AS refunds, sum(r.fee_refunded_cents) AS fees
         FROM refunds r JOIN payments p ON p.id = r.payment_id WHERE p.artist_id = $1 AND r.created_at >= $2
        GROUP BY 1`,
      [artistId, from],
    ),
    db.query<{ month: string; count: number }>(
      `SELECT ${month('started_at')} AS month, count(*)::int AS count FROM subscriptions
        WHERE artist_id = $1 AND started_at >= $2 GROUP BY 1`,
      [artistId, from],
    ),
    db.query<{ month: string; count: number }>(
      `SELECT ${month('expires_at')} AS month, count(*)::int AS count FROM subscriptions
        WHERE artist_id = $1 AND status <> 'disputed' AND expires_at >= $2 AND expires_at <= $3 GROUP BY 1`,
      [artistId, from, now],
    ),
    db.query<{ month: string; count: number }>(
      `SELECT to_char(m AT TIME ZONE 'UTC', 'YYYY-MM') AS month,
              (SELECT count(*)::int FROM subscriptions s WHERE s.artist_id = $1 AND s.started_at < m AND s.expires_at > m) AS count
         FROM unnest($2::timestamptz[]) AS m`,
      [artistId, months.map((m) => m.start)],
    ),
    db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM subscriptions WHERE artist_id = $1 AND status = 'active' AND expires_at > $2`,
      [artistId, now],
    ),
  ]);
  const byMonth = <Row extends { month: string }>(rows: Row[]) => new Map(rows.map((row) => [row.month, row]));
  const paidBy = byMonth(paid);
  const refundedBy = byMonth(refunded);
  const joinedBy = byMonth(joined);
  const leftBy = byMonth(left);
  const startBy = byMonth(atStart);
  const rows: EarningsMonth[] = months.map(({ key }) => {
    const gross = cents(paidBy.get(key)?.gross);
    const refunds = cents(refundedBy.get(key)?.refunds);
    const fees = cents(paidBy.get(key)?.fees) - cents(refundedBy.get(key)?.fees);
    const leftCount = leftBy.get(key)?.count ?? 0;
    const members = startBy.get(key)?.count ?? 0;
    return {
      month: key,
      joined: joinedBy.get(key)?.count ?? 0,
      left: leftCount,
      churn: members ? Math.round((leftCount / members) * 1000) / 10 : null,
      gross: major(gross),
      refunds: major(refunds),
      fees: major(fees),
      net: major(gross - refunds - fees),
    };
  });
  const sum = (key: 'gross' | 'refunds' | 'fees' | 'net') => major(rows.reduce((total, row) => total + Math.round(row[key] * 100), 0));
  return {
    ...settings,
    membersNow: current[0]?.count ?? 0,
    months: rows,
    totals: { gross: sum('gross'), refunds: sum('refunds'), fees: sum('fees'), net: sum('net') },
  };
}

interface PaymentListRow {
  id: string;
  username: string;
  name: string;
  email: string;
  kind: ArtistPayment['kind'];
  amountCents: number;
  refundedCents: number;
  feeCents: number;
  promo: string | null;
  disputeStatus: 'open' | 'won' | 'lost' | null;
  payoutAccountId: string | null;
  currency: string;
  createdAt: Date;
}

function stateOf(row: PaymentListRow): ArtistPaymentState {
  if (row.disputeStatus === 'open') return 'disputed';
  if (row.disputeStatus === 'lost') return 'dispute_lost';
  if (row.refundedCents > 0) return row.refundedCents >= row.amountCents ? 'refunded' : 'partially_refunded';
  return row.disputeStatus === 'won' ? 'dispute_won' : 'paid';
}

export function serializeArtistPayment(row: PaymentListRow): ArtistPayment {
  const state = stateOf(row);
  const refundable = state === 'disputed' || state === 'dispute_lost' || row.kind === 'trial' ? 0 : row.amountCents - row.refundedCents;
  return {
    _id: row.id,
    fan: { username: row.username, name: row.name || row.username, email: row.email },
    kind: row.kind,
    amount: major(row.amountCents),
    refunded: major(row.refundedCents),
    refundable: major(Math.max(0, refundable)),
    fee: major(row.feeCents),
    promo: row.promo,
    state,
    payout: row.payoutAccountId ? 'paid_out' : 'held',
    currency: row.currency,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

const PAYMENT_LIST_SELECT = `
  SELECT p.id, p.artist_id AS "artistId", u.username, u.name, u.email, p.kind, p.amount_cents AS "amountCents", p.refunded_cents AS "refundedCents",
         -- The fee kept: a refund gives back its share of it.
         (p.fee_cents - coalesce((SELECT sum(r.fee_refunded_cents) FROM refunds r WHERE r.payment_id = p.id), 0))::int AS "feeCents",
         pc.code AS promo, p.dispute_status AS "disputeStatus",
         p.payout_account_id AS "payoutAccountId", p.currency, p.created_at AS "createdAt"
    FROM payments p JOIN users u ON u.id = p.user_id LEFT JOIN promo_codes pc ON pc.id = p.promo_code_id`;

/** The artist's payments that went through (and trials started), newest first. */
export async function artistPayments(db: Queryable, artistId: string, limit: number, offset: number) {
  const [rows, total] = await Promise.all([
    db.query<PaymentListRow>(
      `${PAYMENT_LIST_SELECT} WHERE p.artist_id = $1 AND p.status = 'succeeded' ORDER BY p.created_at DESC, p.id LIMIT $2 OFFSET $3`,
      [artistId, limit, offset],
    ),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM payments WHERE artist_id = $1 AND status = 'succeeded'`, [artistId]),
  ]);
  return { data: rows.map(serializeArtistPayment), total: total[0]?.total ?? 0 };
}

export async function artistPayment(db: Queryable, paymentId: string) {
  const [row] = await db.query<PaymentListRow & { artistId: string }>(`${PAYMENT_LIST_SELECT} WHERE p.id = $1 AND p.status = 'succeeded'`, [
    paymentId,
  ]);
  return row && { artistId: row.artistId, payment: serializeArtistPayment(row) };
}
