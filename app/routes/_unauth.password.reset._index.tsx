import { getFormProps, useForm } from '@conform-to/react';
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { accentLinkClass, FormPage } from '~/components/form-page';
import { PasswordInputField } from '~/components/forms';
import { FormAlert, SubmitButton } from '~/components/form-parts';
import { apiFor, isHttpError } from '~/utils/api.server';
import { parseGuardedForm, readFormData } from '~/utils/form-guard.server';
import { apiErrorReply, formReply } from '~/utils/form-reply.server';
import { ResetPasswordSchema } from '#contract/accounts';
import { formConstraint, parseForm } from '~/utils/form-schema';

export const meta: MetaFunction = () => [{ title: 'Choose a new password | Stagedoor' }];

/** The API's words for a spent or expired link (docs/api.md); used too when the token is missing altogether. */
const INVALID_LINK = 'This password reset link is invalid or has expired. Please request a new one.';

function readSearch(request: Request) {
  const search = new URL(request.url).searchParams;
  const artist = search.get('artist')?.trim();
  return {
    token: search.get('token')?.trim() || null,
    artist: artist && /^[A-Za-z0-9]+$/.test(artist) ? artist : null,
  };
}

function requestLinkHref(artist: string | null) {
  return artist ? `/password/reset/request?${new URLSearchParams({ artist })}` : '/password/reset/request';
}

/** The reset link of the mail lands here with ?token=… (required) and maybe &artist=…. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { token, artist } = readSearch(request);
  return { hasToken: Boolean(token), artist };
}

/**
 * POST /auth/password-change?token=…, and on success the fan logs in with the new password
 * (/login?pwResetSuccess=true). A spent or expired link is a form error offering a new one.
 */
export async function action(args: ActionFunctionArgs) {
  const { token, artist } = readSearch(args.request);
  const submission = parseGuardedForm(await readFormData(args.request), ResetPasswordSchema);
  const hideFields = ['password', 'confirmPassword'];
  if (submission.status !== 'success') return formReply(submission, { hideFields });
  if (!token) return formReply(submission, { formErrors: [INVALID_LINK], hideFields });
  try {
    await apiFor(args).post('/auth/password-change', { password: submission.value.password }, { params: { token } });
  } catch (error) {
    if (!isHttpError(error) || error.status >= 500) throw error;
    // A refused password is the password field's; anything else (a used or expired link) is the whole form's.
    return error.fieldErrors.password?.length
      ? apiErrorReply(submission, error, 'password', { hideFields })
      : formReply(submission, { formErrors: [error.body?.message ?? INVALID_LINK], hideFields }, error.status === 429 ? 429 : 400);
  }
  const search = new URLSearchParams({ pwResetSuccess: 'true' });
  if (artist) search.set('artist', artist);
  throw redirect(`/login?${search}`);
}

export default function ResetPassword() {
  const { hasToken, artist } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: 'reset-password',
    lastResult,
    constraint: formConstraint(ResetPasswordSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseForm(formData, ResetPasswordSchema),
  });
  const newLink = (
    <Link to={requestLinkHref(artist)} className={accentLinkClass}>
      Request a new link
    </Link>
  );

  if (!hasToken) {
    return (
      <FormPage title="This link is incomplete" intro={<p>The address you opened has no reset code in it.</p>}>
        <div className="space-y-4 text-base text-white/85">
          <p>Open the link from your password reset email again, making sure to copy the whole address, or ask for a new one.</p>
          <p>{newLink}</p>
        </div>
      </FormPage>
    );
  }

  return (
    <FormPage title="Choose a new password" intro={<p>You’ll use it to log in from now on, on every device.</p>}>
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        {form.errors?.length ? (
          <div className="space-y-2">
            <FormAlert id={form.errorId} errors={form.errors} />
            <p className="text-base">{newLink}</p>
          </div>
        ) : null}
        <PasswordInputField
          field={fields.password}
          label="New password"
          inputProps={{ autoComplete: 'new-password' }}
          hint="At least 10 characters, with an uppercase letter, a lowercase letter, a number and a special character."
        />
        <PasswordInputField field={fields.confirmPassword} label="Confirm new password" inputProps={{ autoComplete: 'new-password' }} />
        <SubmitButton pending={navigation.state === 'submitting'}>Save new password</SubmitButton>
      </Form>
    </FormPage>
  );
}
