import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react';
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { accentLinkClass, FormPage } from '~/components/form-page';
import { ErrorList, Field, FormAlert, inputClassName, SubmitButton } from '~/components/forms';
import { SubscribeSteps } from '~/components/subscribe-steps';
import { paymentHref } from '~/components/subscription-offer';
import { usePaymentProvider } from '~/components/payment-provider';
import { useHydrated } from '~/components/use-hydrated';
import { useEffect, useState } from 'react';
import { apiFor, isHttpError } from '~/utils/api.server';
import { requireUnsubscribed } from '~/utils/auth.server';
import { parseGuardedForm } from '~/utils/form-guard.server';
import { formatPrice } from '#contract/money';
import { type Artist } from '~/utils/mappers';
import { TestCardFormSchema } from '#contract/payment-schemas';
import type { Payment } from '#contract/payments';
import { cardFieldErrors, checkPromo, fetchGateway, fetchPayment, subscribeToArtist } from '~/utils/payments.server';
import { formConstraint, parseForm } from '~/utils/form-schema';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Pay for your membership · ${data.artist.name} | Stagedoor` : 'Payment | Stagedoor' },
];

/** Stripe's documented test cards, shown on the test gateway's page. */
const TEST_CARDS = [
  { number: '4242 4242 4242 4242', what: 'pays' },
  { number: '4000 0000 0000 0002', what: 'is declined' },
  { number: '4000 0027 6000 3184', what: 'asks you to authenticate' },
  { number: '4000 0000 0000 0069', what: 'has expired' },
];

/**
 * The payment step (spec §2), in the unsubscribed-only branch (its layout sends artists and members on). It shows
 * the price, a promo field that shows the discounted price (a GET form: ?promo=), and the card form of the
 * configured gateway. A fan sent back here after a failed authentication (?payment=) sees why.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const search = new URL(args.request.url).searchParams;
  const promoCode = search.get('promo')?.trim() || null;
  const paymentId = search.get('payment');
  const [{ artist }, gateway, returned] = await Promise.all([
    requireUnsubscribed(api, args.params.artistUsername),
    fetchGateway(api),
    paymentId ? fetchPayment(api, paymentId) : null,
  ]);
  const promo = promoCode && artist.yearlyPrice > 0 ? { code: promoCode, ...(await checkPromo(api, artist.id, promoCode)) } : null;
  return json(
    {
      artist,
      gateway,
      promo,
      returnedFailure: returned?.status === 'failed' ? returned.failure?.message ?? null : null,
      idempotencyKey: crypto.randomUUID(),
    },
    { headers: { 'Cache-Control': 'no-store' } },
  );
}

type Reply = SubmissionResult<string[]>;
type ActionData = { result?: Reply; idempotencyKey: string; stripeAction?: { clientSecret: string; paymentId: string } };

/** The register step in edit mode, keeping the promo code. */
function editHref(artistUsername: string, promo?: string) {
  const search = new URLSearchParams({ edit: 'true' });
  if (promo) search.set('promo', promo);
  return `/${artistUsername}/subscribe/register?${search}`;
}

function successHref(artist: Pick<Artist, 'username'>) {
  return `/${artist.username}/subscribe/success`;
}

/** Where a payment's outcome sends the fan: success, the authentication page, or back to this form with the reason. */
function follow(payment: Payment, artist: Artist): { redirect: string } | { failure: string } | { stripe: { clientSecret: string; paymentId: string } } {
  if (payment.status === 'succeeded') return { redirect: successHref(artist) };
  if (payment.status === 'requires_action' && payment.nextAction?.type === 'redirect') return { redirect: payment.nextAction.url };
  if (payment.status === 'requires_action' && payment.nextAction?.type === 'stripe_sdk' && payment._id) {
    return { stripe: { clientSecret: payment.nextAction.clientSecret, paymentId: payment._id } };
  }
  return { failure: payment.failure?.message ?? 'Your payment did not go through. You have not been charged; please try again.' };
}

export async function action(args: ActionFunctionArgs) {
  const { request } = args;
  const api = apiFor(args);
  // An action runs without its layout's loader: the same guard here.
  const { artist } = await requireUnsubscribed(api, args.params.artistUsername);

  const formData = await request.formData();
  const intent = formData.get('intent');
  const nextKey = crypto.randomUUID();
  const idempotencyKey = String(formData.get('idempotencyKey') ?? '') || undefined;
  const promo = String(formData.get('promo') ?? '').trim() || undefined;

  const pay = async (body: Parameters<typeof subscribeToArtist>[1]): Promise<{ payment: Payment } | { error: string }> => {
    try {
      return { payment: await subscribeToArtist(api, body, idempotencyKey) };
    } catch (error) {
      // Already a member (a second tab paid a moment ago): on to the artist.
      if (isHttpError(error, 409) && error.message.startsWith('You are already subscribed')) throw redirect(`/${artist.username}`);
      if (isHttpError(error, 400, 409)) return { error: error.fieldErrors.promo?.[0] ?? error.fieldErrors.cardId?.[0] ?? error.message };
      throw error;
    }
  };

  if (intent === 'free') {
    const answer = await pay({ type: 'free', performerId: artist.id });
    if ('error' in answer) return json<ActionData>({ result: { status: 'error', error: { '': [answer.error] } }, idempotencyKey: nextKey }, { status: 400 });
    throw redirect(successHref(artist));
  }

  if (intent === 'checkout' || intent === 'stripe-card') {
    const cardId = intent === 'stripe-card' ? String(formData.get('cardId') ?? '') : undefined;
    const answer = await pay({ type: 'yearly', performerId: artist.id, paymentGateway: 'stripe', cardId: cardId || undefined, promo });
    if ('error' in answer) return json<ActionData>({ result: { status: 'error', error: { '': [answer.error] } }, idempotencyKey: nextKey }, { status: 400 });
    const next = follow(answer.payment, artist);
    if ('redirect' in next) throw redirect(next.redirect);
    if ('stripe' in next) return json<ActionData>({ idempotencyKey: nextKey, stripeAction: next.stripe });
    return json<ActionData>({ result: { status: 'error', error: { '': [next.failure] } }, idempotencyKey: nextKey }, { status: 402 });
  }

  // The test gateway's card form.
  const submission = parseGuardedForm(formData, TestCardFormSchema);
  if (submission.status !== 'success') {
    return json<ActionData>({ result: submission.reply(), idempotencyKey: idempotencyKey ?? nextKey }, { status: 400 });
  }
  const { number, expiry, cvc } = submission.value;
  let cardId: string;
  try {
    const card = await api.post<{ data: { id: string } }>('/payment/test-gateway/cards', {
      number,
      expMonth: expiry.expMonth,
      expYear: expiry.expYear,
      cvc,
    });
    cardId = card.data.id;
  } catch (error) {
    if (isHttpError(error, 400)) {
      const fieldErrors = cardFieldErrors(error);
      return json<ActionData>(
        { result: submission.reply(Object.keys(fieldErrors).length ? { fieldErrors } : { formErrors: [error.message] }), idempotencyKey: idempotencyKey ?? nextKey },
        { status: 400 },
      );
    }
    throw error;
  }
  const answer = await pay({ type: 'yearly', performerId: artist.id, paymentGateway: 'test', cardId, promo });
  if ('error' in answer) return json<ActionData>({ result: submission.reply({ formErrors: [answer.error] }), idempotencyKey: nextKey }, { status: 400 });
  const next = follow(answer.payment, artist);
  if ('redirect' in next) throw redirect(next.redirect);
  const failure = 'failure' in next ? next.failure : 'Your payment did not go through. Please try again.';
  // The card details stay in the form, so the fan can correct them or try another card.
  return json<ActionData>({ result: submission.reply({ formErrors: [failure] }), idempotencyKey: nextKey }, { status: 402 });
}

export default function Payment() {
  const { artist, gateway, promo, returnedFailure, idempotencyKey } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const free = artist.yearlyPrice === 0;
  const validPromo = promo && 'promo' in promo ? promo.promo : null;
  const amount = validPromo ? validPromo.discountedPrice : artist.yearlyPrice;
  const key = actionData?.idempotencyKey ?? idempotencyKey;

  return (
    <FormPage
      title={free ? 'Join for free' : 'Pay securely'}
      intro={
        <p>
          {free
            ? `${artist.name}’s fan club is free to join.`
            : `One payment for a year of ${artist.name}’s fan club. It renews each year; you can turn that off any time from your account.`}
        </p>
      }
      aside={<OrderSummary artist={artist} promo={validPromo} />}
      footer={
        <p>
          Wrong details?{' '}
          <Link to={editHref(artist.username, promo?.code)} className={accentLinkClass}>
            Edit your account
          </Link>
        </p>
      }
    >
      {free ? (
        <FreeJoinForm result={actionData?.result} />
      ) : (
        <>
          <SubscribeSteps current={2} className="mb-6 border-b border-white/10 pb-6" />
          <PromoForm artist={artist} promo={promo} />
          <div className="mt-6 border-t border-white/10 pt-6">
            {returnedFailure && !actionData ? <FormAlert errors={[returnedFailure]} /> : null}
            {gateway.paymentGateway === 'stripe' ? (
              <StripePayment
                artist={artist}
                amount={amount}
                promo={validPromo?.code}
                idempotencyKey={key}
                publishableKey={gateway.publishableKey}
                actionData={actionData}
              />
            ) : (
              <TestCardForm key={key} amount={amount} artist={artist} promo={validPromo?.code} idempotencyKey={key} result={actionData?.result} />
            )}
          </div>
        </>
      )}
    </FormPage>
  );
}

function OrderSummary({ artist, promo }: { artist: Artist; promo: { code: string; discountedPrice: number; percentOff: number | null; amountOff: number | null } | null }) {
  const price = formatPrice(artist.yearlyPrice, artist.currency);
  return (
    <section aria-label="Your order" className="mb-8 rounded-2xl bg-navy-light/70 p-4 ring-1 ring-white/10">
      <div className="flex items-center gap-4">
        <img src={artist.avatarUrl} alt="" className="h-14 w-14 shrink-0 rounded-full object-cover ring-2 ring-accent" />
        <div className="min-w-0 flex-1">
          <p className="truncate text-lg font-bold text-white">{artist.name}</p>
          <p className="text-base text-white/80">Official fan club · yearly membership</p>
        </div>
      </div>
      {artist.yearlyPrice > 0 ? (
        <dl className="mt-4 space-y-1 border-t border-white/10 pt-4 text-base">
          <div className="flex justify-between gap-4">
            <dt className="text-white/80">First year</dt>
            <dd className="font-semibold text-white">
              {promo ? (
                <>
                  <del className="mr-2 font-normal text-white/70">
                    <span className="sr-only">was </span>
                    {price}
                  </del>
                  <ins className="no-underline">{formatPrice(promo.discountedPrice, artist.currency)}</ins>
                </>
              ) : (
                price
              )}
            </dd>
          </div>
          {promo ? (
            <div className="flex justify-between gap-4 text-sm">
              <dt className="text-accent">Promo code {promo.code}</dt>
              <dd className="text-accent">
                {promo.percentOff ? `${promo.percentOff}% off` : `${formatPrice(promo.amountOff ?? 0, artist.currency)} off`}
              </dd>
            </div>
          ) : null}
          <div className="flex justify-between gap-4 text-sm text-white/75">
            <dt>Then each year</dt>
            <dd>{price}</dd>
          </div>
        </dl>
      ) : null}
    </section>
  );
}

/** A GET form: applying a code reloads the page with ?promo=, which shows the discounted price, without JavaScript too. */
function PromoForm({ artist, promo }: { artist: Artist; promo: { code: string; error?: string; promo?: unknown } | null }) {
  const error = promo && 'error' in promo ? promo.error : undefined;
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

function TestPaymentNotice() {
  return (
    <div className="mb-5 rounded-xl border border-accent/60 bg-accent/10 p-4 text-sm text-white/90">
      <p className="font-semibold text-accent">Test payment: nothing is charged.</p>
      <p className="mt-1">This Stagedoor runs without a card payment provider. Use one of these test cards, with any future expiry date and any security code:</p>
      <ul className="mt-2 space-y-0.5">
        {TEST_CARDS.map((card) => (
          <li key={card.number}>
            <span className="font-mono text-white">{card.number}</span> {card.what}
          </li>
        ))}
      </ul>
    </div>
  );
}

function TestCardForm({
  artist,
  amount,
  promo,
  idempotencyKey,
  result,
}: {
  artist: Artist;
  amount: number;
  promo?: string;
  idempotencyKey: string;
  result?: Reply;
}) {
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formMethod?.toLowerCase() === 'post';
  const [form, fields] = useForm({
    id: 'card',
    lastResult: result,
    constraint: formConstraint(TestCardFormSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseForm(formData, TestCardFormSchema),
  });
  return (
    <>
      <TestPaymentNotice />
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <FormAlert id={form.errorId} errors={form.errors} />
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        {promo ? <input type="hidden" name="promo" value={promo} /> : null}
        <Field
          label="Card number"
          inputProps={{
            ...getInputProps(fields.number, { type: 'text' }),
            inputMode: 'numeric',
            autoComplete: 'cc-number',
            placeholder: '1234 1234 1234 1234',
          }}
          errors={fields.number.errors}
          errorId={fields.number.errorId}
        />
        <div className="grid grid-cols-2 gap-4">
          <Field
            label="Expiry date"
            inputProps={{ ...getInputProps(fields.expiry, { type: 'text' }), inputMode: 'numeric', autoComplete: 'cc-exp', placeholder: 'MM/YY' }}
            errors={fields.expiry.errors}
            errorId={fields.expiry.errorId}
          />
          <Field
            label="Security code"
            inputProps={{ ...getInputProps(fields.cvc, { type: 'text' }), inputMode: 'numeric', autoComplete: 'cc-csc', placeholder: 'CVC' }}
            errors={fields.cvc.errors}
            errorId={fields.cvc.errorId}
          />
        </div>
        <SubmitButton pending={pending}>Pay {formatPrice(amount, artist.currency)}</SubmitButton>
      </Form>
    </>
  );
}

/**
 * The card form with Stripe Elements (and @stripe/react-stripe-js) is fetched alongside Stripe.js, only where Stripe
 * is the gateway: the page itself does not carry it.
 */
const loadStripeCardForm = () => import('~/components/stripe-card-form');
type StripeCardFormComponent = Awaited<ReturnType<typeof loadStripeCardForm>>['StripeCardForm'];

/** Stripe: Elements once JavaScript runs; before that (or without it) a plain post that opens Stripe Checkout. */
function StripePayment(props: {
  artist: Artist;
  amount: number;
  promo?: string;
  idempotencyKey: string;
  publishableKey: string | null;
  actionData?: ActionData;
}) {
  const hydrated = useHydrated();
  const { loadStripe } = usePaymentProvider();
  // Elements only once Stripe.js and the form have loaded; until then, or if either cannot load (blocked, offline),
  // Checkout.
  const [StripeCardForm, setStripeCardForm] = useState<StripeCardFormComponent | null>(null);
  useEffect(() => {
    if (!hydrated || !props.publishableKey) return;
    Promise.all([loadStripe(), loadStripeCardForm()]).then(
      ([stripe, module]) => setStripeCardForm(() => (stripe ? module.StripeCardForm : null)),
      () => setStripeCardForm(null),
    );
  }, [hydrated, props.publishableKey, loadStripe]);
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formMethod?.toLowerCase() === 'post';
  const errors = props.actionData?.result?.error?.[''] ?? undefined;
  if (StripeCardForm) return <StripeCardForm {...props} errors={errors ?? undefined} />;
  return (
    <Form method="post" className="space-y-5">
      <FormAlert errors={errors ?? undefined} />
      <input type="hidden" name="intent" value="checkout" />
      <input type="hidden" name="idempotencyKey" value={props.idempotencyKey} />
      {props.promo ? <input type="hidden" name="promo" value={props.promo} /> : null}
      <p className="text-base text-white/80">You will enter your card on Stripe’s secure page and come back here.</p>
      <SubmitButton pending={pending}>Continue to secure checkout · {formatPrice(props.amount, props.artist.currency)}</SubmitButton>
    </Form>
  );
}

function FreeJoinForm({ result }: { result?: Reply }) {
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formMethod?.toLowerCase() === 'post';
  return (
    <Form method="post" className="space-y-5">
      <FormAlert errors={result?.error?.[''] ?? undefined} />
      <input type="hidden" name="intent" value="free" />
      <SubmitButton pending={pending}>Join for free</SubmitButton>
    </Form>
  );
}
