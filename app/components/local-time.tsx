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
