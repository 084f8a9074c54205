import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ArtistProfileSchema, profileMessages } from '#contract/artist-profile';
import { requireViewer } from '../auth/viewer.js';
import type { ApiContext } from '../context.js';
import { badRequest, forbidden, ok, parse } from '../http.js';
import { currencyLocked } from '../payments/money-settings.js';
import { ACTIVE_SUBSCRIPTION } from '../subscriptions/queries.js';
import { artistForViewer, findArtistByUsername, serializeArtist } from './queries.js';
import { accountTags, tag } from '../cache/tags.js';

const SubscribersQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

/** A row of the artist's list of subscribers. */
interface Subscriber {
  id: string;
  username: string;
  name: string;
  avatar: string;
  startedAt: Date;
  type: string;
}

/** The signed-in artist's own profile and offer, and who subscribed to them. */
export function performerProfileRoutes(app: FastifyInstance, ctx: ApiContext) {
  const { db } = ctx;

  async function requireSelfArtist(request: Parameters<typeof requireViewer>[1]) {
    const viewer = await requireViewer(ctx, request);
    if (!viewer.isPerformer) throw forbidden('Only artists have a profile to edit.');
    return viewer;
  }

  /** Replaces the editable profile fields; answers the artist as GET /performers/{username} does. */
  app.put('/performers/me', async (request) => {
    const viewer = await requireSelfArtist(request);
    const p = parse(ArtistProfileSchema, request.body);
    await db.transaction(async (tx) => {
      if (p.currency !== undefined) {
        // Fans pay in the artist's currency; once one has, it stays (their receipts and renewals are in it).
        const current = await tx.query<{ currency: string }>('SELECT currency FROM artist_profiles WHERE user_id = $1 FOR UPDATE', [
          viewer.id,
        ]);
        if (current[0]?.currency !== p.currency) {
          if (await currencyLocked(tx, viewer.id))
            throw badRequest(profileMessages.currencyLocked, { currency: [profileMessages.currencyLocked] });
          await tx.query('UPDATE artist_profiles SET currency = $2 WHERE user_id = $1', [viewer.id, p.currency]);
        }
      }
      if (p.keepPaidItems !== undefined)
        await tx.query('UPDATE artist_profiles SET keep_paid_items = $2 WHERE user_id = $1', [viewer.id, p.keepPaidItems]);
      if (p.trialDays !== undefined)
        await tx.query('UPDATE artist_profiles SET trial_days = $2 WHERE user_id = $1', [viewer.id, p.trialDays]);
      await tx.query('UPDATE users SET name = $2, updated_at = now() WHERE id = $1', [viewer.id, p.name]);
      await tx.query(
        `UPDATE artist_profiles SET bio = $2, yearly_price_cents = $3, headline_offer_description = $4,
                subscription_perks = $5::jsonb, success_page_title = $6, secondary_success_message = $7,
                additional_success_message = $8, hero_image_alt_text = $9, headline_image_alt_text = $10,
                activate_welcome_video = $11, updated_at = now()
          WHERE user_id = $1`,
        [
          viewer.id,
          p.bio,
          Math.round(p.yearlyPrice * 100),
          p.headlineOfferDescription,
          JSON.stringify(p.subscriptionPerks),
          p.successPageTitle,
          p.secondarySuccessMessage,
          p.additionalSuccessMessage,
          p.heroImageAltText,
          p.headlineImageAltText,
          p.activateWelcomeVideo,
        ],
      );
    });
    await ctx.cache.invalidate(...accountTags(viewer.id, true), tag.artist(viewer.id));
    const artist = await findArtistByUsername(db, viewer.username, viewer.id);
    return ok(serializeArtist(artist!));
  });

  /**
   * The artist's subscribers, newest first, with when each joined; the total is the profile's subscriber count. A
   * page is kept in the read cache until a subscription of the artist begins or ends (tag.artist, as the count),
   * one of its fans changes their name or picture (tag.user), or the first of its memberships runs out.
   */
  app.get('/performers/me/subscribers', async (request) => {
    const viewer = await requireSelfArtist(request);
    const query = parse(SubscribersQuery, request.query);
    // A page of them in the order of an index (subscriptions_artist_started_idx), and the count every visitor of the
    // profile already reads from the cache: neither grows with the club.
    const [rows, artist] = await Promise.all([
      ctx.cache.read(`subscribers:${viewer.id}:${query.limit}:${query.offset}`, async () => {
        const rows = await db.query<Subscriber & { expiresAt: Date }>(
          `SELECT u.id, u.username, u.name, u.avatar, s.started_at AS "startedAt", s.type, s.expires_at AS "expiresAt"
             FROM subscriptions s JOIN users u ON u.id = s.user_id
            WHERE s.artist_id = $1 AND s.${ACTIVE_SUBSCRIPTION}
            ORDER BY s.started_at DESC, s.id LIMIT $2 OFFSET $3`,
          [viewer.id, query.limit, query.offset],
        );
        const lapses = rows.map((r) => new Date(r.expiresAt).getTime());
        return {
          value: rows,
          tags: [tag.artist(viewer.id), ...rows.map((r) => tag.user(r.id))],
          until: lapses.length ? Math.min(...lapses) : undefined,
        };
      }),
      artistForViewer(ctx, viewer.username, null),
    ]);
    return ok({
      data: rows.map((r) => ({
        _id: r.id,
        username: r.username,
        name: r.name,
        avatar: r.avatar,
        startedAt: new Date(r.startedAt).toISOString(),
        type: r.type,
      })),
      total: artist?.subscribers ?? 0,
    });
  });
}
