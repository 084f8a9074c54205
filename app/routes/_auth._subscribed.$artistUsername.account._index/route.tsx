import type { SubmissionResult } from '@conform-to/react';
import type { MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { ArtistStudioLinks } from '~/components/artist-studio-links';
import { accountAction, loadAccount, type AccountIntent } from './account.server';
import { ImagesForm } from './images-form';
import { Membership } from './membership';
import { NotificationPreferences } from './notification-preferences';
import { ProfileForm } from './profile-form';
import { Subscribers } from './subscribers';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: data
      ? `${data.mode === 'artist' ? 'Your fan club' : 'Your membership'} · ${data.artist.name} | Stagedoor`
      : 'Account | Stagedoor',
  },
];

/**
 * /{artist}/account (subscribed branch). A fan sees their membership (started, renews or ends on, price
 * paid), turns the yearly renewal off or on, and chooses how the artist's new posts reach them. The artist who owns
 * the page edits their profile and offer, changes their images and sees their subscribers. All are plain forms that
 * work without JavaScript.
 */
export const loader = loadAccount;
export const action = accountAction;

/** The action's reply, for the form that was sent (the reply echoes the form's intent). */
function replyTo<Reply extends Pick<SubmissionResult<string[]>, 'initialValue'>>(reply: Reply | undefined, intent: AccountIntent) {
  return reply?.initialValue?.intent === intent ? reply : undefined;
}

export default function Account() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-4xl px-4 pb-20 pt-10 sm:px-6 sm:pt-14">
      <p className="text-sm font-semibold uppercase tracking-widest text-accent">{data.artist.name}</p>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-white sm:text-5xl">
        {data.mode === 'artist' ? 'Your fan club' : 'Your membership'}
      </h1>
      {data.mode === 'fan' ? (
        <>
          <Membership
            artist={data.artist}
            subscription={data.subscription}
            saved={data.saved === 'renewal'}
            lastResult={replyTo(reply, 'auto-renew')}
          />
          <NotificationPreferences
            artist={data.artist}
            choices={data.notifications}
            saved={data.saved === 'notifications'}
            lastResult={replyTo(reply, 'notifications')}
          />
        </>
      ) : (
        <>
          <div className="mt-10">
            <ArtistStudioLinks artistUsername={data.artist.username} />
          </div>
          <div className="mt-10 grid gap-10 lg:grid-cols-[minmax(0,1fr)_18rem]">
            <Subscribers artist={data.artist} subscribers={data.subscribers} total={data.total} />
            <div className="min-w-0 lg:col-start-1 lg:row-start-1">
              <ProfileForm
                artist={data.artist}
                welcomeVideoOn={data.welcomeVideoOn}
                keepPaidItemsOn={data.keepPaidItemsOn}
                money={data.money}
                saved={data.saved === 'profile'}
                lastResult={replyTo(reply, 'profile')}
              />
              <ImagesForm artist={data.artist} saved={data.saved === 'images'} lastResult={replyTo(reply, 'images')} />
            </div>
          </div>
        </>
      )}
    </div>
  );
}
