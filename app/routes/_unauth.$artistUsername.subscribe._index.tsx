import { redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { accentLinkClass } from '~/components/form-page';
import { SubscribeSteps } from '~/components/subscribe-steps';
import { CtaLink, loginHref, PerkList, PriceFigure, registerHref } from '~/components/subscription-offer';
import { apiFor } from '~/utils/api.server';
import { requireArtist } from '~/utils/auth.server';
import { publicSubscriberCount } from '~/utils/subscriber-count';
import { possessive } from '#contract/names';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Subscribe to ${data.artist.name} | Stagedoor` : 'Subscribe | Stagedoor' },
];

/**
 * The subscribe step, public. Shared with /{artist}/join/join, which behaves like it: a subscribed
 * viewer goes to the artist's page, a free artist skips straight to the register step, and otherwise the page
 * presents the offer and the next step.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const artist = await requireArtist(api, args.params.artistUsername);
  const promo = new URL(args.request.url).searchParams.get('promo');
  if (artist.subscribed) throw redirect(`/${artist.username}`);
  if (artist.yearlyPrice === 0) throw redirect(registerHref(artist.username, promo));
  return { artist, promo, signedIn: Boolean(api.token) };
}

export default function Subscribe() {
  const { artist, promo, signedIn } = useLoaderData<typeof loader>();
  const next = registerHref(artist.username, promo);

  return (
    <div className="relative isolate overflow-hidden">
      <img
        src={artist.heroImage}
        alt=""
        className="absolute inset-x-0 top-0 -z-10 h-[28rem] w-full object-cover opacity-40 blur-3xl [mask-image:linear-gradient(to_bottom,black,transparent)]"
      />

      <div className="mx-auto max-w-5xl px-4 pb-16 pt-10 sm:px-6 sm:pt-16">
        <div className="flex items-center gap-4">
          <img src={artist.avatarUrl} alt="" className="h-16 w-16 rounded-full object-cover ring-2 ring-accent sm:h-20 sm:w-20" />
          <div>
            <p className="text-sm font-semibold uppercase tracking-widest text-accent">Official fan club</p>
            {publicSubscriberCount(artist.subscribers) ? (
              <p className="text-base text-white/80">{publicSubscriberCount(artist.subscribers)}</p>
            ) : null}
          </div>
        </div>
        <h1 className="mt-6 text-3xl font-extrabold tracking-tight text-white sm:text-5xl">Join {possessive(artist.name)} fan club</h1>
        {artist.headlineOfferDescription ? (
          <p className="mt-4 max-w-2xl text-lg leading-relaxed text-white/85 sm:text-xl">{artist.headlineOfferDescription}</p>
        ) : null}

        <div className="mt-10 grid gap-8 lg:grid-cols-[1fr_24rem]">
          <section aria-labelledby="next-title" className="h-fit rounded-2xl bg-navy-light p-6 ring-1 ring-accent/40 sm:p-8 lg:order-2">
            <h2 id="next-title" className="sr-only">
              Next step
            </h2>
            <PriceFigure artist={artist} />
            <p className="mt-1 text-base text-white/75">Billed once a year.</p>
            {promo ? (
              <p className="mt-3 inline-block rounded-full bg-accent/15 px-3 py-1 text-sm font-semibold text-accent">
                Promo code {promo} will be applied at payment
              </p>
            ) : null}
            <SubscribeSteps current={signedIn ? 2 : 1} className="mt-6" />
            <CtaLink to={next} className="mt-8 w-full">
              {signedIn ? 'Continue to payment' : 'Create your account'}
            </CtaLink>
            {signedIn ? null : (
              <p className="mt-5 text-center text-base text-white/80">
                Already have an account?{' '}
                <Link to={loginHref(artist.username, next)} className={accentLinkClass}>
                  Log in
                </Link>
              </p>
            )}
          </section>

          <section aria-labelledby="perks-title" className="rounded-2xl bg-navy-light/80 p-6 ring-1 ring-white/10 sm:p-8 lg:order-1">
            <h2 id="perks-title" className="text-2xl font-bold text-white">
              Your membership includes
            </h2>
            <div className="mt-6">
              {artist.subscriptionPerks.length ? (
                <PerkList perks={artist.subscriptionPerks} />
              ) : (
                <p className="text-lg text-white/80">Everything {artist.name} shares with members, all year.</p>
              )}
            </div>
          </section>
        </div>
      </div>
    </div>
  );
}
