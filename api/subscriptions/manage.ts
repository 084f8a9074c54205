import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireViewer } from '../auth/viewer.js';
import type { ApiContext } from '../context.js';
import { notFound, ok, parse } from '../http.js';
import type { PaymentGateway } from '../payments/gateway.js';
import { findSubscription, serializeSubscription } from '../payments/service.js';
import { queueMail } from '../mail/jobs.js';

const AutoRenewBody = z.object({ autoRenew: z.boolean({ error: 'autoRenew must be true or false.' }) });

/** The fan's own subscription to one artist, and turning its yearly renewal off and on. */
export function subscriptionManageRoutes(app: FastifyInstance, ctx: ApiContext, gateway: PaymentGateway) {
  const { db } = ctx;

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
