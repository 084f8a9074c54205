const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** "November 25, 2026": the day a membership started, renews or ends, or a subscriber joined. */
export const formatDate = (iso: string) => dateFormat.format(new Date(iso));
