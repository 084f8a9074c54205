import type { AccountExport, GiftLedgerState } from '#contract/account-settings';
import { moderationExport } from '../moderation/queries.js';
import { tag } from '../cache/tags.js';
import type { ApiContext } from '../context.js';
import { one, type Queryable } from '../db/client.js';
import type { PaymentGateway } from '../payments/gateway.js';

const iso = (date: Date | string) => new Date(date).toISOString();

/**
 * Deletes a fan's account (docs/decisions/015-account-deletion.md). The row stays, so what artists keep — payments,
 * refunds, the memberships until they end, the conversation — still adds up, but it names nobody: username, email,
 * name, picture and password are replaced, and the account can never sign in again. What is the fan's alone goes:
 * sessions, links in flight, bookmarks, notification choices and notifications, push subscriptions, saved test cards.
 * Comments are emptied (a deleted comment keeps its row, as when its author deletes it). Every membership stops
 * renewing: access ends at the end of the period paid for, and nothing is charged again.
 */
export async function deleteAccount(ctx: Pick<ApiContext, 'db' | 'cache' | 'log'>, gateway: PaymentGateway, userId: string) {
  const { db } = ctx;
  const renewing = await db.query<{ artistId: string; gatewaySubscriptionId: string | null; gateway: string }>(
    `SELECT artist_id AS "artistId", gateway_subscription_id AS "gatewaySubscriptionId", gateway
       FROM subscriptions WHERE user_id = $1 AND status = 'active' AND auto_renew`,
    [userId],
  );
  // The card provider first: a renewal it would still charge is worse than a record that says it will not.
  for (const s of renewing) {
    if (s.gateway === 'stripe' && s.gatewaySubscriptionId) await gateway.setAutoRenew(s.gatewaySubscriptionId, false);
  }
  const artistIds = await db.transaction(async (tx) => {
    const suffix = userId
      .replace(/[^0-9a-f]/gi, '')
      .slice(0, 24)
      .toLowerCase();
    await tx.query(
      `UPDATE users SET username = $2, email = $3, name = 'Deleted fan', avatar = '', password_hash = '!',
                        status = 'deleted', deleted_at = now(), updated_at = now()
        WHERE id = $1`,
      [userId, `deleted${suffix}`, `deleted-${suffix}@deleted.invalid`],
    );
    const ended = await tx.query<{ artistId: string }>(
      `UPDATE subscriptions SET auto_renew = false, updated_at = now() WHERE user_id = $1 RETURNING artist_id AS "artistId"`,
      [userId],
    );
    await tx.query(`UPDATE comments SET text = '', deleted_at = coalesce(deleted_at, now()) WHERE author_id = $1`, [userId]);
    for (const table of [
      'sessions',
      'password_resets',
      'email_changes',
      'bookmarks',
      'notification_preferences',
      'notifications',
      'push_subscriptions',
      'test_gateway_cards',
    ]) {
      await tx.query(`DELETE FROM ${table} WHERE user_id = $1`, [userId]);
    }
    return [...new Set(ended.map((s) => s.artistId))];
  });
  await ctx.cache.invalidate(
    tag.user(userId),
    tag.fanSubscriptions(userId),
    tag.marks(userId),
    tag.notifications(userId),
    tag.inbox(userId),
    tag.artists(),
    ...artistIds.flatMap((id) => [tag.artist(id), tag.content(id)]),
  );
}

