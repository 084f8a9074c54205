import type { ArtistPayment, ArtistPaymentState, Earnings, EarningsMonth, MoneySettings } from '#contract/earnings';
import { tag } from '../cache/tags.js';
import type { Reads } from '../context.js';
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

export async function artistEarnings(reads: Reads, artistId: string, settings: MoneySettings, now = new Date()): Promise<Earnings> {
  const { db } = reads;
  const months = lastTwelveMonths(now);
  const from = months[0].start;
  const month = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM')`;
  const [paid, refunded, members] = await Promise.all([
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
    // The membership figures change when the subscriber count does (a subscription begun or ended): they are kept
    // in the read cache under the same tag as that count, for the month they were read in.
    reads.cache.read(`earnings-members:${artistId}:${months[11].key}`, async () => ({
      value: await membersByMonth(db, artistId, months, now),
      tags: [tag.artist(artistId)],
    })),
  ]);
  const byMonth = <Row extends { month: string }>(rows: Row[]) => new Map(rows.map((row) => [row.month, row]));
  const paidBy = byMonth(paid);
  const refundedBy = byMonth(refunded);
  const rows: EarningsMonth[] = months.map(({ key }, index) => {
    const gross = cents(paidBy.get(key)?.gross);
    const refunds = cents(refundedBy.get(key)?.refunds);
    const fees = cents(paidBy.get(key)?.fees) - cents(refundedBy.get(key)?.fees);
    const { joined, left, atStart } = members.months[index];
    return {
      month: key,
      joined,
      left,
      churn: atStart ? Math.round((left / atStart) * 1000) / 10 : null,
      gross: major(gross),
      refunds: major(refunds),
      fees: major(fees),
      net: major(gross - refunds - fees),
    };
  });
  const sum = (key: 'gross' | 'refunds' | 'fees' | 'net') => major(rows.reduce((total, row) => total + Math.round(row[key] * 100), 0));
  return {
    ...settings,
    membersNow: members.now,
    months: rows,
    totals: { gross: sum('gross'), refunds: sum('refunds'), fees: sum('fees'), net: sum('net') },
  };
}

/**
 * Members by month in one pass over the artist's subscriptions of the year: joined in each month, left in it (a
 * membership over, other than by a dispute), members at its start, and members now. One scan with a count for each
 * figure rather than a query per month, whose cost grew with the club.
 */
async function membersByMonth(db: Queryable, artistId: string, months: { start: Date }[], now: Date) {
  const bounds = [...months.map((m) => m.start), new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))];
  // $1 the artist, $2 now, $3… the months' starts and the next month's.
  const at = (index: number) => `$${index + 3}::timestamptz`;
  const counts = months.flatMap((_, i) => [
    `count(*) FILTER (WHERE started_at >= ${at(i)} AND started_at < ${at(i + 1)})::int AS "joined${i}"`,
    `count(*) FILTER (WHERE status <> 'disputed' AND expires_at >= ${at(i)} AND expires_at < ${at(i + 1)} AND expires_at <= $2)::int AS "left${i}"`,
    `count(*) FILTER (WHERE started_at < ${at(i)} AND expires_at > ${at(i)})::int AS "atStart${i}"`,
  ]);
  const [row] = await db.query<Record<string, number>>(
    `SELECT ${counts.join(', ')}, count(*) FILTER (WHERE status = 'active' AND expires_at > $2)::int AS now
       FROM subscriptions WHERE artist_id = $1 AND (expires_at >= $3 OR started_at >= $3)`,
    [artistId, now, ...bounds],
  );
  return {
    now: row.now,
    months: months.map((_, i) => ({ joined: row[`joined${i}`], left: row[`left${i}`], atStart: row[`atStart${i}`] })),
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
