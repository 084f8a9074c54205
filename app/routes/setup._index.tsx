import { getFormProps, useForm } from '@conform-to/react';
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, useActionData, useNavigation } from '@remix-run/react';
import { FormPage } from '~/components/form-page';
import { InputField, PasswordInputField } from '~/components/forms';
import { FormAlert, SubmitButton } from '~/components/form-parts';
import { apiFor, isHttpError } from '~/utils/api.server';
import { parseGuardedForm, readFormData } from '~/utils/form-guard.server';
import { apiErrorReply, formReply } from '~/utils/form-reply.server';
import { formConstraint, parseForm } from '~/utils/form-schema';
import { sessionCookie } from '~/utils/session.server';
import { setupStep } from '~/utils/setup.server';
import { SetupAccountSchema } from '#contract/setup';
import { SetupSteps } from '~/components/setup-steps';

export const meta: MetaFunction = () => [{ title: 'Set up Stagedoor | Stagedoor' }];

/**
 * The setup's first step, on an install with no account yet: the owner's account, which runs the site (an
 * operator) and opens the first club next. Anywhere else this page does not exist; the owner half-way goes on.
 */
export async function loader(args: LoaderFunctionArgs) {
  const step = await setupStep(apiFor(args));
  if (step === 'club') throw redirect('/setup/club');
  if (step !== 'account') throw new Response('Not found', { status: 404 });
  return null;
}

export async function action(args: ActionFunctionArgs) {
  const api = apiFor(args);
  const submission = parseGuardedForm(await readFormData(args.request), SetupAccountSchema);
  const hideFields = ['password'];
  if (submission.status !== 'success') return formReply(submission, { hideFields });
  let answer: { data: { token: string } };
  try {
    answer = await api.withToken('').post('/setup/account', submission.value, { handle: [400, 404, 422, 429] });
  } catch (error) {
    if (!isHttpError(error)) throw error;
    // A 404: someone else finished this step first; the api's sentence says so and where to go.
    return apiErrorReply(submission, error, undefined, { hideFields });
  }
  throw redirect('/setup/club', { status: 303, headers: { 'Set-Cookie': sessionCookie(answer.data.token) } });
}

export default function SetupAccount() {
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: 'setup-account',
    lastResult,
    constraint: formConstraint(SetupAccountSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseForm(formData, SetupAccountSchema),
  });
  return (
    <FormPage
      title="Welcome to Stagedoor"
      intro={<p>Let’s set up your site. First, your own account: it runs this Stagedoor, and it will be your club’s account too.</p>}
      aside={<SetupSteps current={1} />}
    >
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <FormAlert id={form.errorId} errors={form.errors} />
        <InputField field={fields.name} label="Your name" inputProps={{ autoComplete: 'name' }} />
        <InputField
          field={fields.username}
          label="Username"
          inputProps={{ autoComplete: 'username', autoCapitalize: 'none', spellCheck: false }}
          hint="Letters and numbers only."
        />
        <InputField field={fields.email} label="Email address" type="email" inputProps={{ autoComplete: 'email' }} />
        <PasswordInputField
          field={fields.password}
          label="Password"
          inputProps={{ autoComplete: 'new-password' }}
          hint="At least 10 characters, with an uppercase letter, a lowercase letter, a number and a special character."
        />
        <SubmitButton pending={navigation.state === 'submitting'}>Create your account</SubmitButton>
      </Form>
    </FormPage>
  );
}
