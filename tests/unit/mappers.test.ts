import { describe, expect, it } from 'vitest';
import type { ArtistResponse } from '#contract/users';
import {
  DEFAULT_AVATAR,
  GENERIC_HEADLINE,
  GENERIC_HERO,
  mapArtist,
  mapCurrentUser,
  mapPublicUser,
  mapSubscription,
  priceLabel,
  yearlyPricePhrase,
} from '../../app/utils/mappers';
import { publicSubscriberCount, subscriberCount } from '../../app/utils/subscriber-count';

/** What the api sends, normalised to what the pages use. */

describe('mapCurrentUser', () => {
  const me = { _id: 'u1', name: 'Sam Rivera', avatar: '/a.png', username: 'demofan', email: 'fan@stagedoor.test', isPerformer: false };

  it('maps _id to id, avatar to avatarUrl and isPerformer to artist', () => {
    expect(mapCurrentUser(me)).toEqual({
      id: 'u1',
      avatarUrl: '/a.png',
      artist: false,
      name: 'Sam Rivera',
      username: 'demofan',
      email: 'fan@stagedoor.test',
    });
    expect(mapCurrentUser({ ...me, isPerformer: true }).artist).toBe(true);
  });

  it('uses the default avatar when the avatar is empty', () => {
    expect(mapCurrentUser({ ...me, avatar: '' }).avatarUrl).toBe(DEFAULT_AVATAR);
  });
});

describe('mapPublicUser', () => {
  it('maps the summary, with the default avatar when there is none', () => {
    expect(mapPublicUser({ _id: 'u2', name: 'Nova Ricci', avatar: '/nova.svg', username: 'novaricci' })).toEqual({
      id: 'u2',
      avatarUrl: '/nova.svg',
      name: 'Nova Ricci',
      username: 'novaricci',
    });
    expect(mapPublicUser({ _id: 'u2', name: 'Nova Ricci', username: 'novaricci' }).avatarUrl).toBe(DEFAULT_AVATAR);
    expect(mapPublicUser({ _id: 'u2', name: 'Nova Ricci', avatar: '', username: 'novaricci' }).avatarUrl).toBe(DEFAULT_AVATAR);
  });
});

const minimal: ArtistResponse = { _id: 'a1', name: 'Juniper Lane', username: 'juniperlane', stats: { subscribers: 12 }, yearlyPrice: 0 };

const full: ArtistResponse = {
  ...minimal,
  bio: 'Folk songs.',
  avatar: '/j/avatar.svg',
  cover: '/j/cover.svg',
  welcomeVideoPath: '/media/welcome.mp4',
  activateWelcomeVideo: true,
  yearlyPrice: 29.99,
  currency: 'eur',
  isSubscribed: true,
  keepPaidItems: false,
  keptPeriod: { from: '2024-01-01T00:00:00.000Z', until: '2025-01-01T00:00:00.000Z' },
  headlineImage: '/j/headline.svg',
  heroImage: '/j/hero.svg',
  heroImageAltText: 'Hills',
  headlineImageAltText: 'Sun',
  vaultPageIntroduction: 'Vault intro',
  postsPageIntroduction: 'Posts intro',
  privacyPolicy: 'Policy',
  headlineOfferDescription: 'Offer',
  subscriptionPerks: ['Songs', 'Letters'],
  successPageTitle: 'Welcome',
  secondarySuccessMessage: 'Second',
  additionalSuccessMessage: 'Third',
  successImages: [
    { imagePath: '/j/s1.svg', altText: 'Confetti' },
    { imagePath: null, altText: null },
  ],
};

