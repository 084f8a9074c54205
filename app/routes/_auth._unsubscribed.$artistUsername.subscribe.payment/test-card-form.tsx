import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { Form } from '@remix-run/react';
import { formatPrice } from '#contract/money';
import { TestCardFormSchema } from '#contract/payment-schemas';
import { InputField } from '~/components/forms';
import { FormAlert, SubmitButton } from '~/components/form-parts';
import { formConstraint, parseForm } from '~/utils/form-schema';
import type { Artist } from '~/utils/mappers';
import { formatAsTyped, formatCardNumber, formatExpiry } from './card-typing';
import { usePaying } from './payment-forms';

/** Stripe's documented test cards, shown on the test gateway's page. */
const TEST_CARDS = [
  { number: '4242 4242 4242 4242', what: 'pays' },
  { number: '4000 0000 0000 0002', what: 'is declined' },
  { number: '4000 0027 6000 3184', what: 'asks you to authenticate' },
  { number: '4000 0000 0000 0069', what: 'has expired' },
];

function TestPaymentNotice() {
  return (
    <div className="mb-5 rounded-xl border border-accent/60 bg-accent/10 p-4 text-sm text-white/90">
      <p className="font-semibold text-accent">Test payment: nothing is charged.</p>
      <p className="mt-1">
        This Stagedoor runs without a card payment provider. Use one of these test cards, with any future expiry date and any security code:
      </p>
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

/**
 * The test gateway's card form (no card payment provider configured): checked in the browser and by the action with
 * the same schema; a declined card's reason comes back above the fields, which keep what the fan typed.
 */
export function TestCardForm({
  artist,
  amount,
  promo,
  idempotencyKey,
  lastResult,
  trialDays = 0,
}: {
  artist: Artist;
  amount: number;
  /** A free trial: nothing is paid now, so the button starts it. */
  trialDays?: number;
  promo?: string;
  idempotencyKey: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const paying = usePaying();
  const [form, fields] = useForm({
    id: 'card',
    lastResult,
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
        <input type="hidden" name="intent" value="test-card" />
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        {promo ? <input type="hidden" name="promo" value={promo} /> : null}
        <InputField
          field={fields.number}
          label="Card number"
          inputProps={{
            inputMode: 'numeric',
            autoComplete: 'cc-number',
            placeholder: '1234 1234 1234 1234',
            onInput: formatAsTyped(formatCardNumber),
          }}
        />
        <div className="grid grid-cols-2 gap-4">
          <InputField
            field={fields.expiry}
            label="Expiry date"
            inputProps={{ inputMode: 'numeric', autoComplete: 'cc-exp', placeholder: 'MM/YY', onInput: formatAsTyped(formatExpiry) }}
          />
          <InputField
            field={fields.cvc}
            label="Security code"
            inputProps={{ inputMode: 'numeric', autoComplete: 'cc-csc', placeholder: 'CVC' }}
          />
        </div>
        <SubmitButton pending={paying}>
          {trialDays ? `Start your ${trialDays}-day free trial` : `Pay ${formatPrice(amount, artist.currency)}`}
        </SubmitButton>
      </Form>
    </>
  );
}
