import * as z from 'zod/mini';

/**
 * The artist's money as web and api agree on it (docs/payments.md "Earnings"): settings, the monthly ledger, the
 * payments list and the refund form. Amounts are in major units in the artist's currency.
 */

export type PayoutStatus = 'none' | 'pending' | 'enabled';

export interface MoneySettings {
  currency: string;
  /** A fan has paid: the currency can no longer change. */
  currencyLocked: boolean;
  yearlyPrice: number;
  trialDays: number;
  /** The platform's share of each payment, in percent. */
  feePercent: number;
  payoutStatus: PayoutStatus;
}

/** One month of the ledger: members who joined and left, and the money in, back out, to the platform and to the artist. */
export interface EarningsMonth {
  /** YYYY-MM (UTC). */
  month: string;
  joined: number;
  left: number;
  /** Members who left this month as a share of members at its start, in percent (one decimal); null with none at the start. */
  churn: number | null;
  gross: number;
  refunds: number;
  fees: number;
  net: number;
}

export interface Earnings extends MoneySettings {
  membersNow: number;
  /** The last 12 months, oldest first, the current month last. */
  months: EarningsMonth[];
  totals: Pick<EarningsMonth, 'gross' | 'refunds' | 'fees' | 'net'>;
}

/** A payment as the artist sees it in their list. */
export type ArtistPaymentState = 'paid' | 'partially_refunded' | 'refunded' | 'disputed' | 'dispute_won' | 'dispute_lost' | 'failed';

export interface ArtistPayment {
  _id: string;
  fan: { username: string; name: string; email: string };
  kind: 'subscribe' | 'renewal' | 'trial' | 'gift';
  amount: number;
  refunded: number;
  /** What can still be refunded (0 when nothing can). */
  refundable: number;
  /** The platform's fee on it, less what refunds gave back of it. */
  fee: number;
  promo: string | null;
  state: ArtistPaymentState;
  /** Where the artist's share went: their payout account, or held by the platform until they connect one. */
  payout: 'paid_out' | 'held';
  currency: string;
  createdAt: string;
}

export interface ArtistPaymentList {
  data: ArtistPayment[];
  total: number;
}

export const refundMessages = {
  reason: 'Please say why you are refunding this payment (the fan sees it).',
  reasonTooLong: 'Please keep the reason to 500 characters or fewer.',
  amount: 'Enter the amount to refund with at most two decimals, e.g. 10 or 4.99, or leave it empty to refund it all.',
  tooMuch: (max: string) => `You can refund at most ${max} of this payment.`,
  notRefundable: 'This payment cannot be refunded: nothing was charged, or it has been refunded in full already.',
  disputed: 'This payment is disputed: the fan’s bank decides, so it cannot be refunded here.',
} as const;

/** The refund form (the earnings page) and POST /payments/{id}/refund. An empty amount refunds what is left. */
export const RefundSchema = z.object({
  amount: z.pipe(
    z.optional(z.union([z.number(), z.string().check(z.trim())])).check(
      z.refine((value) => value === undefined || value === '' || (/^\d{1,6}(\.\d{1,2})?$/.test(String(value)) && Number(value) > 0), {
        error: refundMessages.amount,
      }),
    ),
    z.transform((value) => (value === undefined || value === '' ? undefined : Number(value))),
  ),
  reason: z
    .string({ error: refundMessages.reason })
    .check(z.trim(), z.minLength(1, { error: refundMessages.reason }), z.maxLength(500, { error: refundMessages.reasonTooLong })),
  keepAccess: z.pipe(
    z.optional(z.union([z.boolean(), z.literal('on'), z.literal('true'), z.literal('false')])),
    z.transform((value) => value === true || value === 'on' || value === 'true'),
  ),
});

export type RefundInput = z.input<typeof RefundSchema>;

/** What a refund answers: the payment after it. */
export interface RefundResult {
  payment: ArtistPayment;
  refundedNow: number;
  endedAccess: boolean;
}
