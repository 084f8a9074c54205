import * as z from 'zod/mini';
import { EmailSchema } from './accounts';

/** Gift memberships as web and api agree on them (docs/payments.md "Gifts"). */

export const giftMessages = {
  messageTooLong: 'Please keep the message to 500 characters or fewer.',
  ownClub: 'You cannot buy a gift of your own fan club.',
  freeClub: 'This fan club is free: anyone can join it without a gift.',
  unknown: 'This gift link is not valid. Check the link in your mail, or ask whoever sent it.',
  void: 'This gift can no longer be used: it was not paid, or it was refunded.',
  redeemed: 'This gift has already been opened by someone else.',
  artist: 'Artists cannot take a membership; share the link with a fan instead.',
  artistBuyer: 'Artists cannot buy a gift membership: a gift is a fan’s year, bought and opened from a fan account.',
  renewsByCard:
    'You already have a membership that renews by card. Turn its renewal off on your membership page first, then open the gift to add a year.',
} as const;

/** The gift page's form (the card fields of the test gateway come beside it). */
export const GiftFormSchema = z.object({
  recipientEmail: EmailSchema,
  message: z.optional(z.string().check(z.trim(), z.maxLength(500, { error: giftMessages.messageTooLong }))),
});

export interface GiftView {
  artist: { username: string; name: string; avatar: string };
  from: string;
  recipientEmail: string;
  message: string;
  /** ready: can be opened; yours: the viewer opened it; redeemed: someone else did; void: unpaid or refunded. */
  state: 'ready' | 'yours' | 'redeemed' | 'void';
}
