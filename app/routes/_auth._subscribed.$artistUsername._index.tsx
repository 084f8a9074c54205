import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData, useRouteLoaderData } from '@remix-run/react';
import { ArtistHeader } from '~/components/artist-header';
import { CollectionList } from '~/components/collection-list';
import { ArtistNav } from '~/components/artist-nav';
import { EmptyNote, PostCard, VaultGrid } from '~/components/content-card';
import { PollCard } from '~/components/poll-card';
import { PushOptIn } from '~/components/push-opt-in';
import { START_BUTTON, StartConversationForm } from '~/components/start-conversation';
import { POSTS_TYPES } from '#contract/content-types';
import { apiFor } from '~/utils/api.server';
import { requireArtist } from '~/utils/auth.server';
import { pollErrors } from '~/utils/content-action';
import { contentAction } from '~/utils/content-action.server';
import { listCollections, listContent, toCardPage } from '~/utils/content.server';
import type { loader as subscribedLoader } from './_auth._subscribed';

const LAYOUT_ID = 'routes/_auth._subscribed';

export const meta: MetaFunction<null, { [LAYOUT_ID]: typeof subscribedLoader }> = ({ matches }) => {
  const artist = matches.find((match) => match.id === LAYOUT_ID)?.data?.artist;
  return [{ title: artist ? `${artist.name} | Stagedoor` : 'Stagedoor' }];
};

/**
 * The artist home: the artist's header, the welcome video when the artist has switched it on, the latest
 * posts and vault items, and the collections. The three lists load side by side; the artist comes from the layout.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const artistUsername = args.params.artistUsername ?? '';
  const [posts, vault, collections, artist] = await Promise.all([
    listContent(api, artistUsername, { types: POSTS_TYPES, limit: 3 }),
    listContent(api, artistUsername, { section: 'vault', limit: 8 }),
    listCollections(api, artistUsername, 6),
    // The layout asked for the artist already: this is its remembered answer, for the perks only this page shows.
    requireArtist(api, artistUsername),
  ]);
  return {
    posts: toCardPage(posts, { withExcerpt: true }),
    vault: toCardPage(vault, { withExcerpt: false }),
    collections,
    perks: artist.subscriptionPerks,
  };
}

/** A poll in the latest posts is answered right here. */
export const action = contentAction;

const seeAllClass =
  'shrink-0 rounded text-base font-semibold text-accent underline-offset-4 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-accent';

const MESSAGE_BUTTON = `${START_BUTTON} focus-visible:ring-offset-2 focus-visible:ring-offset-navy`;

export default function ArtistHome() {
  const data = useRouteLoaderData<typeof subscribedLoader>(LAYOUT_ID);
  const { posts, vault, collections, perks } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
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
        actions={
          isOwner ? null : (
            <>
              <StartConversationForm artistUsername={artist.username} label={`Message ${artist.name}`} className={MESSAGE_BUTTON}>
                Message
              </StartConversationForm>
              <PushOptIn />
            </>
          )
        }
      />

      <ArtistNav artistUsername={artist.username} current="home" />

      <div className="mx-auto mt-10 grid max-w-6xl gap-10 px-4 sm:px-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-10">
          {artist.welcomeVideoUrl ? (
            <section aria-labelledby="welcome-title">
              <h2 id="welcome-title" className="text-2xl font-bold text-white">
                A welcome from {artist.name}
              </h2>
              <div className="mt-4 overflow-hidden rounded-2xl bg-black ring-1 ring-white/10">
                <video controls preload="none" poster={artist.headlineImage} className="aspect-video w-full" src={artist.welcomeVideoUrl}>
                  <a href={artist.welcomeVideoUrl}>Download the welcome video</a>
                </video>
              </div>
            </section>
          ) : null}

          <section aria-labelledby="posts-title">
            <div className="flex items-baseline justify-between gap-4">
              <h2 id="posts-title" className="text-2xl font-bold text-white">
                Latest posts
              </h2>
              {posts.total > 0 ? (
                <Link to={`/${artist.username}/posts`} className={seeAllClass}>
                  All posts<span className="sr-only"> by {artist.name}</span>
                </Link>
              ) : null}
            </div>
            <div className="mt-4 space-y-6">
              {posts.data.length ? (
                posts.data.map((item) => (
                  <PostCard key={item._id} artistUsername={artist.username} item={item} from="home">
                    {item.poll ? <PollCard poll={item.poll} itemId={item._id} errors={pollErrors(result, item.poll._id)} /> : null}
                  </PostCard>
                ))
              ) : (
                <EmptyNote>
                  <p className="text-xl font-semibold text-white">No posts yet</p>
                  <p className="mt-2 text-base text-white/80">
                    {isOwner
                      ? 'What you publish for your members will appear here.'
                      : `When ${artist.name} posts for members, it will appear here.`}
                  </p>
                </EmptyNote>
              )}
            </div>
          </section>

          <section aria-labelledby="vault-title">
            <div className="flex items-baseline justify-between gap-4">
              <h2 id="vault-title" className="text-2xl font-bold text-white">
                New in the vault
              </h2>
              {vault.total > 0 ? (
                <Link to={`/${artist.username}/vault`} className={seeAllClass}>
                  Open the vault<span className="sr-only"> of {artist.name}</span>
                </Link>
              ) : null}
            </div>
            <div className="mt-4">
              <VaultGrid
                artistUsername={artist.username}
                items={vault.data}
                from="home"
                columns="grid-cols-2 sm:grid-cols-3 xl:grid-cols-4"
                empty={isOwner ? 'Your vault is empty: what you add to it will appear here.' : 'Nothing in the vault yet.'}
              />
            </div>
          </section>

          {collections.data.length ? (
            <section aria-labelledby="collections-title">
              <h2 id="collections-title" className="text-2xl font-bold text-white">
                Collections
              </h2>
              <CollectionList artistUsername={artist.username} collections={collections.data} from="home" />
            </section>
          ) : null}
        </div>

        {perks.length ? (
          <aside aria-labelledby="perks-title" className="h-fit rounded-2xl bg-navy-light p-6 ring-1 ring-white/10">
            <h2 id="perks-title" className="text-lg font-bold text-white">
              {isOwner ? 'What your members get' : 'Your membership'}
            </h2>
            <ul className="mt-4 space-y-2 text-base text-white/85">
              {perks.map((perk) => (
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
