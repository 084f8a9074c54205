import type { Stripe } from '@stripe/stripe-js';
import { createContext, useContext, useMemo, type ReactNode } from 'react';

/**
 * The card payment provider context of the root layout.
 *
 * Loading Stripe.js on every page would cost every fan a third-party script download and hand Stripe a
 * beacon on pages that have nothing to do with paying. So the root only provides a loader: the first
 * payment page that asks for Stripe (through `PaymentElements`, in the payment route's folder, which the route
 * loads with its Stripe card form) triggers the dynamic import of @stripe/stripe-js and the script download, once per page
 * load. Without a publishable key (the test gateway) there is no Stripe to load and the loader resolves to null.
 */
interface PaymentContextValue {
  publishableKey: string;
  loadStripe: () => Promise<Stripe | null>;
}

const PaymentContext = createContext<PaymentContextValue | null>(null);

export function PaymentProvider({ publishableKey, children }: { publishableKey: string; children: ReactNode }) {
  const value = useMemo<PaymentContextValue>(() => {
    let stripe: Promise<Stripe | null> | undefined;
    return {
      publishableKey,
      loadStripe() {
        if (!publishableKey || typeof document === 'undefined') return Promise.resolve(null);
        // The /pure entry does not inject the script on import; loadStripe does, only now.
        stripe ??= import('@stripe/stripe-js/pure').then((module) => module.loadStripe(publishableKey));
        return stripe;
      },
    };
  }, [publishableKey]);
  return <PaymentContext.Provider value={value}>{children}</PaymentContext.Provider>;
}

export function usePaymentProvider() {
  const value = useContext(PaymentContext);
  if (!value) throw new Error('usePaymentProvider must be used inside <PaymentProvider> (app/root.tsx)');
  return value;
}
