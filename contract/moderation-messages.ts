/**
 * Moderation's words and shapes without zod, so that the pages that show them (the conversation, the comments) carry
 * no schema library to the browser; the schemas are in moderation.ts.
 */
/** What a blocked fan, a suspended account and the moderation forms are told, in one place for the api and the web. */
export const moderationMessages = {
  cantMessage: (artistName: string) => `You can't message ${artistName}.`,
  cantComment: (artistName: string) => `You can't comment on posts by ${artistName}.`,
  cantReport: (artistName: string) => `You can't send reports to ${artistName}.`,
  suspended: 'This account has been suspended. If you think this is a mistake, contact Stagedoor support.',
  artistsOnly: 'Only the artist of this fan club can do that.',
  operatorsOnly: 'Only Stagedoor operators can see this page.',
  fanNotFound: "We couldn't find that fan.",
  notYourself: "You can't block yourself.",
  commentNotFound: 'This comment could not be found.',
  reportTargetNotFound: "We couldn't find what you are reporting.",
  reportOwn: "You can't report your own comment or message.",
  alreadyReported: 'You have already reported this. The artist and our team can see your report.',
  reasonRequired: 'Please tell us what is wrong with it.',
  reasonTooLong: 'Please keep the reason to 500 characters.',
  wordRequired: 'Please enter a word to mute.',
  wordTooLong: 'A muted word can be at most 50 characters.',
  tooManyWords: 'You can mute at most 200 words.',
  heldNotFound: 'This is no longer waiting for review.',
  userNotFound: "We couldn't find an account with that username or email.",
  tooManyReports: "You're sending reports too quickly. Please wait a moment and try again.",
  heldComment: 'Your comment is waiting for the artist to review it.',
  heldMessage: 'Your message is waiting for the artist to review it.',
  endMembershipLabel: 'Also end their membership and refund the unused part',
  endFreeMembershipLabel: 'Also end their membership (they paid nothing, so there is nothing to refund)',
  noMembership: (name: string) => `${name} has no running membership to end.`,
  membershipDisputed:
    "This fan's payment is disputed, so it cannot be refunded here: their bank decides. You can still block them without ending it.",
  refundChanged: (total: string) => `The refund is now ${total}: a day has gone by since the page was loaded. Check it and confirm again.`,
  endFailed:
    'They are blocked, but we could not reach our payment provider, so nothing was refunded and their membership carries on. Please try again in a moment.',
  refundReason: (artistName: string) => `${artistName} ended your membership and refunded the part you had not used yet.`,
  giftRefundReason: (artistName: string) =>
    `${artistName} ended the membership you gave and refunded the part of your gift that had not been used yet.`,
} as const;

/**
 * What ending a fan's membership would do, shown before the artist confirms: each payment's unused part, prorated by
 * the unused days of what it paid for (the fan's own card year, and each opened gift's year, refunded to its buyer).
 */
export interface MembershipEnding {
  /** Nothing to refund (a free membership, a free trial, or nothing left unused): it just ends. */
  free: boolean;
  /** A payment of it is disputed: the bank decides, so it cannot be ended with a refund here. */
  disputed: boolean;
  refunds: { kind: 'card' | 'gift'; amount: string; amountCents: number; unusedDays: number; periodDays: number }[];
  totalCents: number;
  /** The total as the page shows it, in the club's currency. */
  total: string;
}

export interface UserSummary {
  _id: string;
  username: string;
  name: string;
  avatar: string;
}

export interface BlockEntry {
  fan: UserSummary;
  createdAt: string;
  /** Whether the fan's membership still runs (the list offers to end it). */
  member: boolean;
}

export interface ReportEntry {
  _id: string;
  kind: 'comment' | 'message';
  targetId: string;
  excerpt: string;
  reason: string;
  createdAt: string;
  reporter: UserSummary;
  reported: UserSummary | null;
  artist: UserSummary;
}

export interface HeldEntry {
  _id: string;
  kind: 'comment' | 'message';
  text: string;
  createdAt: string;
  author: UserSummary;
  /** The item a comment is on, or the conversation a message is for. */
  placeId: string;
  placeTitle: string;
}

export interface AuditEntry {
  _id: string;
  action: string;
  actor: string;
  subject: string;
  detail: string;
  artist: string | null;
  createdAt: string;
}

/** What an account export holds of moderation: who blocks whom, the reports one made, an artist's muted words. */
export interface ModerationExport {
  /** Artists who block this account (as a fan). */
  blockedBy: { artist: string; since: string }[];
  /** Fans this account blocks (as an artist). */
  blocked: { fan: string; since: string }[];
  reportsMade: { kind: 'comment' | 'message'; artist: string; excerpt: string; reason: string; createdAt: string }[];
  mutedWords: string[];
}
