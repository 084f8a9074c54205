import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { CtaLink } from '~/components/subscription-offer';
import { formatPrice } from '#contract/money';
import type { SubscriptionDetail } from '#contract/payments';
import { apiFor, isHttpError } from '~/utils/api.server';
import { requireArtist } from '~/utils/auth.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.artist.successPageTitle || `Welcome to ${data.artist.name}’s fan club`} | Stagedoor` : 'Welcome | Stagedoor' },
];

/** The artist's success messages and images (the layout has already checked the membership; the artist is asked once). */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const artist = await requireArtist(api, args.params.artistUsername);
  const { name, username, avatarUrl, successPageTitle, secondarySuccessMessage, additionalSuccessMessage, successImages } = artist;
  // What the fan paid, in the artist's currency (the artist on their own page has no membership: nothing to say).
  const subscription = await api
    .get<{ data: SubscriptionDetail }>(`/subscriptions/performers/${encodeURIComponent(artist.id)}`, { handle: [404] })
    .then((answer) => answer.data)
    .catch((error) => {
      if (isHttpError(error, 404)) return null;
      throw error;
    });
  return {
    artist: { name, username, avatarUrl, successPageTitle, secondarySuccessMessage, additionalSuccessMessage, successImages },
    paid: subscription && paidLine(subscription, artist),
  };
}

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** One line of what the membership cost and what comes next, e.g. "You paid £29.99 · renews on November 26, 2027". */
function paidLine(subscription: SubscriptionDetail, artist: { yearlyPrice: number; currency: string }) {
  const date = (iso: string) => dateFormat.format(new Date(iso));
  if (subscription.trialEndsAt) {
    return `Free until ${date(subscription.trialEndsAt)}, then ${formatPrice(artist.yearlyPrice, artist.currency)} a year`;
  }
  if (subscription.type === 'free') return null;
  if (subscription.type === 'gift') return `A gift · yours until ${date(subscription.expiresAt)}`;
  const paid = `You paid ${formatPrice(subscription.pricePaid, subscription.currency)}`;
  return `${paid} · ${subscription.autoRenew ? 'renews' : 'ends'} on ${date(subscription.expiresAt)}`;
}

/**
 * The success page (spec §2, subscribed branch): the artist's successPageTitle, secondary and additional messages
 * and success images, then on to the artist's home. Spec §4 has it clear the stored sign-up password; here the
 * sign-up keeps nothing (the password goes straight to the api and is never echoed back or stored in the browser),
 * so there is nothing left to clear.
 */
export default function SubscribeSuccess() {
  const { artist, paid } = useLoaderData<typeof loader>();
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
        <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-white sm:text-5xl">
          {artist.successPageTitle || `Welcome to ${artist.name}’s fan club`}
        </h1>
        {artist.secondarySuccessMessage ? (
          <p className="mx-auto mt-5 max-w-2xl text-lg leading-relaxed text-white/85 sm:text-xl">{artist.secondarySuccessMessage}</p>
        ) : (
          <p className="mx-auto mt-5 max-w-2xl text-lg leading-relaxed text-white/85 sm:text-xl">Your membership is active.</p>
        )}
        {paid ? <p className="mt-4 text-base font-semibold text-accent">{paid}</p> : null}
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
        {artist.additionalSuccessMessage ? (
          <p className="mx-auto mt-10 max-w-2xl text-base leading-relaxed text-white/80 sm:text-lg">{artist.additionalSuccessMessage}</p>
        ) : null}
        <div className="mt-10 flex flex-col items-center gap-5">
          <CtaLink to={`/${artist.username}`}>Go to {artist.name}’s page</CtaLink>
          <Link
            to={`/${artist.username}/account`}
            className="text-base font-semibold text-white/85 underline decoration-white/40 underline-offset-4 hover:decoration-white"
          >
            Your membership details
          </Link>
        </div>
      </div>
    </div>
  );
}
