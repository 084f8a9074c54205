import { getFormProps, useForm } from '@conform-to/react';
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import * as z from 'zod/mini';
import { RegisterSchema } from '#contract/accounts';
import type { GiftView } from '#contract/gifts';
import { accentLinkClass, FormPage } from '~/components/form-page';
import { FormAlert, SubmitButton } from '~/components/form-parts';
import { InputField, PasswordInputField } from '~/components/forms';
import { apiFor, isHttpError, type ApiClient } from '~/utils/api.server';
import { getOptionalUser } from '~/utils/auth.server';
import { parseGuardedForm, readFormData } from '~/utils/form-guard.server';
import { apiErrorReply, formReply } from '~/utils/form-reply.server';
import { formConstraint, parseForm } from '~/utils/form-schema';
import { sessionCookie } from '~/utils/session.server';
import { possessive } from '#contract/names';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `A gift: a year of ${possessive(data.gift.artist.name)} fan club | Stagedoor` : 'Your gift | Stagedoor' },
];

/**
 * /gift/{token}: the link of a gift's mail. It works with or without an account: signed in, one button adds the year
 * to the account; signed out, the recipient makes an account here (their email filled in) and gets the year with it,
 * or logs in and comes back. The token is the secret, so the page is never cached.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const token = args.params.token ?? '';
  const [gift, user] = await Promise.all([
    api.get<{ data: GiftView }>(`/gifts/${encodeURIComponent(token)}`),
    api.token ? getOptionalUser(api) : null,
  ]);
  return { gift: gift.data, token, user: user ? { username: user.username } : null };
}

const RedeemSchema = z.object({ intent: z.literal('redeem') });
const CreateSchema = z.extend(RegisterSchema, { intent: z.literal('register') });
const GiftIntentSchema = z.discriminatedUnion('intent', [RedeemSchema, CreateSchema]);

async function redeem(api: ApiClient, token: string) {
  await api.post(`/gifts/${encodeURIComponent(token)}/redeem`, undefined, { handle: [403, 404, 409] });
}

/** Opens the gift for the signed-in fan, or makes the account first and opens it for the new one. */
export async function action(args: ActionFunctionArgs) {
  const api = apiFor(args);
  const token = args.params.token ?? '';
  const gift = await api.get<{ data: GiftView }>(`/gifts/${encodeURIComponent(token)}`);
  const home = `/${gift.data.artist.username}`;
  const submission = parseGuardedForm(await readFormData(args.request), GiftIntentSchema);
  if (submission.status !== 'success') {
    if (submission.error?.intent) throw new Response('Bad request', { status: 400 });
    return formReply(submission, { hideFields: ['password'] });
  }
  try {
    if (submission.value.intent === 'redeem') {
      if (!api.token) throw api.logoutRedirect();
      await redeem(api, token);
      return redirect(home);
    }
    const { intent: _intent, ...account } = submission.value;
    const answer = await api.withToken('').post<{ data: { token: string } }>('/auth/users/register', account, { handle: [400, 422, 429] });
    const session = answer.data.token;
    await redeem(api.withToken(session), token);
    return redirect(home, { headers: { 'Set-Cookie': sessionCookie(session) } });
  } catch (error) {
    if (!isHttpError(error)) throw error;
    if (error.status === 400 && !Object.keys(error.fieldErrors).length)
      return formReply(submission, { fieldErrors: { username: [error.message] }, hideFields: ['password'] });
    if (error.status === 422 && !Object.keys(error.fieldErrors).length) {
      return formReply(submission, { fieldErrors: { email: [`${error.message} Log in to open the gift.`] }, hideFields: ['password'] });
    }
    return apiErrorReply(submission, error, undefined, { hideFields: ['password'] });
  }
}

const STATE_TEXT: Record<Exclude<GiftView['state'], 'ready'>, string> = {
  yours: 'You have opened this gift: the year is yours.',
  redeemed: 'This gift has already been opened.',
  void: 'This gift can no longer be used: it was not paid, or it was refunded.',
};

export default function GiftLink() {
  const { gift, token, user } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formMethod?.toLowerCase() === 'post';
  const [form, fields] = useForm({
    id: 'gift-account',
    lastResult,
    defaultValue: { email: gift.recipientEmail },
    constraint: formConstraint(RegisterSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseForm(formData, RegisterSchema),
  });
  const here = `/gift/${encodeURIComponent(token)}`;
  return (
    <FormPage
      title="A gift for you"
      intro={
        <p>
          {gift.from} gave you a year of {possessive(gift.artist.name)} fan club. It never renews by itself: nobody is charged again.
        </p>
      }
      aside={
        <div className="mb-8 flex items-center gap-4 rounded-2xl bg-navy-light/70 p-4 ring-1 ring-white/10">
          {gift.artist.avatar ? (
            <img src={gift.artist.avatar} alt="" className="h-14 w-14 shrink-0 rounded-full object-cover ring-2 ring-accent" />
          ) : null}
          <p className="min-w-0 flex-1 truncate text-lg font-bold text-white">{gift.artist.name}</p>
        </div>
      }
      footer={
        gift.state === 'ready' && !user ? (
          <p>
            Already have an account?{' '}
            <Link to={`/login?${new URLSearchParams({ next: here })}`} className={accentLinkClass}>
              Log in to open it
            </Link>
          </p>
        ) : null
      }
    >
      {gift.message ? (
        <blockquote className="mb-6 border-l-4 border-accent pl-4 text-base italic text-white/90">“{gift.message}”</blockquote>
      ) : null}
      {gift.state !== 'ready' ? (
        <>
          <p className="text-base text-white/90">{STATE_TEXT[gift.state]}</p>
          <p className="mt-6">
            <Link to={`/${gift.artist.username}`} className={accentLinkClass}>
              Go to {possessive(gift.artist.name)} page
            </Link>
          </p>
        </>
      ) : user ? (
        <Form method="post" {...getFormProps(form)} className="space-y-5">
          <FormAlert id={form.errorId} errors={form.errors} />
          <input type="hidden" name="intent" value="redeem" />
          <p className="text-base text-white/90">You are logged in as {user.username}: the year goes to this account.</p>
          <SubmitButton pending={pending}>Open your gift</SubmitButton>
        </Form>
      ) : (
        <Form method="post" {...getFormProps(form)} className="space-y-5">
          <FormAlert id={form.errorId} errors={form.errors} />
          <input type="hidden" name="intent" value="register" />
          <p className="text-base text-white/90">Make your account to open it:</p>
          <InputField field={fields.username} label="Username" inputProps={{ autoComplete: 'username' }} />
          <InputField field={fields.email} type="email" label="Email address" inputProps={{ autoComplete: 'email' }} />
          <PasswordInputField field={fields.password} label="Password" inputProps={{ autoComplete: 'new-password' }} />
          <SubmitButton pending={pending}>Create account and open your gift</SubmitButton>
        </Form>
      )}
    </FormPage>
  );
}
