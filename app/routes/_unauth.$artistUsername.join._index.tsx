import { redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { ArtistHero } from '~/components/artist-hero';
import { accentLinkClass } from '~/components/form-page';
import { CtaLink, loginHref, paymentHref, PerkList, PriceFigure, registerHref } from '~/components/subscription-offer';
import { apiFor } from '~/utils/api.server';
import { requireArtist } from '~/utils/auth.server';
import { yearlyPricePhrase } from '~/utils/mappers';
import { publicSubscriberCount } from '~/utils/subscriber-count';
import { possessive } from '#contract/names';

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data
    ? [
        { title: `Join ${possessive(data.artist.name)} fan club | Stagedoor` },
        {
          name: 'description',
          content: data.artist.headlineOfferDescription || `The official fan club of ${data.artist.name}.`,
        },
      ]
    : [{ title: 'Stagedoor' }];

/**
 * The artist's join landing: an already subscribed viewer goes straight to the artist's page. Its button
 * leads straight to the register step, or to the payment step for a signed-in fan: the subscribe page
 * (still there for its links) would only repeat this page's offer.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const artist = await requireArtist(api, args.params.artistUsername);
  if (artist.subscribed) throw redirect(`/${artist.username}`);
  const promo = new URL(args.request.url).searchParams.get('promo');
  return { artist, next: api.token ? paymentHref(artist.username, promo) : registerHref(artist.username, promo) };
}

export default function JoinLanding() {
  const { artist, next } = useLoaderData<typeof loader>();
  const members = publicSubscriberCount(artist.subscribers);
  const joinLabel = artist.yearlyPrice === 0 ? 'Join for free' : `Join for ${yearlyPricePhrase(artist)}`;

  return (
    <div>
      <ArtistHero artist={artist} eyebrow="Official fan club">
        {members ? <p className="mt-3 text-lg font-medium text-white/85">{members}</p> : null}
        {artist.headlineOfferDescription ? (
          <p className="mt-5 text-lg leading-relaxed text-white/90 sm:text-xl">{artist.headlineOfferDescription}</p>
        ) : null}
        <div className="mt-8 flex flex-col gap-4 sm:flex-row sm:flex-wrap sm:items-center sm:gap-x-6">
          <CtaLink to={next}>{joinLabel}</CtaLink>
          <Link to={loginHref(artist.username)} className={`${accentLinkClass} self-center text-base`}>
            Already a member? Log in
          </Link>
        </div>
      </ArtistHero>

      <section aria-labelledby="offer-title" className="mx-auto max-w-6xl px-4 pb-16 pt-6 sm:px-6 sm:pb-20 lg:pt-4">
        <div className="grid items-start gap-10 lg:grid-cols-[minmax(0,1fr)_24rem] lg:gap-16">
          <div>
            <h2 id="offer-title" className="text-3xl font-extrabold tracking-tight text-white sm:text-4xl">
              What members get
            </h2>
            {artist.bio ? <p className="mt-4 text-lg leading-relaxed text-white/80">{artist.bio}</p> : null}
            <div className="mt-8">
              <PerkList perks={artist.subscriptionPerks} />
            </div>
          </div>
          <div>
            <div className="rounded-2xl bg-navy-light p-6 ring-1 ring-white/10">
              <PriceFigure artist={artist} />
              <p className="mt-1 text-base text-white/75">
                {artist.yearlyPrice === 0
                  ? 'Free to join, no card needed.'
                  : artist.trialDays
                    ? `Free for ${artist.trialDays} days, then billed once a year.`
                    : 'Billed once a year.'}
              </p>
              <CtaLink to={next} className="mt-6 w-full">
                {joinLabel}
              </CtaLink>
              {artist.yearlyPrice > 0 ? (
                <p className="mt-4 text-center text-base">
                  <Link to={`/${artist.username}/gift`} className={accentLinkClass}>
                    Give a year as a gift
                  </Link>
                </p>
              ) : null}
            </div>
          </div>
        </div>
      </section>
    </div>
  );
}
