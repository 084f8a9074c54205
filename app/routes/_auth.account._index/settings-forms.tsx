import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { Form, useNavigation } from '@remix-run/react';
import type { ReactNode } from 'react';
import { DeleteAccountSchema, EmailChangeSchema, NameChangeSchema, PasswordChangeFields, passwordsMatch } from '#contract/account-settings';
import { CheckboxField, FileField, IMAGE_ACCEPT, InputField, PasswordInputField } from '~/components/forms';
import { FormAlert, SubmitButton } from '~/components/form-parts';
import { formConstraint, parseForm } from '~/utils/form-schema';
import type { CurrentUser } from '~/utils/mappers';

type Reply = SubmissionResult<string[]> | undefined;

/** Each form's section: a heading the page's menu and the saved notices point at, and a short line of what it does. */
export function Section({ id, title, intro, children }: { id: string; title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} className="mt-8 rounded-2xl bg-navy-light p-5 ring-1 ring-white/10 sm:p-8">
      <h2 id={`${id}-title`} className="text-xl font-bold text-white sm:text-2xl">
        {title}
      </h2>
      {intro ? <div className="mt-2 text-base text-white/80">{intro}</div> : null}
      {children}
    </section>
  );
}

export function Saved({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="mt-4 rounded-lg bg-accent/15 px-3 py-2 text-base text-accent">
      {children}
    </p>
  );
}

/** The intent of the form being sent (Remix holds its data while it is on its way and the page reloads). */
function useSending(intent: string) {
  const navigation = useNavigation();
  return navigation.state !== 'idle' && navigation.formData?.get('intent') === intent;
}

const validation = { shouldValidate: 'onSubmit', shouldRevalidate: 'onInput' } as const;

export function NameForm({ user, lastResult }: { user: CurrentUser; lastResult: Reply }) {
  const [form, fields] = useForm({
    id: 'settings-name',
    lastResult,
    defaultValue: { name: user.name },
    constraint: formConstraint(NameChangeSchema),
    ...validation,
    onValidate: ({ formData }) => parseForm(formData, NameChangeSchema),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="mt-5 space-y-4">
      <input type="hidden" name="intent" value="name" />
      <FormAlert id={form.errorId} errors={form.errors} />
      <InputField field={fields.name} label="Name" hint="Shown beside your messages and comments." inputProps={{ autoComplete: 'name' }} />
      <SubmitButton pending={useSending('name')} className="sm:w-auto">
        Save name
      </SubmitButton>
    </Form>
  );
}

export function AvatarForm({ user, hasAvatar, lastResult }: { user: CurrentUser; hasAvatar: boolean; lastResult: Reply }) {
  const sending = useSending('avatar');
  const removing = useSending('remove-avatar');
  const [form, fields] = useForm<{ file: File }>({ id: 'settings-avatar', lastResult });
  return (
    <div className="mt-5 flex flex-col gap-5 sm:flex-row sm:items-start">
      <img
        src={user.avatarUrl}
        alt="You, as others see you"
        width={96}
        height={96}
        className="h-24 w-24 shrink-0 rounded-full bg-white/10 object-cover"
      />
      <div className="min-w-0 flex-1 space-y-4">
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-4">
          <input type="hidden" name="intent" value="avatar" />
          <FormAlert id={form.errorId} errors={form.errors} />
          <FileField
            field={fields.file}
            label="New picture"
            hint="JPEG, PNG, WebP or GIF, up to 5 MB. We cut it to a square."
            accept={IMAGE_ACCEPT}
            uploading={sending}
          />
          <SubmitButton pending={sending} className="sm:w-auto">
            Upload picture
          </SubmitButton>
        </Form>
        {hasAvatar ? (
          <Form method="post">
            <input type="hidden" name="intent" value="remove-avatar" />
            <button
              type="submit"
              disabled={removing}
              className="rounded-full border border-white/30 px-4 py-2 text-base font-semibold text-white hover:border-accent hover:text-accent focus:outline-none focus-visible:ring-2 focus-visible:ring-accent disabled:opacity-70"
            >
              Remove picture
            </button>
          </Form>
        ) : null}
      </div>
    </div>
  );
}

export function EmailForm({ lastResult }: { lastResult: Reply }) {
  const [form, fields] = useForm({
    id: 'settings-email',
    lastResult,
    constraint: formConstraint(EmailChangeSchema),
    ...validation,
    onValidate: ({ formData }) => parseForm(formData, EmailChangeSchema),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="mt-5 space-y-4">
      <input type="hidden" name="intent" value="email" />
      <FormAlert id={form.errorId} errors={form.errors} />
      <InputField field={fields.email} type="email" label="New email address" inputProps={{ autoComplete: 'email' }} />
      <PasswordInputField field={fields.currentPassword} label="Current password" inputProps={{ autoComplete: 'current-password' }} />
      <SubmitButton pending={useSending('email')} className="sm:w-auto">
        Send confirmation link
      </SubmitButton>
    </Form>
  );
}

const PasswordFormSchema = PasswordChangeFields.check(passwordsMatch);

export function PasswordForm({ lastResult }: { lastResult: Reply }) {
  const [form, fields] = useForm({
    id: 'settings-password',
    lastResult,
    constraint: formConstraint(PasswordChangeFields),
    ...validation,
    onValidate: ({ formData }) => parseForm(formData, PasswordFormSchema),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="mt-5 space-y-4">
      <input type="hidden" name="intent" value="password" />
      <FormAlert id={form.errorId} errors={form.errors} />
      <PasswordInputField field={fields.currentPassword} label="Current password" inputProps={{ autoComplete: 'current-password' }} />
      <PasswordInputField
        field={fields.password}
        label="New password"
        inputProps={{ autoComplete: 'new-password' }}
        hint="At least 10 characters, with an uppercase letter, a lowercase letter, a number and a special character."
      />
      <PasswordInputField field={fields.confirmPassword} label="Confirm new password" inputProps={{ autoComplete: 'new-password' }} />
      <SubmitButton pending={useSending('password')} className="sm:w-auto">
        Change password
      </SubmitButton>
    </Form>
  );
}

export function DeleteForm({ lastResult }: { lastResult: Reply }) {
  const [form, fields] = useForm({
    id: 'settings-delete',
    lastResult,
    constraint: formConstraint(DeleteAccountSchema),
    ...validation,
    onValidate: ({ formData }) => parseForm(formData, DeleteAccountSchema),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="mt-5 space-y-4">
      <input type="hidden" name="intent" value="delete" />
      <FormAlert id={form.errorId} errors={form.errors} />
      <PasswordInputField field={fields.currentPassword} label="Current password" inputProps={{ autoComplete: 'current-password' }} />
      <CheckboxField
        field={fields.confirm}
        label="I understand: my memberships stop renewing, and my account and its data are deleted for good."
      />
      <button
        type="submit"
        disabled={useSending('delete')}
        className="inline-flex items-center justify-center rounded-full bg-red-600 px-5 py-3 text-base font-semibold text-white hover:bg-red-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-white disabled:opacity-70"
      >
        Delete my account
      </button>
    </Form>
  );
}
