import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { Form, useNavigation } from '@remix-run/react';
import { ArtistProfileSchema } from '#contract/artist-profile';
import type { MoneySettings } from '#contract/earnings';
import { CURRENCIES, CURRENCY_LABELS, type Currency } from '#contract/money';
import { CheckboxField, InputField, SelectField, TextareaField } from '~/components/forms';
import { FormAlert, SubmitButton } from '~/components/form-parts';
import { formConstraint, parseForm } from '~/utils/form-schema';
import type { Artist } from '~/utils/mappers';

/** The artist's profile and offer, and the page fans see after joining (PUT /performers/me). */
export function ProfileForm({
  artist,
  welcomeVideoOn,
  keepPaidItemsOn,
  money,
  saved,
  lastResult,
}: {
  artist: Artist;
  welcomeVideoOn: boolean;
  keepPaidItemsOn: boolean;
  money: MoneySettings;
  saved: boolean;
  lastResult?: SubmissionResult<string[]>;
}) {
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'profile';
  const [form, fields] = useForm({
    id: 'profile',
    lastResult,
    defaultValue: {
      name: artist.name,
      bio: artist.bio,
      yearlyPrice: artist.yearlyPrice.toFixed(2),
      currency: money.currency,
      trialDays: String(money.trialDays),
      headlineOfferDescription: artist.headlineOfferDescription,
      subscriptionPerks: artist.subscriptionPerks.join('\n'),
      successPageTitle: artist.successPageTitle,
      secondarySuccessMessage: artist.secondarySuccessMessage,
      additionalSuccessMessage: artist.additionalSuccessMessage,
      heroImageAltText: artist.heroImageAltText,
      headlineImageAltText: artist.headlineImageAltText,
      activateWelcomeVideo: welcomeVideoOn ? 'on' : undefined,
      keepPaidItems: keepPaidItemsOn ? 'on' : undefined,
    },
    constraint: formConstraint(ArtistProfileSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseForm(formData, ArtistProfileSchema),
  });
  return (
    <section aria-labelledby="profile-title" className="rounded-2xl bg-navy-light p-6 ring-1 ring-white/10 sm:p-8">
      <h2 id="profile-title" className="text-2xl font-bold text-white">
        Profile and offer
      </h2>
      {saved ? (
        <p role="status" className="mt-4 rounded-lg bg-accent/15 px-3 py-2 text-base text-accent">
          Saved. Fans see the changes now.
        </p>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="mt-6 space-y-6">
        <FormAlert id={form.errorId} errors={form.errors} />
        <input type="hidden" name="intent" value="profile" />
        <fieldset className="space-y-5">
          <legend className="text-lg font-semibold text-white">Your profile</legend>
          <InputField field={fields.name} label="Name" />
          <TextareaField field={fields.bio} label="Bio" />
        </fieldset>
        <hr className="border-white/10" />
        <fieldset className="space-y-5">
          <legend className="text-lg font-semibold text-white">Your offer</legend>
          {money.currencyLocked ? (
            <div>
              <p className="text-sm font-medium text-white/90">Currency</p>
              <p className="mt-1 text-base text-white">{CURRENCY_LABELS[money.currency as Currency] ?? money.currency.toUpperCase()}</p>
              <p className="mt-1 text-sm text-white/70">Fans have paid in it, so it stays: their receipts and renewals are in it.</p>
            </div>
          ) : (
            <SelectField
              field={fields.currency}
              label="Currency"
              options={CURRENCIES.map((code) => ({ value: code, label: CURRENCY_LABELS[code] }))}
              hint="What fans pay in. Choose it before your first fan pays: it cannot change after that."
            />
          )}
          <InputField
            field={fields.yearlyPrice}
            label={`Yearly price (${money.currency.toUpperCase()})`}
            inputProps={{ inputMode: 'decimal' }}
            hint="0 makes joining free. A new price applies to new members and to renewals."
          />
          <InputField
            field={fields.trialDays}
            label="Free trial (days)"
            inputProps={{ inputMode: 'numeric' }}
            hint="New members try the club free for this many days, then pay for the year. 0: no trial."
          />
          <TextareaField field={fields.headlineOfferDescription} label="Offer description" />
          <TextareaField field={fields.subscriptionPerks} label="Perks, one a line" textareaProps={{ rows: 6 }} />
          <CheckboxField field={fields.activateWelcomeVideo} label="Show my welcome video to members" />
          <CheckboxField
            field={fields.keepPaidItems}
            label="Keep what you paid for"
            hint="A fan whose membership ends keeps reading and playing what you published while they paid. Newer items ask them to subscribe again."
          />
        </fieldset>
        <hr className="border-white/10" />
        <fieldset className="space-y-5">
          <legend className="text-lg font-semibold text-white">The page after joining</legend>
          <InputField field={fields.successPageTitle} label="Title" />
          <TextareaField field={fields.secondarySuccessMessage} label="Message" textareaProps={{ rows: 2 }} />
          <TextareaField field={fields.additionalSuccessMessage} label="Additional message" textareaProps={{ rows: 2 }} />
        </fieldset>
        <hr className="border-white/10" />
        <fieldset className="space-y-5">
          <legend className="text-lg font-semibold text-white">Image descriptions</legend>
          <InputField field={fields.heroImageAltText} label="Hero image description (alt text)" />
          <InputField field={fields.headlineImageAltText} label="Headline image description (alt text)" />
        </fieldset>
        <SubmitButton pending={pending} className="sm:w-auto">
          Save changes
        </SubmitButton>
      </Form>
    </section>
  );
}
