import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireViewer } from '../auth/viewer.js';
import type { ApiContext } from '../context.js';
import { notFound, ok, parse } from '../http.js';
import type { PaymentGateway } from '../payments/gateway.js';
import { findSubscription, serializeSubscription, SUBSCRIPTION_SELECT } from '../payments/service.js';
import type { Membership, Receipt } from '#contract/payments';
import { queueMail } from '../mail/queue.js';

const AutoRenewBody = z.object({ autoRenew: z.boolean({ error: 'autoRenew must be true or false.' }) });

/** The fan's own subscription to one artist, and turning its yearly renewal off and on. */
export function subscriptionManageRoutes(app: FastifyInstance, ctx: ApiContext, gateway: PaymentGateway) {
  const { db } = ctx;

  /**
   * Every club the viewer has a membership of, in any state (current ones first, then by when they end), each with
   * the club's offer and the receipts of the payments made for it, newest first: the fan's "Memberships" page.
   */
  app.get('/subscriptions/me', async (request) => {
    const viewer = await requireViewer(ctx, request);
    const [rows, artists, payments] = await Promise.all([
      db.query<Parameters<typeof serializeSubscription>[0]>(`${SUBSCRIPTION_SELECT} WHERE s.user_id = $1`, [viewer.id]),
      db.query<Membership['artist'] & { cents: number }>(
        `SELECT u.id AS "_id", u.username, u.name, u.avatar, p.yearly_price_cents AS cents, p.currency
           FROM subscriptions s JOIN users u ON u.id = s.artist_id JOIN artist_profiles p ON p.user_id = u.id
          WHERE s.user_id = $1`,
        [viewer.id],
      ),
      db.query<{
        id: string;
        artistId: string;
        kind: Receipt['kind'];
        cents: number;
        refundedCents: number;
        currency: string;
        promo: string | null;
        createdAt: Date;
      }>(
        `SELECT p.id, p.artist_id AS "artistId", p.kind, p.amount_cents AS cents, p.refunded_cents AS "refundedCents", p.currency,
                pc.code AS promo, p.created_at AS "createdAt"
           FROM payments p LEFT JOIN promo_codes pc ON pc.id = p.promo_code_id
          WHERE p.user_id = $1 AND p.status = 'succeeded' AND p.kind <> 'gift'
          ORDER BY p.created_at DESC, p.id`,
        [viewer.id],
      ),
    ]);
    const artistById = new Map(artists.map(({ cents, ...artist }) => [artist._id, { ...artist, yearlyPrice: cents / 100 }]));
    const memberships: Membership[] = rows
      .filter((row) => artistById.has(row.artistId))
      .map((row) => ({
        subscription: serializeSubscription(row),
        artist: artistById.get(row.artistId)!,
        receipts: payments
          .filter((p) => p.artistId === row.artistId)
          .map((p) => ({
            _id: p.id,
            kind: p.kind,
            amount: p.cents / 100,
            refunded: p.refundedCents / 100,
            currency: p.currency,
            promo: p.promo,
            createdAt: new Date(p.createdAt).toISOString(),
          })),
      }))
      .sort(
        (a, b) =>
          Number(b.subscription.active) - Number(a.subscription.active) || a.subscription.expiresAt.localeCompare(b.subscription.expiresAt),
      );
    return ok({ data: memberships });
  });

  /** The viewer's subscription to this artist (whatever its state): started, ends or renews on, price paid. */
  app.get<{ Params: { performerId: string } }>('/subscriptions/performers/:performerId', async (request) => {
    const viewer = await requireViewer(ctx, request);
    const row = await findSubscription(db, 's.user_id = $1 AND s.artist_id = $2', [viewer.id, request.params.performerId]);
    if (!row) throw notFound('You have no subscription to this artist.');
    return ok(serializeSubscription(row));
  });

  /** Cancels (false) or resumes (true) the renewal at the end of the paid year; access lasts until then either way. */
  app.put<{ Params: { id: string } }>('/subscriptions/:id/auto-renew', async (request) => {
    const viewer = await requireViewer(ctx, request);
    const { autoRenew } = parse(AutoRenewBody, request.body);
    const row = /^[0-9a-f-]{36}$/i.test(request.params.id)
      ? await findSubscription(db, 's.id = $1 AND s.user_id = $2', [request.params.id, viewer.id])
      : undefined;
    if (!row) throw notFound('Subscription not found');
    if (!row.active) throw notFound('This subscription has ended: subscribe again from the artist’s page.');
    if (row.autoRenew !== autoRenew) {
      if (row.gateway === 'stripe' && row.gatewaySubscriptionId) await gateway.setAutoRenew(row.gatewaySubscriptionId, autoRenew);
      // Confirmed by mail, once per change: the key names the change by its time.
      await db.transaction(async (tx) => {
        const [changed] = await tx.query<{ updatedAt: Date }>(
          'UPDATE subscriptions SET auto_renew = $2, updated_at = now() WHERE id = $1 AND auto_renew <> $2 RETURNING updated_at AS "updatedAt"',
          [row.id, autoRenew],
        );
        if (changed) {
          const key = `renewal-changed:${row.id}:${new Date(changed.updatedAt).toISOString()}`;
          await queueMail(ctx.jobs, { kind: 'renewalChanged', subscriptionId: row.id, autoRenew }, { key, tx });
        }
      });
    }
    const now = await findSubscription(db, 's.id = $1', [row.id]);
    return ok(serializeSubscription(now!));
  });
}
