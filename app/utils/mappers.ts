import { formatPrice } from '#contract/money';
import type { ArtistResponse, MeResponse, PublicUserResponse, SubscriptionResponse } from '#contract/users';

/** Mappers: what the API sends, normalised to what the pages use. */

export const DEFAULT_AVATAR = '/images/default-avatar.svg';
export const GENERIC_HERO = '/images/generic-hero.svg';
export const GENERIC_HEADLINE = '/images/generic-headline.svg';

export interface CurrentUser {
  id: string;
  avatarUrl: string;
  artist: boolean;
  name: string;
  username: string;
  email: string;
}

export function mapCurrentUser(me: MeResponse): CurrentUser {
  return {
    id: me._id,
    avatarUrl: me.avatar || DEFAULT_AVATAR,
    artist: me.isPerformer,
    name: me.name,
    username: me.username,
    email: me.email,
  };
}

export interface PublicUser {
  id: string;
  avatarUrl: string;
  name: string;
  username: string;
}

export function mapPublicUser(user: PublicUserResponse): PublicUser {
  return { id: user._id, avatarUrl: user.avatar || DEFAULT_AVATAR, name: user.name, username: user.username };
}

export function mapArtist(a: ArtistResponse) {
  return {
    id: a._id,
    name: a.name,
    username: a.username,
    bio: a.bio ?? '',
    avatarUrl: a.avatar || DEFAULT_AVATAR,
    coverUrl: a.cover || null,
    headlineImage: a.headlineImage || GENERIC_HEADLINE,
    heroImage: a.heroImage || GENERIC_HERO,
    heroImageAltText: a.heroImageAltText ?? '',
    headlineImageAltText: a.headlineImageAltText ?? '',
    subscribers: a.stats?.subscribers ?? 0,
    // Only when the welcome video is active and has a path.
    welcomeVideoUrl: a.activateWelcomeVideo && a.welcomeVideoPath ? a.welcomeVideoPath : null,
    yearlyPrice: a.yearlyPrice,
    currency: a.currency ?? 'usd',
    trialDays: a.yearlyPrice > 0 ? (a.trialDays ?? 0) : 0,
    subscribed: a.isSubscribed ?? false,
    /** A lapsed member's kept period: they still open what was published then (decision 014). */
    keptPeriod: a.keptPeriod ?? null,
    keepPaidItems: a.keepPaidItems ?? true,
    vaultPageIntroduction: a.vaultPageIntroduction ?? '',
    postsPageIntroduction: a.postsPageIntroduction ?? '',
    privacyPolicy: a.privacyPolicy ?? '',
    headlineOfferDescription: a.headlineOfferDescription ?? '',
    subscriptionPerks: a.subscriptionPerks ?? [],
    successPageTitle: a.successPageTitle ?? '',
    secondarySuccessMessage: a.secondarySuccessMessage ?? '',
    additionalSuccessMessage: a.additionalSuccessMessage ?? '',
    successImages: a.successImages ?? [],
  };
}

export type Artist = ReturnType<typeof mapArtist>;

export function mapSubscription(s: SubscriptionResponse) {
  return { id: s._id, artist: mapArtist(s.performerInfo) };
}

export type Subscription = ReturnType<typeof mapSubscription>;

/** "Free" for a price of 0 (a club that costs nothing to join), else the yearly price, e.g. "$49.99". */
export function priceLabel(artist: Pick<Artist, 'yearlyPrice' | 'currency'>) {
  return artist.yearlyPrice === 0 ? 'Free' : formatPrice(artist.yearlyPrice, artist.currency);
}

/** "Free" or "$49.99 a year": the price as a phrase. */
export function yearlyPricePhrase(artist: Pick<Artist, 'yearlyPrice' | 'currency'>) {
  return artist.yearlyPrice === 0 ? 'Free' : `${formatPrice(artist.yearlyPrice, artist.currency)} a year`;
}
