const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** "November 25, 2026": the day a membership started, renews or ends, or a subscriber joined. */
export const formatDate = (iso: string) => dateFormat.format(new Date(iso));

const gmt = new Intl.DateTimeFormat('en-GB', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** "Monday 15 June 2026 at 12:30 GMT": when a post was changed, publishes or was published (the studio). */
export function formatGmt(iso: string) {
  const parts = Object.fromEntries(gmt.formatToParts(new Date(iso)).map((part) => [part.type, part.value]));
  return `${parts.weekday} ${parts.day} ${parts.month} ${parts.year} at ${parts.hour}:${parts.minute} GMT`;
}