describe('mapArtist', () => {
  it('keeps every field the api sent, renamed as the pages use them', () => {
    expect(mapArtist(full)).toEqual({
      id: 'a1',
      name: 'Juniper Lane',
      username: 'juniperlane',
      bio: 'Folk songs.',
      avatarUrl: '/j/avatar.svg',
      coverUrl: '/j/cover.svg',
      headlineImage: '/j/headline.svg',
      heroImage: '/j/hero.svg',
      heroImageAltText: 'Hills',
      headlineImageAltText: 'Sun',
      subscribers: 12,
      welcomeVideoUrl: '/media/welcome.mp4',
      yearlyPrice: 29.99,
      currency: 'eur',
      trialDays: 0,
      subscribed: true,
      keptPeriod: { from: '2024-01-01T00:00:00.000Z', until: '2025-01-01T00:00:00.000Z' },
      keepPaidItems: false,
      vaultPageIntroduction: 'Vault intro',
      postsPageIntroduction: 'Posts intro',
      privacyPolicy: 'Policy',
      headlineOfferDescription: 'Offer',
      subscriptionPerks: ['Songs', 'Letters'],
      successPageTitle: 'Welcome',
      secondarySuccessMessage: 'Second',
      additionalSuccessMessage: 'Third',
      successImages: [
        { imagePath: '/j/s1.svg', altText: 'Confetti' },
        { imagePath: null, altText: null },
      ],
    });
  });

  it('fills what is missing: default avatar, generic hero and headline images, no cover, empty texts, not subscribed', () => {
    const artist = mapArtist(minimal);
    expect(artist).toMatchObject({
      bio: '',
      avatarUrl: DEFAULT_AVATAR,
      coverUrl: null,
      heroImage: GENERIC_HERO,
      headlineImage: GENERIC_HEADLINE,
      heroImageAltText: '',
      headlineImageAltText: '',
      welcomeVideoUrl: null,
      currency: 'usd',
      subscribed: false,
      subscribers: 12,
      subscriptionPerks: [],
      successImages: [],
      privacyPolicy: '',
      successPageTitle: '',
    });
  });

  it('treats empty strings like missing images', () => {
    const artist = mapArtist({ ...minimal, avatar: '', cover: '', heroImage: '', headlineImage: '' });
    expect(artist).toMatchObject({ avatarUrl: DEFAULT_AVATAR, coverUrl: null, heroImage: GENERIC_HERO, headlineImage: GENERIC_HEADLINE });
  });

  it.each([
    [true, '/media/welcome.mp4', '/media/welcome.mp4'],
    [false, '/media/welcome.mp4', null],
    [undefined, '/media/welcome.mp4', null],
    [true, undefined, null],
    [true, '', null],
  ])('welcome video active %j with path %j → %j', (activateWelcomeVideo, welcomeVideoPath, expected) => {
    expect(mapArtist({ ...minimal, activateWelcomeVideo, welcomeVideoPath }).welcomeVideoUrl).toBe(expected);
  });
});

describe('mapSubscription', () => {
  it('exposes _id as id and performerInfo as the mapped artist', () => {
    expect(mapSubscription({ _id: 's1', performerInfo: full })).toEqual({ id: 's1', artist: mapArtist(full) });
    expect(mapSubscription({ _id: 's2', performerInfo: minimal }).artist.avatarUrl).toBe(DEFAULT_AVATAR);
  });
});

describe('artist phrases', () => {
  it('says the price, "Free" for 0, and counts subscribers', () => {
    expect(priceLabel({ yearlyPrice: 49.99, currency: 'usd' })).toBe('$49.99');
    expect(priceLabel({ yearlyPrice: 0, currency: 'usd' })).toBe('Free');
    expect(yearlyPricePhrase({ yearlyPrice: 29.99, currency: 'usd' })).toBe('$29.99 a year');
    expect(yearlyPricePhrase({ yearlyPrice: 0, currency: 'usd' })).toBe('Free');
    expect(subscriberCount(1)).toBe('1 subscriber');
    expect(subscriberCount(12345)).toBe('12,345 subscribers');
    // A small club's count stays private.
    expect(publicSubscriberCount(9)).toBeNull();
    expect(publicSubscriberCount(10)).toBe('10 subscribers');
  });
});
