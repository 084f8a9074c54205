import type { ArtistResponse } from '#contract/users';
import { tag } from '../cache/tags.js';
import type { Reads } from '../context.js';
import { one, type Queryable } from '../db/client.js';
import { ACTIVE_SUBSCRIPTION, hasAccess } from '../subscriptions/queries.js';
import { notKept } from '../cache/read-cache.js';
import { keptPeriod, type KeptPeriod } from '../subscriptions/kept.js';

export interface ArtistRow {
  id: string;
  username: string;
  name: string;
  avatar: string;
  bio: string;
  cover: string;
  welcomeVideoPath: string;
  activateWelcomeVideo: boolean;
  yearlyPriceCents: number;
  currency: string;
  trialDays: number;
  headlineImage: string;
  heroImage: string;
  heroImageAltText: string;
  headlineImageAltText: string;
  vaultPageIntroduction: string;
  postsPageIntroduction: string;
  privacyPolicy: string;
  headlineOfferDescription: string;
  subscriptionPerks: string[];
  successPageTitle: string;
  secondarySuccessMessage: string;
  additionalSuccessMessage: string;
  successImages: { imagePath: string | null; altText: string | null }[];
  keepPaidItems: boolean;
  subscribers: number;
  isSubscribed: boolean;
  /** A lapsed fan's kept period (decision 014): the items published then are still theirs to open. */
  keptPeriod?: KeptPeriod | null;
}

/** One select for an artist with the subscriber count and whether viewer $1 is subscribed. */
export const ARTIST_SELECT = `
  SELECT u.id, u.username, u.name, u.avatar,
         p.bio, p.cover, p.welcome_video_path AS "welcomeVideoPath", p.activate_welcome_video AS "activateWelcomeVideo",
         p.yearly_price_cents AS "yearlyPriceCents", p.currency, p.trial_days AS "trialDays", p.keep_paid_items AS "keepPaidItems",
         p.headline_image AS "headlineImage", p.hero_image AS "heroImage",
         p.hero_image_alt_text AS "heroImageAltText", p.headline_image_alt_text AS "headlineImageAltText",
         p.vault_page_introduction AS "vaultPageIntroduction", p.posts_page_introduction AS "postsPageIntroduction",
         p.privacy_policy AS "privacyPolicy", p.headline_offer_description AS "headlineOfferDescription",
         p.subscription_perks AS "subscriptionPerks", p.success_page_title AS "successPageTitle",
         p.secondary_success_message AS "secondarySuccessMessage",
         p.additional_success_message AS "additionalSuccessMessage", p.success_images AS "successImages",
         (SELECT count(*)::int FROM subscriptions s WHERE s.artist_id = u.id AND s.${ACTIVE_SUBSCRIPTION}) AS subscribers,
         EXISTS (SELECT 1 FROM subscriptions s WHERE s.artist_id = u.id AND s.user_id = $1 AND s.${ACTIVE_SUBSCRIPTION}) AS "isSubscribed"
    FROM users u JOIN artist_profiles p ON p.user_id = u.id
   WHERE u.is_performer AND u.status = 'active'`;

export function findArtistByUsername(db: Queryable, username: string, viewerId: string | null) {
  return one<ArtistRow>(db, `${ARTIST_SELECT} AND lower(u.username) = lower($2)`, [viewerId, username]);
}

/**
 * An artist as GET /performers/{username} answers the viewer: the profile every visitor sees is cached until the
 * artist edits it or the subscriber count moves (tag.artist, tag.user); whether this viewer subscribes comes from
 * the access check's own cache.
 */
export async function artistForViewer(reads: Reads, username: string, viewerId: string | null): Promise<ArtistRow | undefined> {
  const artist = await reads.cache.read(`artist:${username.toLowerCase()}`, async () => {
    const row = await findArtistByUsername(reads.db, username, null);
    if (!row) return notKept(undefined);
    return { value: row, tags: [tag.artist(row.id), tag.user(row.id)] };
  });
  if (!artist) return undefined;
  const isSubscribed = viewerId !== null && viewerId !== artist.id && (await hasAccess(reads, viewerId, artist.id));
  const kept = viewerId !== null && viewerId !== artist.id && !isSubscribed ? await keptPeriod(reads, viewerId, artist.id) : null;
  return { ...artist, isSubscribed, keptPeriod: kept };
}

/** The artist as the web and every client receive it (the contract's ArtistResponse); prices in major units. */
export function serializeArtist(a: ArtistRow): ArtistResponse {
  return {
    _id: a.id,
    name: a.name,
    bio: a.bio,
    avatar: a.avatar,
    cover: a.cover || undefined,
    username: a.username,
    stats: { subscribers: a.subscribers },
    welcomeVideoPath: a.welcomeVideoPath || undefined,
    activateWelcomeVideo: a.activateWelcomeVideo,
    yearlyPrice: a.yearlyPriceCents / 100,
    currency: a.currency,
    trialDays: a.trialDays,
    keepPaidItems: a.keepPaidItems,
    isSubscribed: a.isSubscribed,
    ...(a.keptPeriod ? { keptPeriod: { from: a.keptPeriod.from.toISOString(), until: a.keptPeriod.until.toISOString() } } : {}),
    headlineImage: a.headlineImage,
    heroImage: a.heroImage,
    heroImageAltText: a.heroImageAltText,
    headlineImageAltText: a.headlineImageAltText,
    vaultPageIntroduction: a.vaultPageIntroduction,
    postsPageIntroduction: a.postsPageIntroduction,
    privacyPolicy: a.privacyPolicy,
    headlineOfferDescription: a.headlineOfferDescription,
    subscriptionPerks: a.subscriptionPerks,
    successPageTitle: a.successPageTitle,
    secondarySuccessMessage: a.secondarySuccessMessage,
    additionalSuccessMessage: a.additionalSuccessMessage,
    successImages: a.successImages,
  };
}
