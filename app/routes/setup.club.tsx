import { getFormProps, useForm } from '@conform-to/react';
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { FormPage } from '~/components/form-page';
import { InputField, SelectField } from '~/components/forms';
import { FormAlert, SubmitButton } from '~/components/form-parts';
import { SetupSteps } from '~/components/setup-steps';
import { apiFor, isHttpError } from '~/utils/api.server';
import { requireUser } from '~/utils/auth.server';
import { parseGuardedForm, readFormData } from '~/utils/form-guard.server';
import { apiErrorReply, formReply } from '~/utils/form-reply.server';
import { formConstraint, parseForm } from '~/utils/form-schema';
import { requireSetupStep } from '~/utils/setup.server';
import { CURRENCIES, CURRENCY_LABELS } from '#contract/money';
import { SetupClubSchema } from '#contract/setup';

export const meta: MetaFunction = () => [{ title: 'Your club · Set up Stagedoor | Stagedoor' }];

/**
 * The setup's second step, for the owner who made the account and has no club yet: the club opens on that same
 * account (its name and address as fans see them, the yearly price and its currency). Its art is the next step.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  await requireSetupStep(api, 'club');
  const user = await requireUser(api);
  return { defaults: { name: user.name, username: user.username, yearlyPrice: '', currency: 'usd' } };
}

export async function action(args: ActionFunctionArgs) {
  const api = apiFor(args);
  const submission = parseGuardedForm(await readFormData(args.request), SetupClubSchema);
  if (submission.status !== 'success') return formReply(submission);
  try {
    await api.post('/setup/club', submission.value, { handle: [400, 422, 429] });
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return apiErrorReply(submission, error);
  }
  throw redirect('/setup/art', 303);
}

export default function SetupClub() {
  const { defaults } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: 'setup-club',
    lastResult,
    defaultValue: defaults,
    constraint: formConstraint(SetupClubSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseForm(formData, SetupClubSchema),
  });
  return (
    <FormPage
      title="Open your fan club"
      intro={<p>Your club lives on your account. Fans find it at its address and join it once a year at your price.</p>}
      aside={<SetupSteps current={2} />}
    >
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <FormAlert id={form.errorId} errors={form.errors} />
        <InputField field={fields.name} label="Artist name" hint="Your name as fans see it." inputProps={{ autoComplete: 'off' }} />
        <InputField
          field={fields.username}
          label="Club address"
          inputProps={{ autoComplete: 'off', autoCapitalize: 'none', spellCheck: false }}
          hint="Letters and numbers only: fans find your club at /this-name. It is your username too."
        />
        <InputField
          field={fields.yearlyPrice}
          label="Yearly price"
          inputProps={{ inputMode: 'decimal', placeholder: '49.99' }}
          hint="What a fan pays for a year, e.g. 49.99. 0 makes joining free."
        />
        <SelectField
          field={fields.currency}
          label="Currency"
          options={CURRENCIES.map((code) => ({ value: code, label: CURRENCY_LABELS[code] }))}
        />
        <SubmitButton pending={navigation.state === 'submitting'}>Open your club</SubmitButton>
      </Form>
    </FormPage>
  );
}
