import { z } from 'zod';

/** A row's id, and a moment as an ISO string, as the jobs' payloads carry them (these and ../jobs/queues.ts). */
export const id = z.string().min(1);
export const instant = z.string().min(1);

/**
 * Every mail the api sends, as its job carries it: what the mail is about, by id. The worker renders it from the
 * database when it runs (./jobs.ts), so a mail says what is true when it is sent; only what the database does not
 * keep (a reset link's token, the address an email change was made from) travels in the job.
 */
export const MailJobSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('receipt'), paymentId: id }),
  z.object({ kind: z.literal('renewalReminder'), subscriptionId: id, renewsAt: instant }),
  z.object({ kind: z.literal('renewalFailed'), paymentId: id, nextAttempt: instant.nullable(), accessUntil: instant }),
  z.object({ kind: z.literal('renewalChanged'), subscriptionId: id, autoRenew: z.boolean() }),
  z.object({ kind: z.literal('welcome'), subscriptionId: id }),
  /** The artist ended the fan's membership and no refund of the fan's own told them so (a free one, a gift's year). */
  z.object({ kind: z.literal('membershipEnded'), subscriptionId: id }),
  /** The link holds the reset token, so it lives in the job's row until it has been sent (it expires in an hour). */
  z.object({ kind: z.literal('passwordReset'), userId: id, link: z.url() }),
  z.object({ kind: z.literal('passwordChanged'), userId: id, at: instant }),
  z.object({ kind: z.literal('emailChanged'), userId: id, oldEmail: z.string(), newEmail: z.string(), at: instant }),
  /** Sent to the new address: the link holds the change's token, so it lives here until sent (it expires in a day). */
  z.object({ kind: z.literal('emailConfirm'), userId: id, newEmail: z.string(), link: z.url() }),
  // Trials, refunds, disputes and gifts (./money-mails.ts).
  z.object({ kind: z.literal('trialStarted'), paymentId: id }),
  z.object({ kind: z.literal('trialEnding'), subscriptionId: id, trialEndsAt: instant }),
  z.object({ kind: z.literal('refund'), refundId: id }),
  z.object({ kind: z.literal('disputeOpened'), paymentId: id }),
  /** The link holds the gift's token, so it lives in the job's row until it has been sent. */
  z.object({ kind: z.literal('gift'), giftId: id, link: z.url() }),
  z.object({ kind: z.literal('giftReceipt'), giftId: id }),
]);

export type MailJob = z.infer<typeof MailJobSchema>;

/** The mails about trials, refunds, disputes and gifts, built by ./money-mails.ts. */
export type MoneyMailJob = Extract<MailJob, { kind: 'trialStarted' | 'trialEnding' | 'refund' | 'disputeOpened' | 'gift' | 'giftReceipt' }>;
