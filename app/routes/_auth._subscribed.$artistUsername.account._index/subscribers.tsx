import { StartConversationForm } from '~/components/start-conversation';
import { DEFAULT_AVATAR, type Artist } from '~/utils/mappers';
import { subscriberCount } from '~/utils/subscriber-count';
import type { Subscriber } from './account.server';
import { formatDate } from '~/utils/dates';

/** The artist's subscribers: how many, and the most recent ones, each with a way to write to them first. */
export function Subscribers({ artist, subscribers, total }: { artist: Artist; subscribers: Subscriber[]; total: number }) {
  return (
    <section
      aria-labelledby="subscribers-title"
      className="h-fit rounded-2xl bg-navy-light p-6 ring-1 ring-white/10 lg:col-start-2 lg:row-start-1"
    >
      <h2 id="subscribers-title" className="text-xl font-bold text-white">
        Subscribers
      </h2>
      <p className="mt-2 text-3xl font-extrabold text-accent">{subscriberCount(total)}</p>
      {subscribers.length ? (
        <>
          <h3 className="mt-6 text-sm font-semibold uppercase tracking-wider text-white/70">Recent</h3>
          <ul className="mt-3 space-y-3">
            {subscribers.map((s) => (
              <li key={s._id} className="flex items-start gap-3">
                <img src={s.avatar || DEFAULT_AVATAR} alt="" className="h-9 w-9 shrink-0 rounded-full bg-white/10 object-cover" />
                <div className="min-w-0 flex-1">
                  <p className="truncate text-base font-semibold text-white">{s.name || s.username}</p>
                  <p className="text-sm text-white/70">Joined {formatDate(s.startedAt)}</p>
                  {/* The artist may write first to a subscriber (docs/messages.md); a plain form, as the fan's button. */}
                  <StartConversationForm
                    artistUsername={artist.username}
                    fanId={s._id}
                    className="rounded text-sm font-semibold text-accent underline-offset-4 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-accent disabled:opacity-70"
                  >
                    Message<span className="sr-only"> {s.name || s.username}</span>
                  </StartConversationForm>
                </div>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="mt-4 text-base text-white/80">No subscribers yet. Share your join page: /{artist.username}/join</p>
      )}
    </section>
  );
}
