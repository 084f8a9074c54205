import { getFormProps, useForm } from '@conform-to/react';
import type { MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation, type ShouldRevalidateFunction } from '@remix-run/react';
import { giftMessages } from '#contract/gifts';
import { formatPrice } from '#contract/money';
import { FormPage } from '~/components/form-page';
import { FormAlert, SubmitButton } from '~/components/form-parts';
import { InputField, TextareaField } from '~/components/forms';
import { formConstraint, parseForm } from '~/utils/form-schema';
import { GiftCardFormSchema, GiftCheckoutFormSchema } from './gift-schemas';
import { giftAction, loadGift } from './gift.server';
import { possessive } from '#contract/names';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Give a year of ${possessive(data.artist.name)} fan club | Stagedoor` : 'Give a membership | Stagedoor' },
];

/**
 * /{artist}/gift: a signed-in fan buys a year of the artist's fan club for someone's email address, with a message.
 * The recipient is mailed a link that works with or without an account; the gift never renews by itself. With the
 * test gateway the card is typed here; with Stripe the fan pays on Stripe Checkout (with or without JavaScript).
 */
export const loader = loadGift;
export const action = giftAction;

/** After any post the loader runs again: the next attempt needs a new idempotency key. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod?.toLowerCase() === 'post' || defaultShouldRevalidate;

/** The form's fields: the card's only with the test gateway (Stripe takes the card on its own page). */
type GiftFields = { recipientEmail: string; message: string; number: string; expiry: string; cvc: string };

export default function GiftPage() {
  const { artist, gateway, own, artistBuyer, returnedFailure, idempotencyKey } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const paying = navigation.state !== 'idle' && navigation.formMethod?.toLowerCase() === 'post';
  const card = gateway === 'test';
  const [form, fields] = useForm<GiftFields, Record<string, unknown>>({
    id: 'gift',
    lastResult,
    constraint: card ? formConstraint(GiftCardFormSchema) : formConstraint(GiftCheckoutFormSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => (card ? parseForm(formData, GiftCardFormSchema) : parseForm(formData, GiftCheckoutFormSchema)),
  });
  const price = formatPrice(artist.yearlyPrice, artist.currency);
  const unavailable = own
    ? 'This is your own fan club: share the page with a fan instead.'
    : artistBuyer
      ? giftMessages.artistBuyer
      : artist.yearlyPrice === 0
        ? 'This fan club is free: anyone can join it without a gift.'
        : null;
  return (
    <FormPage
      title="Give a year"
      intro={
        <p>
          A year of {possessive(artist.name)} fan club for someone else, for {price}. They get a mail with a link to open it; it never
          renews by itself.
        </p>
      }
      aside={
        <div className="mb-8 flex items-center gap-4 rounded-2xl bg-navy-light/70 p-4 ring-1 ring-white/10">
          <img src={artist.avatarUrl} alt="" className="h-14 w-14 shrink-0 rounded-full object-cover ring-2 ring-accent" />
          <div className="min-w-0 flex-1">
            <p className="truncate text-lg font-bold text-white">{artist.name}</p>
            <p className="text-base text-white/80">A gift membership · {price}, once</p>
          </div>
        </div>
      }
    >
      {unavailable ? (
        <p className="text-base text-white/85">{unavailable}</p>
      ) : (
        <Form method="post" {...getFormProps(form)} className="space-y-5">
          <FormAlert id={form.errorId} errors={form.errors ?? (returnedFailure ? [returnedFailure] : undefined)} />
          <InputField field={fields.recipientEmail} type="email" label="Their email address" inputProps={{ autoComplete: 'off' }} />
          <TextareaField
            field={fields.message}
            label="A message (optional)"
            hint="It goes in the mail with the link."
            textareaProps={{ rows: 3 }}
          />
          {card ? (
            <>
              <p className="rounded-xl border border-accent/60 bg-accent/10 p-3 text-sm text-white/90">
                <span className="font-semibold text-accent">Test payment: nothing is charged.</span> Use 4242 4242 4242 4242 with any future
                expiry and any security code.
              </p>
              <InputField
                field={fields.number}
                label="Card number"
                inputProps={{ inputMode: 'numeric', autoComplete: 'cc-number', placeholder: '1234 1234 1234 1234' }}
              />
              <div className="grid grid-cols-2 gap-4">
                <InputField
                  field={fields.expiry}
                  label="Expiry date"
                  inputProps={{ inputMode: 'numeric', autoComplete: 'cc-exp', placeholder: 'MM/YY' }}
                />
                <InputField
                  field={fields.cvc}
                  label="Security code"
                  inputProps={{ inputMode: 'numeric', autoComplete: 'cc-csc', placeholder: 'CVC' }}
                />
              </div>
            </>
          ) : null}
          {/* Last: a hidden input first in the form would take the spacing of the first field. */}
          <input type="hidden" name="intent" value={gateway === 'test' ? 'test-card' : 'checkout'} />
          <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
          <SubmitButton pending={paying}>{gateway === 'test' ? `Pay ${price}` : `Continue to secure checkout · ${price}`}</SubmitButton>
        </Form>
      )}
    </FormPage>
  );
}
