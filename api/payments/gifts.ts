import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { EmailSchema } from '#contract/accounts';
import type { Config } from '#contract/config';
import { giftMessages, type GiftView } from '#contract/gifts';
import type { Payment } from '#contract/payments';
import { requireViewer, type Viewer } from '../auth/viewer.js';
import { tag } from '../cache/tags.js';
import type { ApiContext } from '../context.js';
import { one, type Queryable } from '../db/client.js';
import { ApiError, badRequest, forbidden, notFound, ok, parse } from '../http.js';
import { absoluteImage } from '../mail/jobs.js';
import { queueMail } from '../mail/queue.js';
import type { GatewayOutcome, PaymentGateway } from './gateway.js';
import { platformFeeCents } from './money-settings.js';
import { applyOutcome, ask, findPayableArtist, findPayment, serializePayment, type PaymentsContext } from './service.js';
import { possessive } from '#contract/names';

/**
 * Gift memberships (docs/payments.md "Gifts"): a signed-in fan buys a year of an artist's fan club for someone's
 * email address. Once paid, the recipient gets a mail with a link (/gift/{token}) that works whether or not they
 * have an account; redeeming it gives them a year that never renews by itself. The buyer gets a receipt. Only the
 * token's hash is kept once its mail is queued.
 */

const GiftBody = z.object({
  performerId: z.string({ error: 'Which artist? performerId is required.' }).trim().min(1).max(100),
  recipientEmail: EmailSchema,
  message: z.string().trim().max(500, { error: giftMessages.messageTooLong }).default(''),
  paymentGateway: z.string().trim().max(40).optional(),
  cardId: z.string().trim().max(200).optional(),
});

const IDEMPOTENCY_KEY = /^[\w-]{8,100}$/;
const ONE_YEAR = `interval '1 year'`;
const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/** In the transaction that marks a gift's payment paid: the recipient's mail (with the link) and the buyer's receipt. */
export async function giftPaid(pc: Pick<PaymentsContext, 'jobs' | 'config'>, tx: Queryable, paymentId: string) {
  const gift = await one<{ id: string; token: string | null }>(
    tx,
    'SELECT id, link_token AS token FROM gifts WHERE payment_id = $1 FOR UPDATE',
    [paymentId],
  );
  if (!gift) return;
  await tx.query('UPDATE gifts SET link_token = NULL WHERE id = $1', [gift.id]);
  if (gift.token) {
    const link = `${pc.config.publicWebUrl}/gift/${gift.token}`;
    await queueMail(pc.jobs, { kind: 'gift', giftId: gift.id, link }, { key: `gift:${gift.id}`, tx });
  }
  await queueMail(pc.jobs, { kind: 'giftReceipt', giftId: gift.id }, { key: `gift-receipt:${gift.id}`, tx });
}

