import type { SubmissionResult } from '@conform-to/react';
import { Form, useNavigation } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { formatPrice } from '#contract/money';
import { FormAlert, SubmitButton } from '~/components/form-parts';
import { usePaymentProvider } from '~/components/payment-provider';
import { useHydrated } from '~/components/use-hydrated';
import type { Artist } from '~/utils/mappers';

/** True while a payment form of the page is being sent and until the page it leads to has loaded. */
export function usePaying() {
  const navigation = useNavigation();
  return navigation.state !== 'idle' && navigation.formMethod?.toLowerCase() === 'post';
}

/** The reason the action gave for the whole form (a refused promo, a declined card), if any. */
export function formErrors(result: SubmissionResult<string[]> | undefined) {
  return result?.error?.[''] ?? undefined;
}

export function FreeJoinForm({ idempotencyKey, lastResult }: { idempotencyKey: string; lastResult?: SubmissionResult<string[]> }) {
  const paying = usePaying();
  return (
    <Form method="post" className="space-y-5">
      <FormAlert errors={formErrors(lastResult)} />
      <input type="hidden" name="intent" value="free" />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <SubmitButton pending={paying}>Join for free</SubmitButton>
    </Form>
  );
}

/**
 * The card form with Stripe Elements (and @stripe/react-stripe-js) is fetched alongside Stripe.js, only where Stripe
 * is the gateway: the page itself does not carry it.
 */
const loadStripeCardForm = () => import('./stripe-card-form');
type StripeCardFormComponent = Awaited<ReturnType<typeof loadStripeCardForm>>['StripeCardForm'];

/** Stripe: Elements once JavaScript runs; before that (or without it) a plain post that opens Stripe Checkout. */
export function StripePayment(props: {
  artist: Artist;
  amount: number;
  /** A free trial: nothing is paid now, so the buttons start it. */
  trialDays?: number;
  promo?: string;
  idempotencyKey: string;
  publishableKey: string | null;
  /** A payment of this page that the bank asks the fan to authenticate in the page (3-D Secure). */
  authentication: { paymentId: string; clientSecret: string } | null;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { publishableKey, lastResult, ...cardFormProps } = props;
  const hydrated = useHydrated();
  const { loadStripe } = usePaymentProvider();
  // Elements only once Stripe.js and the form have loaded; until then, or if either cannot load (blocked, offline),
  // Checkout.
  const [StripeCardForm, setStripeCardForm] = useState<StripeCardFormComponent | null>(null);
  useEffect(() => {
    if (!hydrated || !publishableKey) return;
    Promise.all([loadStripe(), loadStripeCardForm()]).then(
      ([stripe, module]) => setStripeCardForm(() => (stripe ? module.StripeCardForm : null)),
      () => setStripeCardForm(null),
    );
  }, [hydrated, publishableKey, loadStripe]);
  const paying = usePaying();
  const errors = formErrors(lastResult);
  if (StripeCardForm) return <StripeCardForm {...cardFormProps} errors={errors} />;
  return (
    <Form method="post" className="space-y-5">
      <FormAlert errors={errors} />
      <input type="hidden" name="intent" value="checkout" />
      <input type="hidden" name="idempotencyKey" value={props.idempotencyKey} />
      {props.promo ? <input type="hidden" name="promo" value={props.promo} /> : null}
      <p className="text-base text-white/80">You will enter your card on Stripe’s secure page and come back here.</p>
      <SubmitButton pending={paying}>
        {props.trialDays
          ? `Continue to secure checkout · ${props.trialDays} days free`
          : `Continue to secure checkout · ${formatPrice(props.amount, props.artist.currency)}`}
      </SubmitButton>
    </Form>
  );
}
