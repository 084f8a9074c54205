import { getFormProps, useForm } from '@conform-to/react';
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { accentLinkClass, FormPage } from '~/components/form-page';
import { InputField, PasswordInputField } from '~/components/forms';
import { FormAlert, SubmitButton } from '~/components/form-parts';
import { SubscribeSteps } from '~/components/subscribe-steps';
import { loginHref, paymentHref, PerkList } from '~/components/subscription-offer';
import { apiFor, isHttpError, type HttpError } from '~/utils/api.server';
import { getOptionalUser, requireArtist } from '~/utils/auth.server';
import { parseGuardedForm, readFormData } from '~/utils/form-guard.server';
import { apiErrorReply, formReply } from '~/utils/form-reply.server';
import { yearlyPricePhrase, type Artist } from '~/utils/mappers';
import { subscribeToArtist } from '~/utils/payments.server';
import { sessionCookie } from '~/utils/session.server';
import { AccountChangesSchema, RegisterSchema } from '#contract/accounts';
import { formConstraint, parseForm } from '~/utils/form-schema';
import { possessive } from '#contract/names';

type RegisterFields = { username: string; email: string; password: string; currentPassword?: string };

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: data
      ? `${data.editing ? 'Edit your details' : 'Create your account'} · ${data.artist.name} | Stagedoor`
      : 'Create your account | Stagedoor',
  },
];

function readSearch(request: Request) {
  const search = new URL(request.url).searchParams;
  return { edit: search.get('edit') === 'true', promo: search.get('promo') };
}

/**
 * Where a fan goes once the register step is done: the payment step, keeping the promo code. (For a free
 * artist that step is a "Join for free" button; a new fan of a free artist never sees it: see the action.)
 */
function nextStep(artist: Pick<Artist, 'username'>, promo: string | null) {
  return paymentHref(artist.username, promo);
}

/**
 * The register step. Signed in and not editing: on to the payment step, keeping the promo code.
 * With ?edit=true a signed-in fan corrects the details given at sign-up (the form is prefilled, PUT /users).
 */
export async function loader(args: LoaderFunctionArgs) {
  const { edit, promo } = readSearch(args.request);
  const api = apiFor(args);
  const [artist, viewer] = await Promise.all([requireArtist(api, args.params.artistUsername), edit ? getOptionalUser(api) : null]);
  if (api.token && !edit) throw redirect(paymentHref(artist.username, promo));
  return {
    artist,
    promo,
    editing: Boolean(viewer),
    defaults: viewer ? { username: viewer.username, email: viewer.email } : undefined,
  };
}

export async function action(args: ActionFunctionArgs) {
  const { edit, promo } = readSearch(args.request);
  const api = apiFor(args);
  const editing = Boolean(edit && api.token);
  const artist = await requireArtist(api, args.params.artistUsername);

  // Editing takes the current password too: a fan past the sign-up step changes their email or password with it.
  const submission = parseGuardedForm(await readFormData(args.request), editing ? AccountChangesSchema : RegisterSchema);
  const hideFields = ['password', 'currentPassword'];
  if (submission.status !== 'success') return formReply(submission, { hideFields });

  let newToken: unknown;
  try {
    const answer = editing
      ? await api.put<RegisterResponse>('/users', submission.value, { handle: [403] })
      : await api.withToken('').post<RegisterResponse>('/auth/users/register', submission.value);
    newToken = answer.data?.token;
  } catch (error) {
    if (editing && isHttpError(error, 403)) throw api.logoutRedirect();
    // The api's 400 and 422 are conflicts (the username, the email); the form's reply is a 400 either way.
    if (isHttpError(error, 400, 422)) return formReply(submission, { fieldErrors: conflictErrors(error), hideFields });
    if (isHttpError(error, 429)) return apiErrorReply(submission, error, undefined, { hideFields });
    throw error;
  }
  if (editing) throw redirect(nextStep(artist, promo));
  if (typeof newToken !== 'string' || !newToken) throw new Error('The registration response has no token');
  const headers = { 'Set-Cookie': sessionCookie(newToken) };
  if (artist.yearlyPrice === 0) {
    // A free artist (no payment step): the register step itself completes the subscription.
    await subscribeToArtist(api.withToken(newToken), { type: 'free', performerId: artist.id }, undefined);
    throw redirect(`/${artist.username}/subscribe/success`, { headers });
  }
  throw redirect(nextStep(artist, promo), { headers });
}

interface RegisterResponse {
  status: number;
  data?: { token?: string };
}

/**
 * 400 means the username is taken and 422 the email is taken; the API's own sentence is shown on
 * that field. A 400 that names other fields (input the API refused) shows on those fields.
 */
function conflictErrors(error: HttpError): Record<string, string[]> {
  const fromApi = Object.fromEntries(
    Object.entries(error.fieldErrors).filter(([field]) => ['username', 'email', 'password', 'currentPassword'].includes(field)),
  );
  if (Object.keys(fromApi).length) return fromApi;
  const message = error.body?.message ?? (error.status === 422 ? 'That email is already taken.' : 'That username is already taken.');
  return error.status === 422 ? { email: [message] } : { username: [message] };
}

