import { Form, Link } from '@remix-run/react';
import { ErrorList, inputClassName } from '~/components/form-parts';
import { paymentHref } from '~/components/subscription-offer';
import type { Artist } from '~/utils/mappers';

/** A GET form: applying a code reloads the page with ?promo=, which shows the discounted price, without JavaScript too. */
export function PromoForm({ artist, promo }: { artist: Artist; promo: { code: string; error?: string } | null }) {
  const error = promo?.error;
  return (
    <Form method="get" action={paymentHref(artist.username)} preventScrollReset className="space-y-2" aria-label="Promo code">
      <label htmlFor="promo" className="block text-sm font-medium text-white/90">
        Promo code <span className="font-normal text-white/70">(optional)</span>
      </label>
      <div className="flex gap-3">
        <input
          id="promo"
          name="promo"
          defaultValue={promo?.code ?? ''}
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          maxLength={60}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'promo-error' : undefined}
          className={inputClassName(Boolean(error))}
        />
        <button
          type="submit"
          className="shrink-0 rounded-full px-5 py-2.5 text-base font-semibold text-white ring-1 ring-white/40 hover:ring-white focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
        >
          Apply
        </button>
      </div>
      <ErrorList id="promo-error" errors={error ? [error] : undefined} />
      {promo && !error ? (
        <p className="text-sm text-accent" role="status">
          Promo code {promo.code} applied.{' '}
          <Link to={paymentHref(artist.username)} preventScrollReset className="underline underline-offset-4">
            Remove it
          </Link>
        </p>
      ) : null}
    </Form>
  );
}
