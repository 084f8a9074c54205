import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { LoginForm } from '~/components/login-form';
import { apiFor, type ApiClient } from '~/utils/api.server';
import { getOptionalUser, requireArtist, safeRedirect } from '~/utils/auth.server';
import { parseGuardedForm, readFormData } from '~/utils/form-guard.server';
import { formReply } from '~/utils/form-reply.server';
import { logIn } from '~/utils/login.server';
import { GENERIC_HERO } from '~/utils/mappers';
import { sessionCookie } from '~/utils/session.server';
import { LoginSchema } from '#contract/accounts';

export const meta: MetaFunction = () => [{ title: 'Log in · Stagedoor' }];

/** The hero of the page: the artist's own when the fan came from an artist, the generic one otherwise. */
async function loadHero(api: ApiClient, artistUsername: string | undefined) {
  if (!artistUsername) return null;
  try {
    const artist = await requireArtist(api, artistUsername);
    return { username: artist.username, name: artist.name, image: artist.heroImage, alt: artist.heroImageAltText };
  } catch (error) {
    // An unknown artist in the link is no reason to refuse the log-in page: show the generic hero.
    if (error instanceof Response && error.status === 404) return null;
    throw error;
  }
}

export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const url = new URL(args.request.url);
  const artistUsername = url.searchParams.get('artist') || undefined;
  const next = url.searchParams.get('next');
  const [user, artist] = await Promise.all([getOptionalUser(api), loadHero(api, artistUsername)]);
  if (user) throw redirect(artistUsername ? `/${encodeURIComponent(artistUsername)}` : safeRedirect(next, '/discover'));
  return {
    artist,
    next: safeRedirect(next, '') || null,
    pwResetSuccess: url.searchParams.get('pwResetSuccess') === 'true',
  };
}

/**
 * Shared by this page (a plain form post, so it works without JavaScript) and the log-in dialog (a fetcher
 * posting intent=dialog, which gets { ok: true } and reloads the page itself).
 */
export async function action(args: ActionFunctionArgs) {
  const { request } = args;
  const formData = await readFormData(request);
  const submission = parseGuardedForm(formData, LoginSchema);
  if (submission.status !== 'success') return formReply(submission, { hideFields: ['password'] });
  const outcome = await logIn(apiFor(args), submission.value.usernameOrEmail, submission.value.password);
  if (!outcome.ok) return formReply(submission, { formErrors: [outcome.message], hideFields: ['password'] }, outcome.status);
  const headers = { 'Set-Cookie': sessionCookie(outcome.token) };
  // The dialog (a fetcher) reloads the page itself once it sees the reply's success.
  if (formData.get('intent') === 'dialog') return json(submission.reply({ hideFields: ['password'] }), { headers });
  const artist = formData.get('artist');
  const fallback = typeof artist === 'string' && artist ? `/${encodeURIComponent(artist)}` : '/discover';
  const next = formData.get('redirectTo') ?? new URL(request.url).searchParams.get('next');
  return redirect(safeRedirect(next, fallback), { headers });
}

export default function LoginPage() {
  const { artist, next, pwResetSuccess } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formAction === '/login';

  return (
    <div className="mx-auto grid w-full max-w-6xl flex-1 md:grid-cols-2 md:gap-12 md:px-6 md:py-14 lg:gap-16">
      <div className="relative aspect-video overflow-hidden md:self-center md:rounded-3xl md:shadow-2xl md:ring-1 md:ring-white/10">
        <img
          src={artist?.image ?? GENERIC_HERO}
          alt={artist?.alt ?? ''}
          width={1600}
          height={900}
          className="absolute inset-0 h-full w-full object-cover"
        />
        <div className="absolute inset-x-0 bottom-0 h-1/3 bg-gradient-to-t from-navy-dark to-transparent md:hidden" />
      </div>
      <div className="flex flex-col justify-center px-4 pb-12 pt-6 sm:px-6 md:p-0">
        <h1 className="text-3xl font-bold tracking-tight text-white sm:text-4xl">Log in to your account</h1>
        <p className="mt-3 text-white/75">
          {artist
            ? `Welcome back. Log in to catch up with ${artist.name}.`
            : 'Welcome back. Log in to catch up with the artists you follow.'}
        </p>
        {pwResetSuccess ? (
          <p role="status" className="mt-6 rounded-lg border border-emerald-400/50 bg-emerald-500/15 px-3 py-2.5 text-sm text-emerald-100">
            Your password has been reset. Log in with your new password.
          </p>
        ) : null}
        <div className="mt-8 rounded-2xl bg-navy-light/60 p-5 ring-1 ring-white/10 sm:p-7">
          <LoginForm id="login-page" lastResult={actionData} pending={pending} artist={artist?.username} hidden={{ redirectTo: next }} />
        </div>
        {/* A new fan signs up by joining a club: the artist's join page, or without one the clubs on the front page. */}
        <p className="mt-6 text-center text-sm text-white/75">
          {artist ? 'Not a member yet?' : 'New to Stagedoor?'}{' '}
          <Link
            to={artist ? `/${encodeURIComponent(artist.username)}/join` : '/'}
            className="rounded font-semibold text-accent underline-offset-4 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
          >
            {artist ? `Join ${artist.name}` : 'Find a fan club and sign up'}
          </Link>
        </p>
      </div>
    </div>
  );
}
