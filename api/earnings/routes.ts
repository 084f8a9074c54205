import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { RefundSchema } from '#contract/earnings';
import { requireViewer } from '../auth/viewer.js';
import type { ApiContext } from '../context.js';
import { one } from '../db/client.js';
import { ApiError, forbidden, notFound, ok, parse } from '../http.js';
import { escapeHtml, testGatewayPage } from '../payments/approval-page.js';
import type { PaymentGateway } from '../payments/gateway.js';
import { moneySettings } from '../payments/money-settings.js';
import { refundPayment } from '../payments/refunds.js';
import type { PaymentsContext } from '../payments/service.js';
import { artistEarnings, artistPayment, artistPayments } from './queries.js';

const PaymentsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(10_000).default(25),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

const REQUEST_KEY = /^[\w-]{8,100}$/;

/**
 * The artist's money (docs/payments.md "Earnings", "Refunds", "Payouts"): settings, the 12-month ledger, the
 * payments list, refunds, and the payout account (Stripe Connect Express, or the test gateway's stand-in).
 */
export function earningsRoutes(app: FastifyInstance, ctx: ApiContext, gateway: PaymentGateway) {
  const { db, config } = ctx;
  const pc: PaymentsContext = { db, cache: ctx.cache, jobs: ctx.jobs, config, gateway, log: ctx.log };

  async function requireArtist(request: Parameters<typeof requireViewer>[1]) {
    const viewer = await requireViewer(ctx, request);
    if (!viewer.isPerformer) throw forbidden('Only artists have earnings.');
    return viewer;
  }

  app.get('/performers/me/money', async (request) => {
    const artist = await requireArtist(request);
    return ok(await moneySettings(db, config, artist.id));
  });

  app.get('/performers/me/earnings', async (request) => {
    const artist = await requireArtist(request);
    return ok(await artistEarnings(ctx, artist.id, await moneySettings(db, config, artist.id)));
  });

  app.get('/performers/me/payments', async (request) => {
    const artist = await requireArtist(request);
    const query = parse(PaymentsQuery, request.query);
    return ok(await artistPayments(db, artist.id, query.limit, query.offset));
  });

  /** A refund by the artist, of one of their own payments. Idempotency-Key: the form's, so sending it twice is one refund. */
  app.post<{ Params: { id: string } }>('/payments/:id/refund', async (request) => {
    const artist = await requireArtist(request);
    const owned = /^[0-9a-f-]{36}$/i.test(request.params.id) ? await artistPayment(db, request.params.id) : undefined;
    if (!owned || owned.artistId !== artist.id) throw notFound('Payment not found');
    const body = parse(RefundSchema, request.body);
    const header = request.headers['idempotency-key'];
    const requestKey = typeof header === 'string' && REQUEST_KEY.test(header) ? header : undefined;
    const outcome = await refundPayment(pc, {
      paymentId: request.params.id,
      amountCents: body.amount === undefined ? undefined : Math.round(body.amount * 100),
      reason: body.reason,
      keepAccess: body.keepAccess,
      source: 'artist',
      requestKey,
    });
    const after = await artistPayment(db, request.params.id);
    return ok({ payment: after!.payment, refundedNow: outcome.refundedNowCents / 100, endedAccess: outcome.endedAccess });
  });

  /** Stripe Connect onboarding: makes the Express account once, and answers a fresh link into onboarding. */
  app.post('/performers/me/payouts/onboarding', async (request) => {
    const artist = await requireArtist(request);
    const profile = await one<{ accountId: string | null }>(
      db,
      'SELECT payout_account_id AS "accountId" FROM artist_profiles WHERE user_id = $1',
      [artist.id],
    );
    const earnings = `${config.publicWebUrl}/${artist.username}/account/earnings`;
    let onboarding;
    try {
      onboarding = await gateway.payoutOnboarding({
        artist: { id: artist.id, email: artist.email, username: artist.username },
        accountId: profile?.accountId ?? null,
        returnUrl: `${earnings}?payouts=return`,
        refreshUrl: `${earnings}?payouts=refresh`,
      });
    } catch (error) {
      ctx.log.error({ err: error }, 'payout onboarding failed');
      throw new ApiError(503, 'We could not reach our payment provider to set up payouts. Please try again in a moment.');
    }
    await db.query(
      `UPDATE artist_profiles SET payout_account_id = $2, payout_status = CASE WHEN payout_status = 'none' THEN 'pending' ELSE payout_status END
        WHERE user_id = $1`,
      [artist.id, onboarding.accountId],
    );
    return ok({ url: onboarding.url });
  });

  /** Asks the gateway where the payout account stands (after the artist comes back from onboarding). */
  app.post('/performers/me/payouts/refresh', async (request) => {
    const artist = await requireArtist(request);
    const profile = await one<{ accountId: string | null }>(
      db,
      'SELECT payout_account_id AS "accountId" FROM artist_profiles WHERE user_id = $1',
      [artist.id],
    );
    if (profile?.accountId) {
      const status = await gateway.payoutAccountStatus(profile.accountId).catch((error) => {
        ctx.log.warn({ err: error }, 'payout account status unavailable');
        return undefined;
      });
      if (status) await db.query('UPDATE artist_profiles SET payout_status = $2 WHERE user_id = $1', [artist.id, status]);
    }
    return ok(await moneySettings(db, config, artist.id));
  });

  if (gateway.name !== 'test') return;

  /** The test gateway's stand-in for Stripe's Connect onboarding: one button, then back to the earnings page. */
  app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    const headers = {
      'cache-control': 'no-store',
      'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${new URL(config.publicWebUrl).origin}; frame-ancestors 'none'; base-uri 'none'`,
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
    };
    const account = async (accountId: string) => {
      const row = /^acct_test_[0-9a-f]{24}$/.test(accountId)
        ? await one<{ username: string; status: string }>(
            db,
            `SELECT u.username, p.payout_status AS status FROM artist_profiles p JOIN users u ON u.id = p.user_id WHERE p.payout_account_id = $1`,
            [accountId],
          )
        : undefined;
      if (!row) throw notFound('This onboarding link is not valid.');
      return row;
    };
    const earnings = (username: string) => `${config.publicWebUrl}/${username}/account/earnings`;
    const backForm = (username: string, label: string, style: string) =>
      `<form method="get" action="${escapeHtml(earnings(username))}"><input type="hidden" name="payouts" value="return"><button type="submit" class="${style}">${label}</button></form>`;

    scope.get<{ Params: { id: string } }>('/payment/test-gateway/onboarding/:id', async (request, reply) => {
      const row = await account(request.params.id);
      const action = `/payment/test-gateway/onboarding/${encodeURIComponent(request.params.id)}`;
      reply.headers(headers).type('text/html; charset=utf-8');
      return testGatewayPage({
        title: 'Set up payouts (test)',
        heading: 'Set up payouts',
        lead: 'Test payouts.',
        note: 'This page stands in for Stripe’s onboarding, where you would give your bank details. No money moves.',
        body:
          row.status === 'enabled'
            ? `<p>Payouts are set up for <strong>${escapeHtml(row.username)}</strong>.</p>${backForm(row.username, 'Back to your earnings', 'primary')}`
            : `<p>Send <strong>${escapeHtml(row.username)}</strong>’s earnings to a test bank account?</p>
               <form method="post" action="${action}"><button type="submit" class="primary">Finish setting up payouts</button></form>
               ${backForm(row.username, 'Not now', 'secondary')}`,
      });
    });

    scope.post<{ Params: { id: string } }>('/payment/test-gateway/onboarding/:id', async (request, reply) => {
      const row = await account(request.params.id);
      await db.query(`UPDATE artist_profiles SET payout_status = 'enabled' WHERE payout_account_id = $1`, [request.params.id]);
      return reply.redirect(`${earnings(row.username)}?payouts=return`, 303);
    });
  });
}
