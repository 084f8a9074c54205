import { redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { ArtistGrid } from '~/components/artist-card';
import { CtaLink } from '~/components/subscription-offer';
import type { ArtistResponse } from '#contract/users';
import { apiFor } from '~/utils/api.server';
import { env } from '~/utils/env.server';
import { mapArtist } from '~/utils/mappers';
import { redirectToSetup } from '~/utils/setup.server';

export const meta: MetaFunction = () => [
  { title: 'Stagedoor: fan clubs for artists and the fans who love them' },
  {
    name: 'description',
    content: 'Join your favourite artist’s fan club for unreleased demos, voice notes, sessions, presales and messages.',
  },
];

const FEATURED_LIMIT = 6;

/**
 * The landing. `?artistUsername=nova` is a short shareable "join this artist" link: it goes to that
 * artist's join landing, in every environment, since that is what the person who shared it meant. Without it, a
 * production build sends the browser to the marketing site; elsewhere this page introduces Stagedoor
 * and its artists, so a local, staging or demo install has a real front door.
 */
export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const artistUsername = url.searchParams.get('artistUsername')?.trim();
  if (artistUsername && /^[A-Za-z0-9]+$/.test(artistUsername)) {
    throw redirect(`/${encodeURIComponent(artistUsername.toLowerCase())}/join`);
  }
  const api = apiFor(args);
  // An empty install's owner finds the setup here, in production too: the marketing site knows nothing of it.
  await redirectToSetup(api);
  const config = env();
  if (config.appEnv === 'production') throw redirect(config.marketingUrl);

  const body = await api.get<{ data: { data: ArtistResponse[]; total: number } }>('/performers/user/search', {
    params: { limit: FEATURED_LIMIT, offset: 0 },
  });
  return {
    signedIn: Boolean(api.token),
    artists: body.data.data.map(mapArtist),
    total: body.data.total,
  };
}

const secondaryLinkClass =
  'inline-flex items-center justify-center rounded-full px-7 py-3.5 text-lg font-semibold text-white ring-1 ring-white/40 hover:ring-white focus:outline-none focus-visible:ring-2 focus-visible:ring-accent';

const steps = [
  { title: 'Pick your artist', text: 'Every artist runs their own fan club, with their own perks and price.' },
  { title: 'Join once a year', text: 'One yearly membership. Some clubs are free to join.' },
  { title: 'Get closer', text: 'Demos, voice notes, sessions, presales and messages, straight from the artist.' },
];

export default function Landing() {
  const { artists, signedIn, total } = useLoaderData<typeof loader>();
  return (
    <div>
      <section className="relative isolate overflow-hidden">
        <div
          className="absolute inset-0 -z-10 bg-[radial-gradient(ellipse_at_top_right,rgba(249,239,30,0.18),transparent_55%),radial-gradient(ellipse_at_bottom_left,rgba(56,97,180,0.35),transparent_60%)]"
          aria-hidden="true"
        />
        <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 pb-16 pt-14 sm:px-6 sm:pb-24 sm:pt-24 lg:grid-cols-[minmax(0,1.2fr)_minmax(0,1fr)]">
          <div>
            <p className="text-sm font-semibold uppercase tracking-widest text-accent">Stagedoor</p>
            <h1 className="mt-4 max-w-3xl text-4xl font-extrabold leading-[1.05] tracking-tight text-white sm:text-6xl lg:text-7xl">
              Get closer to the artists you love.
            </h1>
            <p className="mt-6 max-w-2xl text-lg leading-relaxed text-white/80 sm:text-xl">
              Stagedoor is the official fan club of your favourite artists. Join once a year for unreleased demos, voice notes, sessions,
              ticket presales and a direct line to the artist.
            </p>
            <div className="mt-10 flex flex-col gap-4 sm:flex-row sm:items-center">
              <CtaLink to="#artists">Find your artist</CtaLink>
              {signedIn ? (
                <Link to="/discover" className={secondaryLinkClass}>
                  Your fan clubs
                </Link>
              ) : (
                <Link to="/login" className={secondaryLinkClass}>
                  Log in
                </Link>
              )}
            </div>
          </div>
          <HeroCollage images={artists.slice(0, 3).map((artist) => artist.heroImage)} />
        </div>
      </section>

      <section id="artists" aria-labelledby="artists-title" className="mx-auto max-w-6xl scroll-mt-20 px-4 py-14 sm:px-6 sm:py-20">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <h2 id="artists-title" className="text-2xl font-bold text-white sm:text-3xl">
            Featured artists
          </h2>
          {signedIn && total > artists.length ? (
            <Link to="/discover" className="text-base font-semibold text-accent underline underline-offset-4">
              See all {total} artists
            </Link>
          ) : null}
        </div>
        {artists.length ? (
          <ArtistGrid artists={artists} className="mt-8" />
        ) : (
          <p className="mt-8 rounded-2xl bg-navy-light p-6 text-lg text-white/80 ring-1 ring-white/10">
            No artists have opened their fan club yet. Check back soon.
          </p>
        )}
      </section>

      <section aria-labelledby="how-it-works" className="border-y border-white/10 bg-navy-light/40">
        <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-16">
          <h2 id="how-it-works" className="text-2xl font-bold text-white sm:text-3xl">
            How it works
          </h2>
          <ol className="mt-8 grid gap-6 sm:grid-cols-3">
            {steps.map((step, index) => (
              <li key={step.title} className="rounded-2xl bg-navy p-6 ring-1 ring-white/10">
                <span
                  className="flex h-10 w-10 items-center justify-center rounded-full bg-accent text-lg font-extrabold text-navy"
                  aria-hidden="true"
                >
                  {index + 1}
                </span>
                <h3 className="mt-4 text-xl font-bold text-white">{step.title}</h3>
                <p className="mt-2 text-base leading-relaxed text-white/80">{step.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>
    </div>
  );
}

/** Decorative: the featured artists' hero images, fanned out beside the headline on wide screens. */
function HeroCollage({ images }: { images: string[] }) {
  if (images.length === 0) return null;
  const placements = ['left-0 top-6 w-[78%] -rotate-6', 'right-0 top-0 w-[70%] rotate-3', 'left-[12%] bottom-0 w-[76%] rotate-1'];
  return (
    <div className="relative hidden aspect-square lg:block" aria-hidden="true">
      {images.map((src, index) => (
        <img
          key={src}
          src={src}
          alt=""
          className={`absolute aspect-video rounded-2xl object-cover shadow-2xl shadow-black/50 ring-1 ring-white/15 ${placements[index]}`}
        />
      ))}
    </div>
  );
}
