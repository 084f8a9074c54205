import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { Form, useNavigation } from '@remix-run/react';
import { EMAIL_CHOICES, type NotificationPreferences as Choices } from '#contract/notifications';
import { FormAlert, SubmitButton } from '~/components/form-parts';
import { CheckboxField, SelectField } from '~/components/forms';
import { PushOptIn } from '~/components/push-opt-in';
import { formConstraint, parseForm } from '~/utils/form-schema';
import type { Artist } from '~/utils/mappers';
import { EMAIL_CHOICE_LABELS, NotificationChoicesSchema } from './notification-choices';

const EMAIL_OPTIONS = EMAIL_CHOICES.map((value) => ({ value, label: EMAIL_CHOICE_LABELS[value] }));

/**
 * How this artist's new posts reach the fan (docs/notifications.md "What the fan sees"): by mail (each post, a daily
 * digest, or none), by web push to the browsers they turned it on in, and in the bell. A plain form.
 */
export function NotificationPreferences({
  artist,
  choices,
  saved,
  lastResult,
}: {
  artist: Pick<Artist, 'name'>;
  choices: Choices;
  saved: boolean;
  lastResult?: SubmissionResult<string[]>;
}) {
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'notifications';
  const [form, fields] = useForm({
    id: 'notifications',
    lastResult,
    defaultValue: { email: choices.email, push: choices.push ? 'on' : undefined, inApp: choices.inApp ? 'on' : undefined },
    constraint: formConstraint(NotificationChoicesSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseForm(formData, NotificationChoicesSchema),
  });
  return (
    <section aria-labelledby="notifications-title" className="mt-10 rounded-2xl bg-navy-light p-6 ring-1 ring-white/10 sm:p-8">
      <h2 id="notifications-title" className="text-2xl font-bold text-white">
        Notifications
      </h2>
      <p className="mt-2 text-base text-white/80">How you hear about new posts from {artist.name}.</p>
      {saved ? (
        <p role="status" className="mt-4 rounded-lg bg-accent/15 px-3 py-2 text-base text-accent">
          Your notification choices are saved.
        </p>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="mt-6 max-w-md space-y-5">
        <FormAlert id={form.errorId} errors={form.errors} />
        <input type="hidden" name="intent" value="notifications" />
        <SelectField field={fields.email} label="Email" options={EMAIL_OPTIONS} />
        <CheckboxField
          field={fields.push}
          label="Push notifications"
          hint="To each browser where you chose “Get notified in this browser”."
        />
        <CheckboxField field={fields.inApp} label="In the notification bell" hint="And on your notifications page." />
        <SubmitButton pending={pending} className="sm:w-auto">
          Save notification choices
        </SubmitButton>
      </Form>
      <PushOptIn className="mt-6" />
    </section>
  );
}
