import type { MetaFunction } from '@remix-run/node';
import { Link, useRouteLoaderData } from '@remix-run/react';
import { CtaLink } from '~/components/subscription-offer';
import type { loader as subscribedLoader } from './_auth._subscribed';

const LAYOUT_ID = 'routes/_auth._subscribed';

export const meta: MetaFunction<null, { [LAYOUT_ID]: typeof subscribedLoader }> = ({ matches }) => {
  const artist = matches.find((match) => match.id === LAYOUT_ID)?.data?.artist;
  return [{ title: artist ? `${artist.successPageTitle || `Welcome to ${artist.name}’s fan club`} | Stagedoor` : 'Welcome | Stagedoor' }];
};

/**
 * The success page (spec §2, subscribed branch): the artist's successPageTitle, secondary and additional messages
 * and success images, then on to the artist's home. Spec §4 has it clear the stored sign-up password; here the
 * sign-up keeps nothing (the password goes straight to the api and is never echoed back or stored in the browser),
 * so there is nothing left to clear.
 */
export default function SubscribeSuccess() {
  const data = useRouteLoaderData<typeof subscribedLoader>(LAYOUT_ID);
  if (!data) return null;
  const { artist } = data;
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
