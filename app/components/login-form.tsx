import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { type FetcherWithComponents, Form, Link } from '@remix-run/react';
import { LoginSchema } from '#contract/accounts';
import { InputField, PasswordInputField } from './forms';
import { FormAlert, SubmitButton } from './form-parts';
import { formConstraint, parseForm } from '~/utils/form-schema';

/** What the /login action answers: conform's reply on failure, { ok: true } to the dialog on success. */
export type LoginActionData = SubmissionResult<string[]>;

/** The /login action's reply to the dialog: success, with the session cookie set. */
export function isLoginSuccess(data: LoginActionData | undefined) {
  return data?.status === 'success';
}

export function forgotPasswordHref(artist?: string | null) {
  return artist ? `/password/reset/request?${new URLSearchParams({ artist })}` : '/password/reset/request';
}

export interface LoginFormProps {
  /** A fixed form id: conform keys its state by it. */
  id: string;
  /** The dialog submits through a fetcher (the page stays put); the /login page through a plain Form. */
  fetcher?: FetcherWithComponents<LoginActionData>;
  lastResult?: LoginActionData;
  pending: boolean;
  artist?: string | null;
  /** Extra hidden fields posted with the form (redirectTo, intent). */
  hidden?: Record<string, string | null | undefined>;
}

/**
 * The log-in form of the dialog and of the /login page: it validates with LoginSchema on
 * submit and then on every input; while submitting, the button is disabled with a spinner and the previous
 * error is hidden; a failure shows a red alert and puts both inputs in the error style.
 */
export function LoginForm({ id, fetcher, lastResult, pending, artist, hidden = {} }: LoginFormProps) {
  const [form, fields] = useForm({
    id,
    lastResult: isLoginSuccess(lastResult) ? undefined : lastResult,
    constraint: formConstraint(LoginSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseForm(formData, LoginSchema),
  });
  const FormElement = fetcher ? fetcher.Form : Form;
  const formErrors = pending ? undefined : form.errors;
  const failed = Boolean(formErrors?.length);
  // A failed log-in concerns both inputs: mark them invalid and point them at the alert.
  const failure = failed ? { 'aria-invalid': true, 'aria-describedby': form.errorId } : {};

  return (
    <FormElement method="post" action="/login" {...getFormProps(form)} className="flex flex-col gap-5">
      {Object.entries({ ...hidden, artist }).map(([name, value]) =>
        value ? <input key={name} type="hidden" name={name} value={value} /> : null,
      )}
      <FormAlert id={form.errorId} errors={formErrors} />
      <InputField
        field={fields.usernameOrEmail}
        label="Email address"
        type="email"
        inputProps={{ placeholder: 'Enter your email', autoComplete: 'email', ...failure }}
        invalid={failed}
        hideErrors={pending}
      />
      <div>
        <PasswordInputField
          field={fields.password}
          label="Password"
          inputProps={{ placeholder: 'Enter your password', autoComplete: 'current-password', ...failure }}
          invalid={failed}
          hideErrors={pending}
        />
        <p className="mt-2 text-right text-sm">
          <Link
            to={forgotPasswordHref(artist)}
            className="rounded font-medium text-accent underline-offset-4 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
          >
            Forgot your password
          </Link>
        </p>
      </div>
      <SubmitButton pending={pending}>Log In</SubmitButton>
    </FormElement>
  );
}