export default function Register() {
  const { artist, promo, editing, defaults } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state === 'submitting' && navigation.formMethod?.toLowerCase() === 'post';
  const [form, fields] = useForm<RegisterFields>({
    id: 'register',
    lastResult,
    defaultValue: defaults,
    constraint: formConstraint(editing ? AccountChangesSchema : RegisterSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseForm(formData, editing ? AccountChangesSchema : RegisterSchema),
  });
  const free = artist.yearlyPrice === 0;

  return (
    <FormPage
      title={editing ? 'Edit your details' : 'Create your account'}
      intro={
        editing ? (
          <p>Correct your username or email, and choose your password again.</p>
        ) : (
          <p>
            {free
              ? `Sign up to join ${possessive(artist.name)} fan club for free.`
              : `Sign up to join ${possessive(artist.name)} fan club. Payment comes next.`}
          </p>
        )
      }
      art={<RegisterArt artist={artist} />}
      aside={<RegisterOffer artist={artist} promo={promo} />}
      footer={
        editing ? null : (
          <p>
            Already have an account?{' '}
            <Link to={loginHref(artist.username, paymentHref(artist.username, promo))} className={accentLinkClass}>
              Log in
            </Link>
          </p>
        )
      }
    >
      {free ? null : <SubscribeSteps current={1} className="mb-6 border-b border-white/10 pb-6" />}
      <Form method="post" {...getFormProps(form)} className="space-y-5">
        <FormAlert id={form.errorId} errors={form.errors} />
        <InputField
          field={fields.username}
          label="Username"
          inputProps={{ autoComplete: 'username', autoCapitalize: 'none', spellCheck: false }}
          hint="Letters and numbers only. This is how the artist and other fans see you."
        />
        <InputField
          field={fields.email}
          label="Email address"
          type="email"
          inputProps={{ autoComplete: 'email', placeholder: 'Enter your email' }}
        />
        <PasswordInputField
          field={fields.password}
          label="Password"
          inputProps={{ autoComplete: 'new-password' }}
          hint="At least 10 characters, with an uppercase letter, a lowercase letter, a number and a special character."
        />
        {editing ? (
          <PasswordInputField
            field={fields.currentPassword}
            label="Current password"
            inputProps={{ autoComplete: 'current-password' }}
            hint="Needed to change your email address or password once your account is more than an hour old."
          />
        ) : null}
        <SubmitButton pending={pending}>{editing ? 'Save and continue' : free ? 'Join for free' : 'Continue to payment'}</SubmitButton>
      </Form>
    </FormPage>
  );
}

/**
 * The offer this sign-up is for, above the form at every width: the club, its price and how it is billed,
 * the promo code the fan came with, and (on phones, where the art beside the form is not shown) the perks, folded.
 */
function RegisterOffer({ artist, promo }: { artist: Artist; promo: string | null }) {
  const free = artist.yearlyPrice === 0;
  return (
    <section aria-label="Your membership" className="mb-8 rounded-2xl bg-navy-light/70 p-4 ring-1 ring-white/10">
      <div className="flex items-center gap-4">
        <img src={artist.avatarUrl} alt="" className="h-14 w-14 shrink-0 rounded-full object-cover ring-2 ring-accent" />
        <div className="min-w-0 flex-1">
          <p className="break-words text-lg font-bold text-white">{artist.name}</p>
          <p className="text-base text-white/80">Official fan club · {yearlyPricePhrase(artist)}</p>
        </div>
      </div>
      <p className="mt-3 text-base text-white/80">
        {free
          ? 'Free to join, no card needed.'
          : artist.trialDays
            ? `Free for ${artist.trialDays} days, then billed once a year. You can cancel any time.`
            : 'Billed once a year. You can cancel any time.'}
      </p>
      {promo && !free ? (
        <p className="mt-3 inline-block rounded-full bg-accent/15 px-3 py-1 text-sm font-semibold text-accent">
          Promo code {promo} will be applied at payment
        </p>
      ) : null}
      {artist.subscriptionPerks.length ? (
        <details className="mt-3 lg:hidden">
          <summary className="cursor-pointer text-base font-semibold text-accent">What members get</summary>
          <div className="mt-3">
            <PerkList perks={artist.subscriptionPerks} />
          </div>
        </details>
      ) : null}
    </section>
  );
}

/** Beside the form on wide screens: the artist's hero image and what the fan is signing up for. */
function RegisterArt({ artist }: { artist: Pick<Artist, 'heroImage' | 'heroImageAltText' | 'name' | 'subscriptionPerks'> }) {
  return (
    <div>
      <img
        src={artist.heroImage}
        alt={artist.heroImageAltText}
        className="aspect-video w-full rounded-3xl object-cover shadow-2xl shadow-black/40 ring-1 ring-white/15"
      />
      {artist.subscriptionPerks.length ? (
        <div className="mt-10">
          <p className="text-lg font-bold text-white">What members of {possessive(artist.name)} fan club get</p>
          <div className="mt-5">
            <PerkList perks={artist.subscriptionPerks} />
          </div>
        </div>
      ) : null}
    </div>
  );
}
