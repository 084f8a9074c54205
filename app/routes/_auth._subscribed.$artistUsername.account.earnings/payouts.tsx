import { Form, useNavigation } from '@remix-run/react';
import type { PayoutStatus } from '#contract/earnings';
import { SubmitButton } from '~/components/form-parts';

const TEXT: Record<PayoutStatus, { title: string; body: string; button: string | null }> = {
  none: {
    title: 'Get paid out',
    body: 'Connect a payout account (Stripe Express: your bank details, kept by Stripe) and each payment goes to it, less the platform’s fee. Until then your share is held for you.',
    button: 'Set up payouts',
  },
  pending: {
    title: 'Finish setting up payouts',
    body: 'Your payout account is not ready yet: Stripe still needs some details. Payments are held for you until it is.',
    button: 'Continue setting up payouts',
  },
  enabled: {
    title: 'Payouts are on',
    body: 'Each payment goes to your payout account, less the platform’s fee; Stripe pays it into your bank on its schedule.',
    button: null,
  },
};

/** Where the artist's money goes: the Stripe Connect onboarding link (a form: it works without JavaScript). */
export function Payouts({ status, feePercent, justBack }: { status: PayoutStatus; feePercent: number; justBack: boolean }) {
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'payouts';
  const text = TEXT[status];
  return (
    <section aria-labelledby="payouts-title" className="rounded-2xl bg-navy-light p-6 ring-1 ring-white/10 sm:p-8">
      <h2 id="payouts-title" className="text-xl font-bold text-white">
        {text.title}
      </h2>
      {justBack && status !== 'enabled' ? (
        <p role="status" className="mt-3 rounded-lg bg-accent/15 px-3 py-2 text-base text-accent">
          Payouts are not set up yet. Continue where you left off when you are ready.
        </p>
      ) : null}
      {justBack && status === 'enabled' ? (
        <p role="status" className="mt-3 rounded-lg bg-accent/15 px-3 py-2 text-base text-accent">
          Payouts are set up.
        </p>
      ) : null}
      <p className="mt-2 text-base text-white/80">{text.body}</p>
      <p className="mt-2 text-sm text-white/70">
        The platform’s fee is {feePercent}% of each payment, and of each refund it gives back its share.
      </p>
      {text.button ? (
        <Form method="post" className="mt-4">
          <input type="hidden" name="intent" value="payouts" />
          <SubmitButton pending={pending} className="sm:w-auto">
            {text.button}
          </SubmitButton>
        </Form>
      ) : null}
    </section>
  );
}