/** Everything the account holds about its user (GET /users/me/export), each list oldest first. */
export async function exportAccount(db: Queryable, userId: string): Promise<AccountExport> {
  const account = await one<AccountExport['account'] & { createdAt: Date }>(
    db,
    `SELECT id, username, name, email, avatar, created_at AS "createdAt", is_performer AS "isPerformer" FROM users WHERE id = $1`,
    [userId],
  );
  const [memberships, payments, messages, comments, pollVotes, bookmarks, notificationPreferences] = await Promise.all([
    db.query<{
      artist: string;
      type: string;
      status: string;
      autoRenew: boolean;
      startedAt: Date;
      expiresAt: Date;
      cents: number;
      currency: string;
    }>(
      `SELECT a.username AS artist, s.type, s.status, s.auto_renew AS "autoRenew", s.started_at AS "startedAt",
              s.expires_at AS "expiresAt", s.price_paid_cents AS cents, s.currency
         FROM subscriptions s JOIN users a ON a.id = s.artist_id WHERE s.user_id = $1 ORDER BY s.started_at`,
      [userId],
    ),
    db.query<{ artist: string; kind: string; status: string; cents: number; currency: string; refundedCents: number; createdAt: Date }>(
      `SELECT a.username AS artist, p.kind, p.status, p.amount_cents AS cents, p.currency, p.refunded_cents AS "refundedCents",
              p.created_at AS "createdAt"
         FROM payments p JOIN users a ON a.id = p.artist_id WHERE p.user_id = $1 ORDER BY p.created_at`,
      [userId],
    ),
    db.query<{ artist: string; text: string; createdAt: Date }>(
      `SELECT a.username AS artist, m.text, m.created_at AS "createdAt"
         FROM messages m JOIN conversations c ON c.id = m.conversation_id JOIN users a ON a.id = c.artist_id
        WHERE m.sender_id = $1 ORDER BY m.created_at`,
      [userId],
    ),
    db.query<{ itemId: string; text: string; createdAt: Date }>(
      `SELECT item_id AS "itemId", text, created_at AS "createdAt" FROM comments
        WHERE author_id = $1 AND deleted_at IS NULL ORDER BY created_at`,
      [userId],
    ),
    db.query<{ pollId: string; answer: string; createdAt: Date }>(
      `SELECT v.poll_id AS "pollId", a.text AS answer, v.created_at AS "createdAt"
         FROM poll_votes v JOIN poll_answers a ON a.id = v.answer_id WHERE v.user_id = $1 ORDER BY v.created_at`,
      [userId],
    ),
    db.query<{ itemId: string; createdAt: Date }>(
      `SELECT item_id AS "itemId", created_at AS "createdAt" FROM bookmarks WHERE user_id = $1 ORDER BY created_at`,
      [userId],
    ),
    db.query<{ artist: string; email: string; push: boolean; inApp: boolean }>(
      `SELECT a.username AS artist, n.email, n.push, n.in_app AS "inApp"
         FROM notification_preferences n JOIN users a ON a.id = n.artist_id WHERE n.user_id = $1 ORDER BY a.username`,
      [userId],
    ),
  ]);
  const { pushSubscriptions, notifications, giftsBought, giftsReceived } = await exportNotificationsAndGifts(db, userId);
  return {
    exportedAt: new Date().toISOString(),
    account: { ...account!, createdAt: iso(account!.createdAt) },
    memberships: memberships.map(({ cents, startedAt, expiresAt, ...m }) => ({
      ...m,
      startedAt: iso(startedAt),
      expiresAt: iso(expiresAt),
      pricePaid: cents / 100,
    })),
    payments: payments.map(({ cents, refundedCents, createdAt, ...p }) => ({
      ...p,
      amount: cents / 100,
      refunded: refundedCents / 100,
      createdAt: iso(createdAt),
    })),
    messages: messages.map((m) => ({ ...m, createdAt: iso(m.createdAt) })),
    comments: comments.map((c) => ({ ...c, createdAt: iso(c.createdAt) })),
    pollVotes: pollVotes.map((v) => ({ ...v, createdAt: iso(v.createdAt) })),
    bookmarks: bookmarks.map((b) => ({ ...b, createdAt: iso(b.createdAt) })),
    notificationPreferences,
    pushSubscriptions,
    notifications,
    giftsBought,
    giftsReceived,
    moderation: await moderationExport(db, userId),
  };
}

/** The gift's state from its payment's ledger (GiftLedgerState), in SQL over gifts g and payments p. */
const GIFT_STATE = `CASE WHEN p.status <> 'succeeded' THEN 'not_paid'
                         WHEN p.refunded_cents >= p.amount_cents THEN 'refunded'
                         WHEN p.refunded_cents > 0 THEN 'partially_refunded'
                         WHEN g.redeemed_by IS NOT NULL THEN 'opened'
                         ELSE 'paid' END`;

