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
const formatters = new Map<
  string,
  Record<'day' | 'time' | 'year' | 'dayMonth' | 'dayMonthYear' | 'weekdayDayMonth' | 'dayMonthYearLong', Intl.DateTimeFormat>
>();

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
      weekdayDayMonth: new Intl.DateTimeFormat('en-GB', { ...zone, weekday: 'long', day: 'numeric', month: 'long' }),
      dayMonthYearLong: new Intl.DateTimeFormat('en-GB', { ...zone, day: 'numeric', month: 'long', year: 'numeric' }),
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

/** The calendar day of a time in the zone (UTC on the server, the viewer's own once hydrated), to group messages. */
export function dayOf(iso: string, timeZone: string | undefined) {
  return formattersFor(timeZone).day.format(new Date(iso));
}

/** A day's heading in a conversation: Today, Yesterday, Monday 23 November, or 23 November 2025 in another year. */
export function dayLabel(iso: string, timeZone: string | undefined, now: Date) {
  const f = formattersFor(timeZone);
  const day = f.day.format(new Date(iso));
  if (day === f.day.format(now)) return 'Today';
  if (day === f.day.format(new Date(now.getTime() - 86_400_000))) return 'Yesterday';
  return (f.year.format(new Date(iso)) === f.year.format(now) ? f.weekdayDayMonth : f.dayMonthYearLong).format(new Date(iso));
}

/**
 * The line between two days of a conversation. Grouped by UTC days on the server and by the viewer's own once
 * hydrated (the first browser render still matches the server's).
 */
export function DaySeparator({ iso }: { iso: string }) {
  const hydrated = useHydrated();
  return (
    <li className="flex items-center gap-3 py-2" data-testid="day">
      <span aria-hidden="true" className="h-px flex-1 bg-white/15" />
      <span className="text-sm font-semibold text-white/70">{dayLabel(iso, hydrated ? undefined : 'UTC', new Date())}</span>
      <span aria-hidden="true" className="h-px flex-1 bg-white/15" />
    </li>
  );
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
            <img
              src={conversation.recipient.avatarUrl}
              alt=""
              width={48}
              height={48}
              className="h-12 w-12 shrink-0 rounded-full object-cover"
            />
            <div className="min-w-0 flex-1">
              <div className="flex items-baseline justify-between gap-3">
                <p
                  className={`truncate text-base ${conversation.numUnreadMessages ? 'font-bold text-white' : 'font-semibold text-white/90'}`}
                >
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
