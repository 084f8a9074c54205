import { z } from 'zod';
import { moderationMessages } from './moderation-messages';

export * from './moderation-messages';

export const ReportSchema = z.object({
  kind: z.enum(['comment', 'message'], { error: "kind must be 'comment' or 'message'." }),
  id: z.string({ error: 'id is required.' }).trim().min(1, 'id is required.').max(100),
  reason: z
    .string({ error: moderationMessages.reasonRequired })
    .trim()
    .min(1, moderationMessages.reasonRequired)
    .max(500, moderationMessages.reasonTooLong),
});

export const MuteWordSchema = z.object({
  word: z
    .string({ error: moderationMessages.wordRequired })
    .trim()
    .min(1, moderationMessages.wordRequired)
    .max(50, moderationMessages.wordTooLong)
    .transform((word) => word.toLowerCase()),
});

/** Blocking, and with it (when asked) ending the fan's membership with the refund the artist was shown. */
export const BlockSchema = z.object({
  endMembership: z.boolean().optional().default(false),
  /** The total refund the confirmation showed, in cents: a different one now is asked about again, not refunded. */
  refundCents: z.number().int().min(0).max(100_000_000).optional(),
});

export const SuspendSchema = z.object({
  user: z.string({ error: 'user is required.' }).trim().min(1, 'user is required.').max(200),
  reason: z.string().trim().max(500, moderationMessages.reasonTooLong).optional().default(''),
  lift: z.boolean().optional().default(false),
});
