import { Elements } from '@stripe/react-stripe-js';
import type { StripeElementsOptions } from '@stripe/stripe-js';
import { useState, type ReactNode } from 'react';
import { usePaymentProvider } from '~/components/payment-provider';

/**
 * Stripe Elements for a payment page. Only the Stripe card form imports this module, and the payment route loads
 * that form on demand, so @stripe/react-stripe-js stays out of every page's first bundle; Stripe.js is downloaded
 * the first time it renders (see payment-provider.tsx). Render it only in the browser (Elements needs the DOM).
 */
export function PaymentElements({ options, children }: { options?: StripeElementsOptions; children: ReactNode }) {
  const { loadStripe } = usePaymentProvider();
  const [stripe] = useState(loadStripe);
  return (
    <Elements stripe={stripe} options={options}>
      {children}
    </Elements>
  );
}
