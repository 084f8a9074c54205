// Counts of a club's members as pages show them. Their own module: the artist header shows them on every club page,
// which then need not carry the rest of mappers.ts (and the price formatting it brings).

const countFormat = new Intl.NumberFormat('en-US');

/** "1 subscriber", "12,345 subscribers". */
export function subscriberCount(count: number) {
  return `${countFormat.format(count)} ${count === 1 ? 'subscriber' : 'subscribers'}`;
}

/** Below this many, a club's count is not shown to the public: "0 subscribers" puts fans off a club just starting. */
export const PUBLIC_SUBSCRIBERS_FROM = 10;

/** The count as the public sees it: null while the club is small (the artist still sees theirs on their own page). */
export function publicSubscriberCount(count: number) {
  return count >= PUBLIC_SUBSCRIBERS_FROM ? subscriberCount(count) : null;
}
