import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ArtistPromoSchema, promoEndInstant, promoMessages, type ArtistPromo, type PromoState } from '#contract/promo-schemas';
import { requireViewer } from '../auth/viewer.js';
import type { ApiContext } from '../context.js';
import { one } from '../db/client.js';
import { ApiError, forbidden, notFound, ok, parse } from '../http.js';
import { createPromo, PromoPriceError, type PromoRow } from './promos.js';

const ActionBody = z.object({ action: z.enum(['pause', 'resume', 'expire'], { error: 'The action must be pause, resume or expire.' }) });

interface PromoListRow extends Pick<
  PromoRow,
  'id' | 'code' | 'percentOff' | 'amountOffCents' | 'expiresAt' | 'maxRedemptions' | 'timesRedeemed' | 'paused'
> {
  createdAt: Date;
  redemptions: { username: string; name: string; amountCents: number; createdAt: string }[];
}

function stateOf(row: PromoListRow, now: number): PromoState {
  if (row.expiresAt && new Date(row.expiresAt).getTime() <= now) return 'expired';
  if (row.maxRedemptions !== null && row.timesRedeemed >= row.maxRedemptions) return 'used_up';
  return row.paused ? 'paused' : 'active';
}

function serialize(row: PromoListRow, now: number): ArtistPromo {
  return {
    _id: row.id,
    code: row.code,
    percentOff: row.percentOff,
    amountOff: row.amountOffCents === null ? null : row.amountOffCents / 100,
    expiresAt: row.expiresAt ? new Date(row.expiresAt).toISOString() : null,
    maxRedemptions: row.maxRedemptions,
    timesRedeemed: row.timesRedeemed,
    paused: row.paused,
    state: stateOf(row, now),
    createdAt: new Date(row.createdAt).toISOString(),
    redemptions: (row.redemptions ?? []).map((r) => ({
      fan: { username: r.username, name: r.name || r.username },
      amount: r.amountCents / 100,
      createdAt: new Date(r.createdAt).toISOString(),
    })),
  };
}

/**
 * The artist's own promo codes (docs/payments.md "Promo codes"): list them with who used them, make one, pause or
 * resume one, expire one now. The operator's CLI makes codes too (create-promo); both are the same rows.
 */
export function artistPromoRoutes(app: FastifyInstance, ctx: ApiContext) {
  const { db } = ctx;

  async function requireArtist(request: Parameters<typeof requireViewer>[1]) {
    const viewer = await requireViewer(ctx, request);
    if (!viewer.isPerformer) throw forbidden('Only artists have promo codes.');
    return viewer;
  }

  async function list(artistId: string) {
    const [rows, profile] = await Promise.all([
      db.query<PromoListRow>(
        `SELECT pc.id, pc.code, pc.percent_off AS "percentOff", pc.amount_off_cents AS "amountOffCents", pc.expires_at AS "expiresAt",
                pc.max_redemptions AS "maxRedemptions", pc.times_redeemed AS "timesRedeemed", pc.paused, pc.created_at AS "createdAt",
                coalesce((SELECT json_agg(r ORDER BY r."createdAt" DESC) FROM (
                  SELECT u.username, u.name, p.amount_cents AS "amountCents",
                         p.created_at AS "createdAt"
                    FROM payments p JOIN users u ON u.id = p.user_id
                   WHERE p.promo_code_id = pc.id AND p.status = 'succeeded' AND p.kind IN ('subscribe', 'trial')
                   ORDER BY p.created_at DESC LIMIT 20) r), '[]'::json) AS redemptions
           FROM promo_codes pc WHERE pc.artist_id = $1 ORDER BY pc.created_at DESC, pc.code`,
        [artistId],
      ),
      one<{ currency: string }>(db, 'SELECT currency FROM artist_profiles WHERE user_id = $1', [artistId]),
    ]);
    const now = Date.now();
    return { currency: profile?.currency ?? 'usd', data: rows.map((row) => serialize(row, now)) };
  }

  app.get('/performers/me/promos', async (request) => {
    const artist = await requireArtist(request);
    return ok(await list(artist.id));
  });

  app.post('/performers/me/promos', async (request) => {
    const artist = await requireArtist(request);
    const body = parse(ArtistPromoSchema, request.body);
    try {
      await createPromo(db, {
        artist: artist.username,
        code: body.code,
        percentOff: body.discount === 'percent' ? Number(body.value) : undefined,
        amountOff: body.discount === 'amount' ? Math.round(Number(body.value) * 100) : undefined,
        expiresAt: body.endsOn ? promoEndInstant(body.endsOn) : undefined,
        maxRedemptions: body.maxUses ? Number(body.maxUses) : undefined,
      });
    } catch (error) {
      if (error instanceof PromoPriceError) throw new ApiError(422, error.message, { value: [error.message] });
      if (error instanceof ApiError && error.statusCode === 422) {
        throw new ApiError(422, promoMessages.taken(body.code), { code: [promoMessages.taken(body.code)] });
      }
      throw error;
    }
    return ok(await list(artist.id));
  });

  /** Pause (fans cannot use it until resumed), resume, or expire now (for good). */
  app.post<{ Params: { id: string } }>('/performers/me/promos/:id', async (request) => {
    const artist = await requireArtist(request);
    const { action } = parse(ActionBody, request.body);
    const set =
      action === 'expire'
        ? 'expires_at = least(coalesce(expires_at, now()), now())'
        : action === 'pause'
          ? 'paused = true'
          : 'paused = false';
    const row = /^[0-9a-f-]{36}$/i.test(request.params.id)
      ? await one(db, `UPDATE promo_codes SET ${set} WHERE id = $1 AND artist_id = $2 RETURNING id`, [request.params.id, artist.id])
      : undefined;
    if (!row) throw notFound('Promo code not found');
    return ok(await list(artist.id));
  });
}
