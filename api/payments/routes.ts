import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { consume } from '../auth/rate-limits.js';
import { requireViewer } from '../auth/viewer.js';
import type { ApiContext } from '../context.js';
import { one } from '../db/client.js';
import { ApiError, notFound, ok, parse } from '../http.js';
import type { PaymentGateway } from './gateway.js';
import { discountedCents, resolvePromo } from './promos.js';
import { confirm, expirePendingPayments, findPayableArtist, getPayment, subscribe, trialFor, type PaymentsContext } from './service.js';
import { createStripeGateway } from './stripe-gateway.js';
import { createTestGateway, tokenizeTestCard } from './test-gateway.js';
import { approvalPage, type ActionPayment } from './approval-page.js';
import { handleStripeWebhook } from './webhooks.js';
import { subscriptionManageRoutes } from '../subscriptions/manage.js';

const SubscribeBody = z.object({
  type: z.enum(['yearly', 'free'], { error: 'The type must be "yearly" or "free".' }),
  performerId: z
    .string({ error: 'Which artist? performerId is required.' })
    .trim()
    .min(1, { error: 'Which artist? performerId is required.' })
    .max(100),
  paymentGateway: z.string().trim().max(40).optional(),
  cardId: z.string().trim().max(200).optional(),
  promo: z.string().trim().max(60).optional(),
});

const PromoQuery = z.object({
  performerId: z.string({ error: 'performerId is required.' }).trim().min(1).max(100),
  code: z.string({ error: 'Please enter a promo code.' }).trim().min(1, { error: 'Please enter a promo code.' }).max(60),
});

const IDEMPOTENCY_KEY = /^[\w-]{8,100}$/;

/** The configured gateway: Stripe when a secret key is set, the test gateway otherwise. */
export function createGateway(ctx: ApiContext): PaymentGateway {
  return ctx.config.stripe.secretKey ? createStripeGateway(ctx.db, ctx.config) : createTestGateway(ctx.db, ctx.config);
}

