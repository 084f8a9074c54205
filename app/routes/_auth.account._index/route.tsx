import type { SubmissionResult } from '@conform-to/react';
import type { MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { accentLinkClass } from '~/components/form-page';
import { DEFAULT_AVATAR } from '~/utils/mappers';
import { AvatarForm, DeleteForm, EmailForm, NameForm, PasswordForm, Saved, Section } from './settings-forms';
import { loadSettings, settingsAction, type SettingsIntent } from './settings.server';

export const meta: MetaFunction = () => [{ title: 'Account settings | Stagedoor' }];

/**
 * /account (docs/pages-content.md "Account settings"), from the account menu of every page: the
 * signed-in user's name, picture, email address (confirmed by a link mailed to the new one), password, a download of
 * their data, and deleting the account. Every form is a plain post that works without JavaScript.
 */
export const loader = loadSettings;
export const action = settingsAction;

function replyTo(reply: SubmissionResult<string[]> | undefined, ...intents: SettingsIntent[]) {
  const intent = reply?.initialValue?.intent;
  return typeof intent === 'string' && (intents as string[]).includes(intent) ? reply : undefined;
}

export default function AccountSettings() {
  const { user, saved, pendingEmail } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <div className="mx-auto w-full max-w-3xl px-4 pb-20 pt-8 sm:px-6 sm:pt-12">
      <h1 className="text-3xl font-extrabold tracking-tight text-white sm:text-5xl">Account settings</h1>
      <p className="mt-3 text-lg text-white/85">
        Signed in as <span className="font-semibold text-white">{user.username}</span>.{' '}
        {user.artist ? null : (
          <Link to="/account/memberships" className={accentLinkClass}>
            Your memberships
          </Link>
        )}
      </p>

      <Section id="name" title="Name">
        {saved === 'name' ? <Saved>Your name is saved.</Saved> : null}
        <NameForm key={user.name} user={user} lastResult={replyTo(reply, 'name')} />
      </Section>

      <Section id="avatar" title="Picture">
        {saved === 'avatar' ? <Saved>Your new picture is saved.</Saved> : null}
        {saved === 'avatar-removed' ? <Saved>Your picture is removed.</Saved> : null}
        <AvatarForm user={user} hasAvatar={user.avatarUrl !== DEFAULT_AVATAR} lastResult={replyTo(reply, 'avatar', 'remove-avatar')} />
      </Section>

      <Section
        id="email"
        title="Email address"
        intro={
          <p>
            Now <span className="font-semibold text-white">{user.email}</span>. We send a link to the new address; it changes once you open
            it.
          </p>
        }
      >
        {saved === 'email' && pendingEmail ? (
          <Saved>
            We sent a link to {pendingEmail}. Open it within 24 hours to confirm your new address. Until then, mail still goes to{' '}
            {user.email}.
          </Saved>
        ) : null}
        <EmailForm lastResult={replyTo(reply, 'email')} />
      </Section>

      <Section id="password" title="Password" intro={<p>Other devices signed in to your account will need to log in again.</p>}>
        {saved === 'password' ? <Saved>Your password is changed.</Saved> : null}
        <PasswordForm lastResult={replyTo(reply, 'password')} />
      </Section>

      <Section
        id="data"
        title="Your data"
        intro={
          <p>
            Everything your account holds, in one JSON file: your details, memberships, payments, messages, comments, votes and bookmarks.
          </p>
        }
      >
        <a href="/account/export.json" download className={`mt-4 inline-block ${accentLinkClass}`}>
          Download my data
        </a>
      </Section>

      <Section
        id="delete"
        title="Delete account"
        intro={
          user.artist ? (
            <p>An artist account closes through Customer Support, so that your fans’ memberships and your payouts are settled first.</p>
          ) : (
            <p>
              Your memberships stop renewing and end when their paid period does; you are not charged again. Your name, email, picture and
              password are removed, and you can never log in again. Artists keep their records of your payments and messages without your
              name. Download your data first if you want a copy.
            </p>
          )
        }
      >
        {user.artist ? null : <DeleteForm lastResult={replyTo(reply, 'delete')} />}
      </Section>
    </div>
  );
}
