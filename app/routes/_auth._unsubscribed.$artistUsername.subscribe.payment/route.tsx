import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData, type ShouldRevalidateFunction } from '@remix-run/react';
import { accentLinkClass, FormPage } from '~/components/form-page';
import { FormAlert } from '~/components/form-parts';
import { SubscribeSteps } from '~/components/subscribe-steps';
import { apiFor } from '~/utils/api.server';
import { requireUnsubscribed } from '~/utils/auth.server';
import { checkPromo, fetchGateway, fetchPayment, fetchTrialDays } from '~/utils/payments.server';
import { oneYearAfter } from '#contract/money';
import { OrderSummary } from './order-summary';
import { paymentAction, stripeAuthentication } from './payment.server';
import { FreeJoinForm, StripePayment } from './payment-forms';
import { PromoForm } from './promo-form';
import { TestCardForm } from './test-card-form';
import { possessive } from '#contract/names';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Pay for your membership · ${data.artist.name} | Stagedoor` : 'Payment | Stagedoor' },
];

/**
 * The payment step, in the unsubscribed-only branch (its layout sends artists and members on). It shows
 * the price, a promo field that shows the discounted price (a GET form: ?promo=), and the card form of the
 * configured gateway. ?payment= names a payment of the fan's: one sent back here after a failed authentication shows
 * why; one the bank asks to authenticate in the page hands Stripe.js its client secret.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const search = new URL(args.request.url).searchParams;
  const promoCode = search.get('promo')?.trim() || null;
  const paymentId = search.get('payment');
  const [{ artist }, gateway, payment] = await Promise.all([
    requireUnsubscribed(api, args.params.artistUsername),
    fetchGateway(api),
    paymentId ? fetchPayment(api, paymentId) : null,
  ]);
  const [promo, trialDays] = await Promise.all([
    promoCode && artist.yearlyPrice > 0 ? checkPromo(api, artist.id, promoCode).then((check) => ({ code: promoCode, ...check })) : null,
    artist.trialDays ? fetchTrialDays(api, artist.id) : 0,
  ]);
  const day = 24 * 3600 * 1000;
  const firstCharge = new Date(Date.now() + trialDays * day);
  const renewal = oneYearAfter(firstCharge);
  return json(
    {
      artist,
      gateway,
      promo,
      trialDays,
      firstChargeOn: firstCharge.toISOString(),
      renewsOn: renewal.toISOString(),
      returnedFailure: payment?.status === 'failed' ? (payment.failure?.message ?? null) : null,
      authentication: stripeAuthentication(payment),
      // One key per attempt: a double submit sends the same one and pays once; the next attempt gets a new one.
      idempotencyKey: crypto.randomUUID(),
    },
    { headers: { 'Cache-Control': 'no-store' } },
  );
}

export const action = paymentAction;

/**
 * After any post, a refused one too, the loader runs again: the next attempt needs a new idempotency key. Remix 2 does
 * so by default today; single fetch would skip it after a 4xx reply.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod?.toLowerCase() === 'post' || defaultShouldRevalidate;

/** The register step in edit mode, keeping the promo code. */
function editHref(artistUsername: string, promo?: string) {
  const search = new URLSearchParams({ edit: 'true' });
  if (promo) search.set('promo', promo);
  return `/${artistUsername}/subscribe/register?${search}`;
}

export default function Payment() {
  const { artist, gateway, promo, trialDays, firstChargeOn, renewsOn, returnedFailure, authentication, idempotencyKey } =
    useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const free = artist.yearlyPrice === 0;
  const validPromo = promo && 'promo' in promo ? promo.promo : null;
  const amount = validPromo ? validPromo.discountedPrice : artist.yearlyPrice;

  return (
    <FormPage
      title={free ? 'Join for free' : trialDays ? 'Start your free trial' : 'Pay securely'}
      intro={
        <p>
          {free
            ? `${possessive(artist.name)} fan club is free to join.`
            : trialDays
              ? `Try ${possessive(artist.name)} fan club free for ${trialDays} days. Nothing is charged today; your card pays for the first year when the trial ends, unless you cancel before then from your account.`
              : `One payment for a year of ${possessive(artist.name)} fan club. It renews each year; you can turn that off any time from your account.`}
        </p>
      }
      aside={<OrderSummary artist={artist} promo={validPromo} trialDays={trialDays} firstChargeOn={firstChargeOn} renewsOn={renewsOn} />}
      footer={
        // A free club's step is met only by fans who already had an account: nothing of a sign-up to correct.
        free ? null : (
          <p>
            Wrong details?{' '}
            <Link to={editHref(artist.username, promo?.code)} className={accentLinkClass}>
              Edit your account
            </Link>
          </p>
        )
      }
    >
      {free ? (
        <FreeJoinForm idempotencyKey={idempotencyKey} lastResult={lastResult} />
      ) : (
        <>
          <SubscribeSteps current={2} className="mb-6 border-b border-white/10 pb-6" />
          <PromoForm artist={artist} promo={promo} />
          <div className="mt-6 border-t border-white/10 pt-6">
            {returnedFailure && !lastResult ? <FormAlert errors={[returnedFailure]} /> : null}
            {gateway.paymentGateway === 'stripe' ? (
              <StripePayment
                artist={artist}
                amount={amount}
                trialDays={trialDays}
                promo={validPromo?.code}
                idempotencyKey={idempotencyKey}
                publishableKey={gateway.publishableKey}
                authentication={authentication}
                lastResult={lastResult}
              />
            ) : (
              <TestCardForm
                trialDays={trialDays}
                amount={amount}
                artist={artist}
                promo={validPromo?.code}
                idempotencyKey={idempotencyKey}
                lastResult={lastResult}
              />
            )}
          </div>
        </>
      )}
    </FormPage>
  );
}
