import { getFormProps, useForm } from '@conform-to/react';
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { accentLinkClass, FormPage } from '~/components/form-page';
import { InputField } from '~/components/forms';
import { FormAlert, SubmitButton } from '~/components/form-parts';
import { apiFor, isHttpError } from '~/utils/api.server';
import { parseGuardedForm, readFormData } from '~/utils/form-guard.server';
import { apiErrorReply, formReply } from '~/utils/form-reply.server';
import { ResetRequestSchema } from '#contract/accounts';
import { formConstraint, parseForm } from '~/utils/form-schema';

export const meta: MetaFunction = () => [{ title: 'Reset your password | Stagedoor' }];

/** The artist the fan came from (optional search artist): the mail's link and the way back lead to them. */
function readArtist(request: Request) {
  const artist = new URL(request.url).searchParams.get('artist')?.trim();
  return artist && /^[A-Za-z0-9]+$/.test(artist) ? artist : null;
}

function withArtist(path: string, artist: string | null) {
  return artist ? `${path}?${new URLSearchParams({ artist })}` : path;
}

export async function loader({ request }: LoaderFunctionArgs) {
  return { artist: readArtist(request) };
}

/** POST /auth/users/forgot. The API answers alike whether or not the account exists. */
export async function action(args: ActionFunctionArgs) {
  const artist = readArtist(args.request);
  const submission = parseGuardedForm(await readFormData(args.request), ResetRequestSchema);
  if (submission.status !== 'success') return formReply(submission);
  try {
    await apiFor(args).post('/auth/users/forgot', { email: submission.value.email, artist: artist ?? undefined });
  } catch (error) {
    if (isHttpError(error, 429)) return apiErrorReply(submission, error);
    throw error;
  }
  throw redirect(withArtist('/password/reset/request/success', artist));
}

export default function ResetRequest() {
  const { artist } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: 'reset-request',
    lastResult,
    constraint: formConstraint(ResetRequestSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseForm(formData, ResetRequestSchema),
  });

  return (
    <FormPage
      title="Reset your password"
      intro={<p>Enter the email address of your account and we’ll send you a link to choose a new password.</p>}
      footer={
        <p>
          Remembered it?{' '}
          <Link to={withArtist('/login', artist)} className={accentLinkClass}>
            Back to log in
          </Link>
        </p>
      }
    >
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <FormAlert id={form.errorId} errors={form.errors} />
        <InputField
          field={fields.email}
          label="Email address"
          type="email"
          inputProps={{ autoComplete: 'email', placeholder: 'Enter your email' }}
        />
        <SubmitButton pending={navigation.state === 'submitting'}>Send reset link</SubmitButton>
      </Form>
    </FormPage>
  );
}
