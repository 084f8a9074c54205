import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { CONTENT_TYPE_LABELS, CONTENT_TYPES, type ContentType } from '#contract/content-types';
import { formatPrice } from '#contract/money';
import type { Membership, SubscriptionDetail } from '#contract/payments';
import { itemHref } from '~/components/content-card';
import { accentLinkClass } from '~/components/form-page';
import { CtaLink } from '~/components/subscription-offer';
import { apiFor } from '~/utils/api.server';
import { requireArtist } from '~/utils/auth.server';
import { listContent } from '~/utils/content.server';
import { formatDate } from '~/utils/dates';
import { possessive } from '#contract/names';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: data
      ? `${data.artist.successPageTitle || `Welcome to ${possessive(data.artist.name)} fan club`} | Stagedoor`
      : 'Welcome | Stagedoor',
  },
];

/**
 * The kinds of item the artist's closing message names as whole words ("Start with the first voice note": Voice
 * Note); the oldest such item is where the page sends the new member. A message naming none stays plain text.
 */
function promisedTypes(message: string): ContentType[] {
  return CONTENT_TYPES.filter((type) => new RegExp(`\\b${CONTENT_TYPE_LABELS[type]}\\b`, 'i').test(message));
}

/**
 * The artist's success messages and images, the membership just made (with its receipt) and the first item to open
 * (the layout has already checked the membership; the artist is asked once).
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const artist = await requireArtist(api, args.params.artistUsername);
  const { name, username, avatarUrl, successPageTitle, secondarySuccessMessage, additionalSuccessMessage, successImages } = artist;
  const promised = promisedTypes(additionalSuccessMessage);
  // The artist on their own page has no membership: nothing to say about one.
  const [memberships, first] = await Promise.all([
    api.get<{ data: { data: Membership[] } }>('/subscriptions/me'),
    promised.length ? listContent(api, username, { types: promised, sort: 'asc', limit: 1 }) : { data: [] },
  ]);
  const membership = memberships.data.data.find((m) => m.artist._id === artist.id) ?? null;
  const item = first.data[0];
  return {
    artist: { name, username, avatarUrl, successPageTitle, secondarySuccessMessage, additionalSuccessMessage, successImages },
    membership: membership && { receipt: membership.receipts[0] ?? null },
    paid: membership && paidLine(membership.subscription, artist),
    firstItem: item ? { href: itemHref(username, item, 'home'), title: item.title, typeLabel: CONTENT_TYPE_LABELS[item.type] } : null,
  };
}

/**
 * What the membership cost and when it renews, in one line ("You paid £29.99 · renews on November 26, 2027"); null
 * for a free one, whose page then shows no card at all.
 */
function paidLine(subscription: SubscriptionDetail, artist: { yearlyPrice: number; currency: string }) {
  if (subscription.trialEndsAt) {
    return `Free until ${formatDate(subscription.trialEndsAt)}, then ${formatPrice(artist.yearlyPrice, artist.currency)} a year`;
  }
  if (subscription.type === 'free') return null;
  if (subscription.type === 'gift') return `A gift · yours until ${formatDate(subscription.expiresAt)}`;
  const paid = `You paid ${formatPrice(subscription.pricePaid, subscription.currency)}`;
  return `${paid} · ${subscription.autoRenew ? 'renews' : 'ends'} on ${formatDate(subscription.expiresAt)}`;
}

/**
 * The success page (subscribed branch): the artist's successPageTitle, secondary and additional messages
 * and success images, then on to the artist's home. A sign-up that stored the password in the browser would
 * clear it here; this sign-up keeps nothing (the password goes straight to the api and is never echoed back or stored in the browser),
 * so there is nothing left to clear. What was paid, when it renews and its receipt are said once, in a card, for a
 * paid membership only; the artist's closing message leads to the item it promises.
 */
export default function SubscribeSuccess() {
  const { artist, membership, paid, firstItem } = useLoaderData<typeof loader>();
  const images = artist.successImages.filter((image): image is { imagePath: string; altText: string | null } => Boolean(image.imagePath));

  return (
    <div className="relative isolate overflow-hidden">
      <div
        className="absolute inset-x-0 top-0 -z-10 h-96 bg-[radial-gradient(ellipse_at_top,rgba(249,239,30,0.18),transparent_65%)]"
        aria-hidden="true"
      />
      <div className="mx-auto max-w-3xl px-4 pb-20 pt-12 text-center sm:px-6 sm:pt-20">
        <img src={artist.avatarUrl} alt="" className="mx-auto h-20 w-20 rounded-full object-cover ring-4 ring-accent sm:h-24 sm:w-24" />
        <p className="mt-6 text-sm font-semibold uppercase tracking-widest text-accent">You’re in</p>
        <h1 className="mt-2 break-words text-3xl font-extrabold tracking-tight text-white sm:text-5xl">
          {artist.successPageTitle || `Welcome to ${possessive(artist.name)} fan club`}
        </h1>
        <p className="mx-auto mt-5 max-w-2xl text-lg leading-relaxed text-white/85 sm:text-xl">
          {artist.secondarySuccessMessage || 'Your membership is active.'}
        </p>
        {paid ? (
          <section aria-label="Your membership" className="mx-auto mt-8 max-w-md rounded-2xl bg-navy-light p-5 ring-1 ring-white/10">
            <p className="text-base font-semibold text-accent">{paid}</p>
            {membership?.receipt ? (
              <p className="mt-3 text-base">
                <Link to={`/account/memberships#receipt-${membership.receipt._id}`} className={accentLinkClass}>
                  View your receipt
                </Link>
              </p>
            ) : null}
          </section>
        ) : null}
        {images.length ? (
          <ul className={`mt-10 grid gap-4 ${images.length > 1 ? 'sm:grid-cols-2' : ''}`}>
            {images.map((image) => (
              <li key={image.imagePath}>
                <img
                  src={image.imagePath}
                  alt={image.altText ?? ''}
                  className="aspect-video w-full rounded-2xl object-cover shadow-2xl shadow-black/40 ring-1 ring-white/15"
                />
              </li>
            ))}
          </ul>
        ) : null}
        {firstItem ? (
          <p className="mx-auto mt-10 max-w-2xl text-base leading-relaxed sm:text-lg">
            <Link to={firstItem.href} className={accentLinkClass}>
              {artist.additionalSuccessMessage}
            </Link>
            <span className="mt-1 block text-base text-white/75">
              {firstItem.typeLabel}: {firstItem.title}
            </span>
          </p>
        ) : artist.additionalSuccessMessage ? (
          <p className="mx-auto mt-10 max-w-2xl text-base leading-relaxed text-white/80 sm:text-lg">{artist.additionalSuccessMessage}</p>
        ) : null}
        <div className="mt-10 flex flex-col items-center gap-5">
          <CtaLink to={`/${artist.username}`}>Go to {possessive(artist.name)} page</CtaLink>
          {membership ? (
            <Link
              to={`/${artist.username}/account`}
              className="text-base font-semibold text-white/85 underline decoration-white/40 underline-offset-4 hover:decoration-white"
            >
              Your membership details
            </Link>
          ) : null}
        </div>
      </div>
    </div>
  );
}