/**
 * The rest of the export: push subscriptions, notifications and gifts. A push subscription is named by its push
 * service only: its keys encrypt what is pushed and its address is the browser's mailbox at that service, so neither
 * leaves the server in a file. A gift's link is never exported: only its hash is kept, and whoever holds the link
 * can open the gift, so a copy of the buyer's export must not be one. The buyer sees whether it was opened, not by
 * which account; the recipient sees who it is from as the gift page shows it (a name, not an address).
 */
async function exportNotificationsAndGifts(db: Queryable, userId: string) {
  const [push, notifications, bought, received] = await Promise.all([
    db.query<{ endpoint: string; createdAt: Date }>(
      'SELECT endpoint, created_at AS "createdAt" FROM push_subscriptions WHERE user_id = $1 ORDER BY created_at',
      [userId],
    ),
    db.query<{
      artist: string;
      itemId: string;
      inApp: boolean;
      email: string;
      push: boolean;
      createdAt: Date;
      readAt: Date | null;
      emailedAt: Date | null;
      pushedAt: Date | null;
    }>(
      `SELECT a.username AS artist, n.item_id AS "itemId", n.in_app AS "inApp", n.email, n.push, n.created_at AS "createdAt",
              n.read_at AS "readAt", n.emailed_at AS "emailedAt", n.pushed_at AS "pushedAt"
         FROM notifications n JOIN users a ON a.id = n.artist_id WHERE n.user_id = $1 ORDER BY n.created_at, n.id`,
      [userId],
    ),
    db.query<{
      artist: string;
      recipientEmail: string;
      message: string;
      state: GiftLedgerState;
      cents: number;
      refundedCents: number;
      currency: string;
      createdAt: Date;
      openedAt: Date | null;
    }>(
      `SELECT a.username AS artist, g.recipient_email AS "recipientEmail", g.message, ${GIFT_STATE} AS state,
              p.amount_cents AS cents, p.refunded_cents AS "refundedCents", p.currency, g.created_at AS "createdAt",
              g.redeemed_at AS "openedAt"
         FROM gifts g JOIN payments p ON p.id = g.payment_id JOIN users a ON a.id = g.artist_id
        WHERE g.buyer_id = $1 ORDER BY g.created_at`,
      [userId],
    ),
    db.query<{
      artist: string;
      from: string;
      message: string;
      state: GiftLedgerState;
      openedAt: Date;
      yearFrom: Date | null;
      yearUntil: Date | null;
    }>(
      `SELECT a.username AS artist, coalesce(nullif(b.name, ''), b.username) AS "from", g.message, ${GIFT_STATE} AS state,
              g.redeemed_at AS "openedAt", g.period_from AS "yearFrom", g.period_until AS "yearUntil"
         FROM gifts g JOIN payments p ON p.id = g.payment_id JOIN users a ON a.id = g.artist_id JOIN users b ON b.id = g.buyer_id
        WHERE g.redeemed_by = $1 ORDER BY g.redeemed_at`,
      [userId],
    ),
  ]);
  const when = (value: Date | null) => (value ? iso(value) : null);
  return {
    pushSubscriptions: push.map((row) => ({ service: pushService(row.endpoint), createdAt: iso(row.createdAt) })),
    notifications: notifications.map((n) => ({
      ...n,
      createdAt: iso(n.createdAt),
      readAt: when(n.readAt),
      emailedAt: when(n.emailedAt),
      pushedAt: when(n.pushedAt),
    })),
    giftsBought: bought.map(({ cents, refundedCents, createdAt, openedAt, ...g }) => ({
      ...g,
      amount: cents / 100,
      refunded: refundedCents / 100,
      createdAt: iso(createdAt),
      openedAt: when(openedAt),
    })),
    giftsReceived: received.map(({ openedAt, yearFrom, yearUntil, ...g }) => ({
      ...g,
      openedAt: iso(openedAt),
      yearFrom: when(yearFrom),
      yearUntil: when(yearUntil),
    })),
  };
}

/** The push service a subscription's address belongs to (its origin), without the part that names the browser. */
function pushService(endpoint: string) {
  try {
    return new URL(endpoint).origin;
  } catch {
    return 'unknown';
  }
}
