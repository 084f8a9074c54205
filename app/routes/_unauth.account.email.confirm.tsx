import { getFormProps, useForm } from '@conform-to/react';
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { EmailConfirmSchema, settingsMessages } from '#contract/account-settings';
import { accentLinkClass, FormPage } from '~/components/form-page';
import { FormAlert, SubmitButton } from '~/components/form-parts';
import { apiFor, isHttpError } from '~/utils/api.server';
import { parseGuardedForm, readFormData } from '~/utils/form-guard.server';
import { formReply } from '~/utils/form-reply.server';

export const meta: MetaFunction = () => [{ title: 'Confirm your new email address | Stagedoor' }];

/**
 * /account/email/confirm?token=…: the link mailed to a new email address. It may be opened on any device,
 * signed in or not, so the token is the permission. Opening it shows a button rather than changing the address at
 * once: mail scanners open links too. ?done=1 is where the confirmation lands.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const search = new URL(request.url).searchParams;
  return { token: search.get('token')?.trim() ?? '', done: search.get('done') === '1' };
}

export async function action(args: ActionFunctionArgs) {
  const submission = parseGuardedForm(await readFormData(args.request), EmailConfirmSchema);
  if (submission.status !== 'success') return formReply(submission, { formErrors: [settingsMessages.emailLinkInvalid] });
  try {
    await apiFor(args).post('/users/email/confirm', { token: submission.value.token }, { handle: [400, 422, 429] });
  } catch (error) {
    if (!isHttpError(error)) throw error;
    const message = error.fieldErrors.token?.[0] ?? error.body?.message ?? settingsMessages.emailLinkInvalid;
    return formReply(submission, { formErrors: [message] }, error.status === 429 ? 429 : 400);
  }
  return redirect('/account/email/confirm?done=1');
}

export default function ConfirmEmail() {
  const { token, done } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form] = useForm({ id: 'confirm-email', lastResult });
  if (done) {
    return (
      <FormPage title="Your email address is changed" intro={<p>Mail about your account now goes to your new address.</p>}>
        <p className="text-base">
          <Link to="/account" className={accentLinkClass}>
            Back to your account settings
          </Link>
        </p>
      </FormPage>
    );
  }
  return (
    <FormPage title="Confirm your new email address" intro={<p>Your account will use the address this link was sent to.</p>}>
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <FormAlert id={form.errorId} errors={token ? form.errors : [settingsMessages.emailLinkInvalid]} />
        <input type="hidden" name="token" value={token} />
        <SubmitButton pending={navigation.state === 'submitting'} disabled={!token}>
          Confirm my new email address
        </SubmitButton>
      </Form>
    </FormPage>
  );
}
