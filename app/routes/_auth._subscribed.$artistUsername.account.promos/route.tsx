import type { MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { ArtistStudioLinks } from '~/components/artist-studio-links';
import { FormAlert } from '~/components/form-parts';
import { StudioPage } from '~/components/studio-page';
import { PromoForm } from './promo-form';
import { PromoList } from './promo-list';
import { loadPromos, promosAction } from './promos.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Promo codes · ${data.artist.name} | Stagedoor` : 'Promo codes | Stagedoor' },
];

/**
 * /{artist}/account/promos (the artist only): make promo codes (percent or amount off the first year, a last day,
 * a most-uses limit), pause, resume or expire them, and see who used each. Plain forms: they work without JavaScript.
 */
export const loader = loadPromos;
export const action = promosAction;

const SAVED: Record<string, (code: string) => string> = {
  created: (code) => `${code} is ready: share its link.`,
  pause: (code) => `${code} is paused: fans cannot use it until you resume it.`,
  resume: (code) => `${code} works again.`,
  expire: (code) => `${code} has expired: it no longer works.`,
};

export default function PromosPage() {
  const { artist, promos, saved, code, webOrigin } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const createReply = reply?.initialValue?.intent === 'create' ? reply : undefined;
  // A refused pause or expiry (the code was removed meanwhile) is said above the list.
  const listErrors = reply && !createReply ? Object.values(reply.error ?? {}).flatMap((errors) => errors ?? []) : undefined;
  return (
    <StudioPage
      artistName={artist.name}
      title="Promo codes"
      intro="A code takes a percent or an amount off a new member’s first year; renewals are at the full price."
    >
      <PromoForm currency={promos.currency} lastResult={createReply} />
      <section aria-labelledby="codes-title" className="mt-10">
        <h2 id="codes-title" className="text-2xl font-bold text-white">
          Your codes <span className="text-base font-medium text-white/70">({promos.data.length})</span>
        </h2>
        {saved && code && SAVED[saved] ? (
          <p role="status" className="mt-3 rounded-lg bg-accent/15 px-3 py-2 text-base text-accent">
            {SAVED[saved](code)}
          </p>
        ) : null}
        <div className="mt-3">
          <FormAlert errors={listErrors} />
        </div>
        <PromoList promos={promos.data} currency={promos.currency} shareBase={`${webOrigin}/${artist.username}/subscribe`} />
      </section>
      <div className="mt-12">
        <ArtistStudioLinks artistUsername={artist.username} current="promos" />
      </div>
    </StudioPage>
  );
}
