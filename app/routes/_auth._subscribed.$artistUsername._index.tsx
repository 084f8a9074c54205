import type { MetaFunction } from '@remix-run/node';
import { Form, useRouteLoaderData } from '@remix-run/react';
import { ArtistHeader } from '~/components/artist-header';
import type { loader as subscribedLoader } from './_auth._subscribed';

const LAYOUT_ID = 'routes/_auth._subscribed';

export const meta: MetaFunction<null, { [LAYOUT_ID]: typeof subscribedLoader }> = ({ matches }) => {
  const artist = matches.find((match) => match.id === LAYOUT_ID)?.data?.artist;
  return [{ title: artist ? `${artist.name} | Stagedoor` : 'Stagedoor' }];
};

/**
 * The artist home (spec §2): the artist's header, the welcome video when the artist has switched it on, and the
 * feed. Posts arrive with the content issue; until then the feed says plainly that there is nothing yet.
 */
export default function ArtistHome() {
  const data = useRouteLoaderData<typeof subscribedLoader>(LAYOUT_ID);
  if (!data) return null;
  const { artist, isOwner } = data;

  return (
    <div className="pb-20">
      <ArtistHeader
        artist={artist}
        badge={
          <p className="mb-2 inline-block rounded-full bg-accent px-3 py-1 text-xs font-bold uppercase tracking-wide text-navy">
            {isOwner ? 'Your fan club' : 'Member'}
          </p>
        }
        actions={isOwner ? null : <MessageArtistButton artistUsername={artist.username} artistName={artist.name} />}
      />

      <div className="mx-auto mt-12 grid max-w-6xl gap-10 px-4 sm:px-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-10">
          {artist.welcomeVideoUrl ? (
            <section aria-labelledby="welcome-title">
              <h2 id="welcome-title" className="text-2xl font-bold text-white">
                A welcome from {artist.name}
              </h2>
              <div className="mt-4 overflow-hidden rounded-2xl bg-black ring-1 ring-white/10">
                <video
                  controls
                  preload="none"
                  poster={artist.headlineImage}
                  className="aspect-video w-full"
                  src={artist.welcomeVideoUrl}
                >
                  <a href={artist.welcomeVideoUrl}>Download the welcome video</a>
                </video>
              </div>
            </section>
          ) : null}

          <section aria-labelledby="posts-title">
            <h2 id="posts-title" className="text-2xl font-bold text-white">
              Posts
            </h2>
            <div className="mt-4 rounded-2xl border border-dashed border-white/25 px-6 py-12 text-center">
              <p className="text-xl font-semibold text-white">No posts yet</p>
              <p className="mt-2 text-base text-white/80">
                {isOwner
                  ? 'What you publish for your members will appear here.'
                  : `When ${artist.name} posts for members, it will appear here.`}
              </p>
            </div>
          </section>
        </div>

        {artist.subscriptionPerks.length ? (
          <aside aria-labelledby="perks-title" className="h-fit rounded-2xl bg-navy-light p-6 ring-1 ring-white/10">
            <h2 id="perks-title" className="text-lg font-bold text-white">
              {isOwner ? 'What your members get' : 'Your membership'}
            </h2>
            <ul className="mt-4 space-y-2 text-base text-white/85">
              {artist.subscriptionPerks.map((perk) => (
                <li key={perk} className="flex gap-2">
                  <span className="text-accent" aria-hidden="true">
                    ★
                  </span>
                  {perk}
                </li>
              ))}
            </ul>
          </aside>
        ) : null}
      </div>
    </div>
  );
}

/**
 * Starts (or reopens) the fan's conversation with the artist: a plain form, so it works without JavaScript. The
 * messages page's action opens the conversation through the API and redirects to it.
 */
function MessageArtistButton({ artistUsername, artistName }: { artistUsername: string; artistName: string }) {
  return (
    <Form method="post" action={`/${artistUsername}/account/messages?index`}>
      <input type="hidden" name="intent" value="start" />
      <button
        type="submit"
        aria-label={`Message ${artistName}`}
        className="rounded-full bg-accent px-5 py-2.5 text-base font-bold text-navy hover:bg-accent/90 focus:outline-none focus-visible:ring-2 focus-visible:ring-white focus-visible:ring-offset-2 focus-visible:ring-offset-navy"
      >
        Message
      </button>
    </Form>
  );
}
