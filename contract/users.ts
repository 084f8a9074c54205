/** Users and artists as the api sends them; the web maps them for its pages (app/utils/mappers.ts). */

export interface MeResponse {
  _id: string;
  name: string;
  avatar: string;
  username: string;
  email: string;
  isPerformer: boolean;
}

export interface PublicUserResponse {
  _id: string;
  name: string;
  avatar?: string;
  username: string;
}

export interface SuccessImage {
  imagePath: string | null;
  altText: string | null;
}

export interface ArtistResponse {
  _id: string;
  name: string;
  bio?: string;
  avatar?: string;
  cover?: string;
  username: string;
  stats: { subscribers: number };
  welcomeVideoPath?: string;
  activateWelcomeVideo?: boolean;
  yearlyPrice: number;
  currency?: string;
  /** Days of free trial a new member gets before the first year is charged (0: none). */
  trialDays?: number;
  /** "Keep what you paid for": a lapsed member keeps the items published while they paid (on by default). */
  keepPaidItems?: boolean;
  isSubscribed?: boolean;
  /** For a lapsed member who keeps items: the period whose items they keep (ISO times). */
  keptPeriod?: { from: string; until: string };
  headlineImage?: string;
  heroImage?: string;
  heroImageAltText?: string;
  headlineImageAltText?: string;
  vaultPageIntroduction?: string;
  postsPageIntroduction?: string;
  privacyPolicy?: string;
  headlineOfferDescription?: string;
  subscriptionPerks?: string[];
  successPageTitle?: string;
  secondarySuccessMessage?: string;
  additionalSuccessMessage?: string;
  successImages?: SuccessImage[];
}

export interface SubscriptionResponse {
  _id: string;
  performerInfo: ArtistResponse;
}
