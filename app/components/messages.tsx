import { Link } from '@remix-run/react';
import { conversationHref, type Conversation } from '~/utils/messages';
import { useHydrated } from './use-hydrated';

/**
 * A time as the viewer reads it. The server does not know the viewer's time zone, so it renders UTC (marked
 * GMT) and the browser switches to local time once hydrated; both renders of the first pass match.
 */
export function LocalTime({ iso, style }: { iso: string; style: 'short' | 'long' }) {
  const hydrated = useHydrated();
  return <time dateTime={iso}>{formatTime(iso, style, hydrated ? undefined : 'UTC', new Date())}</time>;
}

/** Building an Intl formatter costs far more than using one: one set per time zone, made on first use. */
const formatters = new Map<string, Record<'day' | 'time' | 'year' | 'dayMonth' | 'dayMonthYear', Intl.DateTimeFormat>>();

function formattersFor(timeZone: string | undefined) {
  const key = timeZone ?? '';
  let set = formatters.get(key);
  if (!set) {
    const zone = timeZone ? { timeZone } : {};
    set = {
      day: new Intl.DateTimeFormat('en-GB', { ...zone, dateStyle: 'short' }),
      time: new Intl.DateTimeFormat('en-GB', { ...zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
      year: new Intl.DateTimeFormat('en-GB', { ...zone, year: 'numeric' }),
      dayMonth: new Intl.DateTimeFormat('en-GB', { ...zone, day: 'numeric', month: 'short' }),
      dayMonthYear: new Intl.DateTimeFormat('en-GB', { ...zone, day: 'numeric', month: 'short', year: 'numeric' }),
    };
    formatters.set(key, set);
  }
  return set;
}

/** Today: 14:05. This year: 3 Mar (and the time when long). Before: 3 Mar 2024. */
export function formatTime(iso: string, style: 'short' | 'long', timeZone: string | undefined, now: Date) {
  const date = new Date(iso);
  const f = formattersFor(timeZone);
  const time = f.time.format(date);
  const suffix = timeZone === 'UTC' ? ' GMT' : '';
  if (f.day.format(date) === f.day.format(now)) return `${time}${suffix}`;
  const withYear = f.year.format(date) !== f.year.format(now);
  const dayText = (withYear ? f.dayMonthYear : f.dayMonth).format(date);
  return style === 'long' ? `${dayText}, ${time}${suffix}` : dayText;
}

export function UnreadBadge({ count }: { count: number }) {
  if (!count) return null;
  return (
    <span className="min-w-[1.5rem] rounded-full bg-accent px-1.5 text-center text-sm font-bold leading-6 text-navy">
      <span className="sr-only">, </span>
      {count > 99 ? '99+' : count}
      <span className="sr-only"> unread</span>
    </span>
  );
}

/** The conversation list (spec §3): recipient, last message and its time, unread badge; newest activity first. */
export function ConversationList({
  conversations,
  viewer,
}: {
  conversations: Conversation[];
  viewer: { artist: boolean; username: string };
}) {
  return (
    <ul className="divide-y divide-white/10 overflow-hidden rounded-2xl bg-navy-light ring-1 ring-white/10" aria-label="Conversations">
      {conversations.map((conversation) => (
        <li key={conversation.id}>
          <Link
            to={conversationHref(viewer, conversation)}
            className="flex items-center gap-4 px-4 py-4 hover:bg-white/5 focus:outline-none focus-visible:bg-white/10 sm:px-6"
          >
            <img src={conversation.recipient.avatarUrl} alt="" width={48} height={48} className="h-12 w-12 shrink-0 rounded-full object-cover" />
            <div className="min-w-0 flex-1">
              <div className="flex items-baseline justify-between gap-3">
                <p className={`truncate text-base ${conversation.numUnreadMessages ? 'font-bold text-white' : 'font-semibold text-white/90'}`}>
                  {conversation.recipient.name || conversation.recipient.username}
                </p>
                {conversation.lastMessage ? (
                  <p className="shrink-0 text-sm text-white/70">
                    <LocalTime iso={new Date(conversation.lastMessage.utcCreationTimestamp).toISOString()} style="short" />
                  </p>
                ) : null}
              </div>
              <div className="mt-0.5 flex items-center justify-between gap-3">
                <p className={`truncate text-sm ${conversation.numUnreadMessages ? 'text-white' : 'text-white/70'}`}>
                  {conversation.lastMessage?.content}
                </p>
                <UnreadBadge count={conversation.numUnreadMessages} />
              </div>
            </div>
          </Link>
        </li>
      ))}
    </ul>
  );
}