/** POST /gifts: buys the gift and answers its payment (succeeded, requires_action or failed, as a subscription's). */
export async function buyGift(
  pc: PaymentsContext,
  viewer: Viewer,
  input: z.output<typeof GiftBody>,
  idempotencyKey?: string,
): Promise<Payment> {
  const { db, config, gateway } = pc;
  if (idempotencyKey) {
    const earlier = await one<{ id: string }>(db, `SELECT id FROM payments WHERE user_id = $1 AND idempotency_key = $2 AND kind = 'gift'`, [
      viewer.id,
      idempotencyKey,
    ]);
    if (earlier) return serializePayment((await findPayment(db, earlier.id))!);
  }
  const artist = await findPayableArtist(db, input.performerId);
  if (!artist) throw notFound('Artist not found');
  if (artist.id === viewer.id) throw forbidden(giftMessages.ownClub);
  // An artist can neither subscribe nor open a gift, so buying one is a fan's act too.
  if (viewer.isPerformer) throw forbidden(giftMessages.artistBuyer);
  if (!artist.yearlyPriceCents) throw badRequest(giftMessages.freeClub, { performerId: [giftMessages.freeClub] });
  if (input.paymentGateway !== gateway.name) {
    const message = `Payments go through the "${gateway.name}" gateway.`;
    throw badRequest(message, { paymentGateway: [message] });
  }
  if (!input.cardId && gateway.name === 'test')
    throw badRequest('Please enter your card details.', { cardId: ['Please enter your card details.'] });

  const token = randomBytes(24).toString('base64url');
  const fee = platformFeeCents(artist.yearlyPriceCents, config.platformFeePercent);
  let paymentId: string;
  try {
    paymentId = await db.transaction(async (tx) => {
      const payment = await one<{ id: string }>(
        tx,
        `INSERT INTO payments (user_id, artist_id, idempotency_key, gateway, kind, status, amount_cents, list_price_cents, currency,
                               card_id, fee_cents, payout_account_id)
         VALUES ($1, $2, $3, $4, 'gift', 'processing', $5, $5, $6, $7, $8, $9) RETURNING id`,
        [
          viewer.id,
          artist.id,
          idempotencyKey ?? null,
          gateway.name,
          artist.yearlyPriceCents,
          artist.currency,
          input.cardId ?? null,
          fee,
          artist.payoutAccountId,
        ],
      );
      await tx.query(
        `INSERT INTO gifts (artist_id, buyer_id, payment_id, recipient_email, message, token_hash, link_token) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [artist.id, viewer.id, payment!.id, input.recipientEmail, input.message, hash(token), token],
      );
      return payment!.id;
    });
  } catch (error) {
    const e = error as { code?: string; message?: string; constraint?: string };
    if (e.code === '23505' && `${e.constraint} ${e.message}`.includes('payments_in_flight_key')) {
      throw new ApiError(409, 'A payment for this fan club is already in progress. Please wait a moment.');
    }
    throw error;
  }
  const returnUrl = `${config.publicWebUrl}/${artist.username}/subscribe/confirm?${new URLSearchParams({ payment: paymentId })}`;
  await db.query('UPDATE payments SET return_url = $2 WHERE id = $1', [paymentId, returnUrl]);
  let outcome: GatewayOutcome;
  try {
    outcome = await ask(pc, () =>
      gateway.chargeOnce({
        paymentId,
        idempotencyKey: idempotencyKey ?? paymentId,
        user: { id: viewer.id, email: viewer.email, username: viewer.username, stripeCustomerId: null },
        artist: { id: artist.id, username: artist.username, name: artist.name, stripeProductId: artist.stripeProductId },
        cardId: input.cardId,
        amountCents: artist.yearlyPriceCents,
        currency: artist.currency,
        description: `A year of ${possessive(artist.name)} fan club, a gift`,
        destination: artist.payoutAccountId ? { accountId: artist.payoutAccountId, feeCents: fee } : null,
        returnUrl,
        cancelUrl: `${config.publicWebUrl}/${artist.username}/gift`,
      }),
    );
  } catch (error) {
    // Refused before anything was charged (an unknown card): as if it never happened.
    await db.query('DELETE FROM payments WHERE id = $1', [paymentId]);
    throw error;
  }
  await applyOutcome(pc, gateway, paymentId, outcome);
  return serializePayment((await findPayment(db, paymentId))!);
}

interface GiftRow {
  id: string;
  artistId: string;
  username: string;
  name: string;
  avatar: string;
  from: string;
  recipientEmail: string;
  message: string;
  redeemedBy: string | null;
  paid: boolean;
  refunded: boolean;
}

const GIFT_SELECT = `
  SELECT g.id, g.artist_id AS "artistId", a.username, a.name, a.avatar, coalesce(nullif(b.name, ''), b.username) AS "from",
         g.recipient_email AS "recipientEmail", g.message, g.redeemed_by AS "redeemedBy",
         p.status = 'succeeded' AS paid, p.refunded_cents >= p.amount_cents AS refunded
    FROM gifts g JOIN users a ON a.id = g.artist_id JOIN users b ON b.id = g.buyer_id JOIN payments p ON p.id = g.payment_id`;

function view(config: Config, row: GiftRow, viewerId?: string): GiftView {
  return {
    // An address the web page can load, wherever the image lives (the api's uploads, the web's demo images).
    artist: { username: row.username, name: row.name, avatar: absoluteImage(config, row.avatar) ?? '' },
    from: row.from,
    recipientEmail: row.recipientEmail,
    message: row.message,
    state: !row.paid || row.refunded ? 'void' : row.redeemedBy ? (row.redeemedBy === viewerId ? 'yours' : 'redeemed') : 'ready',
  };
}

export function giftRoutes(app: FastifyInstance, ctx: ApiContext, gateway: PaymentGateway) {
  const { db } = ctx;
  const pc: PaymentsContext = { db, cache: ctx.cache, jobs: ctx.jobs, config: ctx.config, gateway, log: ctx.log };

  const byToken = (token: string) =>
    /^[\w-]{20,64}$/.test(token) ? one<GiftRow>(db, `${GIFT_SELECT} WHERE g.token_hash = $1`, [hash(token)]) : Promise.resolve(undefined);

  app.post('/gifts', async (request) => {
    const viewer = await requireViewer(ctx, request);
    const body = parse(GiftBody, request.body);
    const header = request.headers['idempotency-key'];
    const key = typeof header === 'string' && IDEMPOTENCY_KEY.test(header) ? header : undefined;
    return ok(await buyGift(pc, viewer, body, key));
  });

  /** The buyer's own gift, by its payment (the page after buying it). */
  app.get<{ Params: { paymentId: string } }>('/gifts/bought/:paymentId', async (request) => {
    const viewer = await requireViewer(ctx, request);
    const row = /^[0-9a-f-]{36}$/i.test(request.params.paymentId)
      ? await one<GiftRow>(db, `${GIFT_SELECT} WHERE g.payment_id = $1 AND g.buyer_id = $2`, [request.params.paymentId, viewer.id])
      : undefined;
    if (!row) throw notFound('Gift not found');
    return ok(view(ctx.config, row));
  });

  /** What the link shows anyone who holds it (the token is the secret). */
  app.get<{ Params: { token: string } }>('/gifts/:token', async (request) => {
    const row = await byToken(request.params.token);
    if (!row) throw notFound(giftMessages.unknown);
    const viewer = await requireViewer(ctx, request).catch(() => undefined);
    return ok(view(ctx.config, row, viewer?.id));
  });

  /** Redeems the gift for the signed-in holder of the link: a year of the club that never renews by itself. */
  app.post<{ Params: { token: string } }>('/gifts/:token/redeem', async (request) => {
    const viewer = await requireViewer(ctx, request);
    const row = await byToken(request.params.token);
    if (!row) throw notFound(giftMessages.unknown);
    if (row.redeemedBy === viewer.id) return ok(view(ctx.config, row, viewer.id));
    if (!row.paid || row.refunded) throw new ApiError(409, giftMessages.void);
    if (row.redeemedBy) throw new ApiError(409, giftMessages.redeemed);
    if (viewer.isPerformer) throw forbidden(giftMessages.artist);
    await db.transaction(async (tx) => {
      const current = await one<{ active: boolean; billedByCard: boolean }>(
        tx,
        `SELECT status = 'active' AND expires_at > now() AS active, (gateway = 'stripe' AND auto_renew) AS "billedByCard"
           FROM subscriptions WHERE user_id = $1 AND artist_id = $2 FOR UPDATE`,
        [viewer.id, row.artistId],
      );
      // Stripe would charge such a membership at its own date whatever we add: the fan turns renewal off first.
      if (current?.active && current.billedByCard) throw new ApiError(409, giftMessages.renewsByCard);
      const taken = await one(
        tx,
        'UPDATE gifts SET redeemed_by = $2, redeemed_at = now() WHERE id = $1 AND redeemed_by IS NULL RETURNING id',
        [row.id, viewer.id],
      );
      if (!taken) throw new ApiError(409, giftMessages.redeemed);
      // A year from now, or a year more on a membership that is running (its renewal, if any, moves a year on too).
      const [opened] = await tx.query<{ expiresAt: Date }>(
        `INSERT INTO subscriptions (user_id, artist_id, status, type, price_paid_cents, auto_renew, started_at, expires_at, gateway, currency)
         SELECT $1, $2, 'active', 'gift', 0, false, now(), now() + ${ONE_YEAR}, 'free', currency FROM artist_profiles WHERE user_id = $2
         ON CONFLICT (user_id, artist_id) DO UPDATE SET
           expires_at = CASE WHEN subscriptions.status = 'active' AND subscriptions.expires_at > now()
                             THEN subscriptions.expires_at + ${ONE_YEAR} ELSE now() + ${ONE_YEAR} END,
           type = CASE WHEN subscriptions.status = 'active' AND subscriptions.expires_at > now() THEN subscriptions.type ELSE 'gift' END,
           auto_renew = subscriptions.status = 'active' AND subscriptions.expires_at > now() AND subscriptions.auto_renew,
           started_at = CASE WHEN subscriptions.status = 'active' AND subscriptions.expires_at > now()
                             THEN subscriptions.started_at ELSE now() END,
           status = 'active', trial_ends_at = NULL, updated_at = now()
         RETURNING expires_at AS "expiresAt"`,
        [viewer.id, row.artistId],
      );
      // The year this gift added (its last year, either way): what a refund of the gift takes off, and what a
      // refund of the card year before it leaves in place.
      await tx.query(`UPDATE gifts SET period_from = $2::timestamptz - ${ONE_YEAR}, period_until = $2 WHERE id = $1`, [
        row.id,
        opened!.expiresAt,
      ]);
    });
    await ctx.cache.invalidate(tag.artist(row.artistId), tag.fanSubscriptions(viewer.id));
    return ok(view(ctx.config, { ...row, redeemedBy: viewer.id }, viewer.id));
  });
}
