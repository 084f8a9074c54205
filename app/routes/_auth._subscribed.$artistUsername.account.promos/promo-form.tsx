import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { Form, useNavigation } from '@remix-run/react';
import { ArtistPromoSchema } from '#contract/promo-schemas';
import { FormAlert, SubmitButton } from '~/components/form-parts';
import { InputField, SelectField } from '~/components/forms';
import { formConstraint, parseForm } from '~/utils/form-schema';

/** A new promo code: what it takes off the first year, until when, for how many payments. */
export function PromoForm({ currency, lastResult }: { currency: string; lastResult?: SubmissionResult<string[]> }) {
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'create';
  const [form, fields] = useForm({
    id: 'new-promo',
    lastResult,
    defaultValue: { discount: 'percent' },
    constraint: formConstraint(ArtistPromoSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseForm(formData, ArtistPromoSchema),
  });
  return (
    <section aria-labelledby="new-promo-title" className="rounded-2xl bg-navy-light p-6 ring-1 ring-white/10 sm:p-8">
      <h2 id="new-promo-title" className="text-xl font-bold text-white">
        Make a code
      </h2>
      <Form method="post" {...getFormProps(form)} className="mt-5 space-y-5">
        <FormAlert id={form.errorId} errors={form.errors} />
        <input type="hidden" name="intent" value="create" />
        <InputField
          field={fields.code}
          label="Code"
          hint="What fans type, e.g. SPRING26: letters, digits, - and _."
          inputProps={{ autoCapitalize: 'characters' }}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <SelectField
            field={fields.discount}
            label="Discount"
            options={[
              { value: 'percent', label: 'Percent off' },
              { value: 'amount', label: `Amount off (${currency.toUpperCase()})` },
            ]}
          />
          <InputField
            field={fields.value}
            label="How much off"
            inputProps={{ inputMode: 'decimal' }}
            hint="e.g. 20 (percent) or 5 (amount)"
          />
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <InputField
            field={fields.endsOn}
            label="Last day (optional)"
            inputProps={{ inputMode: 'numeric', placeholder: 'DD/MM/YYYY' }}
            hint="It works until the end of that day (GMT)."
          />
          <InputField field={fields.maxUses} label="Most uses (optional)" inputProps={{ inputMode: 'numeric' }} hint="Empty: no limit." />
        </div>
        <SubmitButton pending={pending} className="sm:w-auto">
          Make the code
        </SubmitButton>
      </Form>
    </section>
  );
}