export function paymentRoutes(app: FastifyInstance, ctx: ApiContext, gateway = createGateway(ctx)) {
  const { db, limiters } = ctx;
  const pc: PaymentsContext = { db, cache: ctx.cache, jobs: ctx.jobs, config: ctx.config, gateway, log: ctx.log };
  const testGateway = gateway.name === 'test' ? createTestGateway(db, ctx.config) : null;
  /**
   * The approval page is a page of the api's origin that approves a payment: no script runs on it, no other site
   * may frame it (a click on "Approve" must be the fan's own), its forms post only to itself (which sends the fan
   * back to the web), and its address, which holds the payment's secret, goes to no one as a Referer.
   */
  const approvalPageHeaders = {
    'cache-control': 'no-store',
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${new URL(ctx.config.publicWebUrl).origin}; frame-ancestors 'none'; base-uri 'none'`,
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
  };
  subscriptionManageRoutes(app, ctx, gateway);

  /** Which gateway the payment page should show (and Stripe's publishable key for Elements). */
  app.get('/payment/gateway', async () =>
    ok({ paymentGateway: gateway.name, publishableKey: gateway.name === 'stripe' ? ctx.config.stripe.publishableKey : null }),
  );

  /** Subscribes the viewer to an artist. The answer is a payment: succeeded, requires_action (with nextAction) or failed (with failure). */
  app.post('/payment/subscribe/performers', async (request) => {
    const viewer = await requireViewer(ctx, request);
    const body = parse(SubscribeBody, request.body);
    // A code tried with a payment counts as one tried at the check (per fan: the web makes this call for the fan).
    if (body.promo) await consume(limiters.promoPerUser, viewer.id);
    const header = request.headers['idempotency-key'];
    const key = typeof header === 'string' && header ? header : undefined;
    if (key && !IDEMPOTENCY_KEY.test(key)) {
      throw new ApiError(400, 'The Idempotency-Key header must be 8 to 100 letters, digits, dashes or underscores.');
    }
    return ok(await subscribe(pc, viewer, body, key));
  });

  /** What the payment page shows a signed-in fan for a promo code: the price before and after, or why it cannot be used. */
  app.get('/payment/promo-codes/check', async (request) => {
    const viewer = await requireViewer(ctx, request);
    const query = parse(PromoQuery, request.query);
    await consume(limiters.promoPerUser, viewer.id);
    await consume(limiters.promoPerAddress, request.ip);
    const artist = await findPayableArtist(db, query.performerId);
    if (!artist) throw notFound('Artist not found');
    // Redemptions held by payments that were never finished are free again before the code is judged.
    await expirePendingPayments(db, gateway);
    const promo = await resolvePromo(db, artist.id, query.code);
    return ok({
      code: promo.code,
      percentOff: promo.percentOff,
      amountOff: promo.amountOffCents === null ? null : promo.amountOffCents / 100,
      price: artist.yearlyPriceCents / 100,
      discountedPrice: discountedCents(artist.yearlyPriceCents, promo, artist.currency) / 100,
      currency: artist.currency,
    });
  });

  /** The free trial this fan would get from the artist (0: none: a paid club without one, or the fan had one). */
  app.get<{ Params: { performerId: string } }>('/payment/trial/:performerId', async (request) => {
    const viewer = await requireViewer(ctx, request);
    const artist = await findPayableArtist(db, request.params.performerId);
    if (!artist) throw notFound('Artist not found');
    return ok({ trialDays: (await trialFor(db, viewer.id, artist)) ?? 0 });
  });

  app.get<{ Params: { id: string } }>('/payment/:id', async (request) => {
    const viewer = await requireViewer(ctx, request);
    return ok(await getPayment(db, viewer, request.params.id));
  });

  /** After the fan authenticated (3-D Secure) or came back from Checkout. */
  app.post<{ Params: { id: string } }>('/payment/:id/confirm', async (request) => {
    const viewer = await requireViewer(ctx, request);
    return ok(await confirm(pc, viewer, request.params.id));
  });

  // Routes that read the raw body: the webhook's signature covers the exact bytes; the approval page posts a form.
  app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );

    scope.post('/payment/webhooks/stripe', async (request) => {
      const signature = request.headers['stripe-signature'];
      const raw = typeof request.body === 'string' ? request.body : '';
      return ok(await handleStripeWebhook(pc, raw, typeof signature === 'string' ? signature : undefined));
    });

    if (!testGateway) return;

    /** The test gateway's stand-in for Stripe.js: a card becomes a token (cardId) the fan alone can pay with. */
    scope.post('/payment/test-gateway/cards', async (request) => {
      const viewer = await requireViewer(ctx, request);
      const body = typeof request.body === 'string' ? safeJson(request.body) : request.body;
      const card = await tokenizeTestCard(db, viewer.id, body);
      return ok({ id: card.id, brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear });
    });

    /** The stand-in for a bank's 3-D Secure page: the fan approves or fails, and goes back to the return URL. */
    scope.get<{ Params: { id: string }; Querystring: { secret?: string } }>(
      '/payment/test-gateway/authenticate/:id',
      async (request, reply) => {
        const payment = await actionPayment(request.params.id, request.query.secret);
        reply.headers(approvalPageHeaders).type('text/html; charset=utf-8');
        return approvalPage(payment);
      },
    );

    scope.post<{ Params: { id: string }; Body: Record<string, string> }>(
      '/payment/test-gateway/authenticate/:id',
      async (request, reply) => {
        const form = request.body ?? {};
        const payment = await actionPayment(request.params.id, form.secret);
        if (payment.status === 'requires_action' && !payment.actionResult) {
          await db.query(`UPDATE payments SET action_result = $2, updated_at = now() WHERE id = $1 AND action_result IS NULL`, [
            payment.id,
            form.decision === 'approve' ? 'approved' : 'failed',
          ]);
        }
        return reply.redirect(payment.returnUrl ?? ctx.config.publicWebUrl, 303);
      },
    );
  });

  async function actionPayment(id: string, secret: string | undefined) {
    const payment = /^[0-9a-f-]{36}$/i.test(id)
      ? await one<ActionPayment & { returnUrl: string | null }>(
          db,
          `SELECT p.id, p.status, p.amount_cents AS "amountCents", p.currency, p.action_secret AS "actionSecret",
                  p.action_result AS "actionResult", p.return_url AS "returnUrl", u.name AS "artistName"
             FROM payments p JOIN users u ON u.id = p.artist_id WHERE p.id = $1 AND p.gateway = 'test'`,
          [id],
        )
      : undefined;
    if (!payment || !secret || payment.actionSecret !== secret) throw notFound('This authentication link is not valid.');
    return payment;
  }
}

function safeJson(text: string) {
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, 'The body is not valid JSON.');
  }
}
