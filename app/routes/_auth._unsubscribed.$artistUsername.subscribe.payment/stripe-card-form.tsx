import { CardElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { useNavigate, useSubmit } from '@remix-run/react';
import { useEffect, useState, type FormEvent } from 'react';
import { formatPrice } from '#contract/money';
import { type Artist } from '~/utils/mappers';
import { FormAlert, SubmitButton } from '~/components/form-parts';
import { PaymentElements } from './payment-elements';

/**
 * The Stripe card form, in the browser only (the payment page renders the Checkout fallback until JavaScript runs).
 * Stripe.js turns the card into a PaymentMethod; the page's action pays with it (POST /payment/subscribe/performers).
 * When the bank asks for 3-D Secure the action sends the page back to itself with the payment's id, its loader gives
 * the client secret, Stripe.js shows the challenge, and the confirm page finishes the payment.
 */
export function StripeCardForm(props: {
  artist: Artist;
  amount: number;
  trialDays?: number;
  promo?: string;
  idempotencyKey: string;
  authentication: { paymentId: string; clientSecret: string } | null;
  errors?: string[];
}) {
  return (
    <PaymentElements>
      <CardForm {...props} />
    </PaymentElements>
  );
}

function CardForm({ artist, amount, trialDays, promo, idempotencyKey, authentication, errors }: Parameters<typeof StripeCardForm>[0]) {
  const stripe = useStripe();
  const elements = useElements();
  const submit = useSubmit();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setBusy(false);
  }, [errors]);

  // The bank asked for authentication: Stripe.js shows it, then the confirm page asks the api where it stands.
  const { paymentId, clientSecret } = authentication ?? {};
  useEffect(() => {
    if (!stripe || !paymentId || !clientSecret) return;
    setBusy(true);
    void stripe.handleNextAction({ clientSecret }).then(() => {
      navigate(`/${artist.username}/subscribe/confirm?${new URLSearchParams({ payment: paymentId })}`);
    });
  }, [stripe, paymentId, clientSecret, artist.username, navigate]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const card = elements?.getElement(CardElement);
    if (!stripe || !card) return;
    setBusy(true);
    setError(null);
    const { paymentMethod, error: cardError } = await stripe.createPaymentMethod({ type: 'card', card });
    if (cardError || !paymentMethod) {
      setError(cardError?.message ?? 'Please check your card details.');
      setBusy(false);
      return;
    }
    const data: Record<string, string> = { intent: 'stripe-card', cardId: paymentMethod.id, idempotencyKey };
    if (promo) data.promo = promo;
    submit(data, { method: 'post' });
  }

  return (
    <form onSubmit={onSubmit} className="space-y-5" noValidate>
      <FormAlert errors={error ? [error] : errors} />
      <div>
        <p id="card-label" className="mb-1.5 block text-sm font-medium text-white/90">
          Card
        </p>
        <div className="rounded-lg border border-white/25 bg-white px-3 py-3" aria-labelledby="card-label">
          <CardElement options={{ hidePostalCode: true, style: { base: { fontSize: '16px', color: '#0b1a33' } } }} />
        </div>
      </div>
      <SubmitButton pending={busy} disabled={!stripe}>
        {trialDays ? `Start your ${trialDays}-day free trial` : `Pay ${formatPrice(amount, artist.currency)}`}
      </SubmitButton>
    </form>
  );
}
