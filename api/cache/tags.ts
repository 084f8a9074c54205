/**
 * The read cache's tags: what a cached answer was built from, and what a write invalidates. Readers and writers
 * name them through these functions only, so a write and the reads it affects cannot drift apart.
 */
export const tag = {
  /** One session (a token's hash): log-out ends it. */
  session: (tokenHash: string) => `session:${tokenHash}`,
  /** A user's account (username, email, name, avatar, status, password): also ends the sessions cached for it. */
  user: (userId: string) => `user:${userId}`,
  /** Which artists there are, by name and username (discover's list): an artist made, renamed or deleted. */
  artists: () => 'artists',
  /** An artist's public profile, offer and subscriber count. */
  artist: (artistId: string) => `artist:${artistId}`,
  /** Which artists a fan subscribes to, and until when. */
  fanSubscriptions: (userId: string) => `subscriptions:${userId}`,
  /** An artist's items with their media, polls (and votes), presales and comment counts. */
  content: (artistId: string) => `content:${artistId}`,
  /** The codes given out for one ticket presale (the artist's list of them). */
  presaleCodes: (itemId: string) => `presale-codes:${itemId}`,
  /** One fan's own marks on content: bookmarks and poll votes. */
  marks: (userId: string) => `marks:${userId}`,
  /** An artist's collections and their items. */
  collections: (artistId: string) => `collections:${artistId}`,
  /** A conversation: its members, its messages and what each has read. */
  conversation: (conversationId: string) => `conversation:${conversationId}`,
  /** A user's conversations list and unread totals. */
  inbox: (userId: string) => `inbox:${userId}`,
  /** A club's moderation: which fans its artist blocks and which words they mute. */
  moderation: (artistId: string) => `moderation:${artistId}`,
  /** A fan's in-app notifications: the bell's unread count. */
  notifications: (userId: string) => `notifications:${userId}`,
} as const;

/**
 * What a change to a user's account makes stale: the account, and discover's list when the user is an artist (their
 * name and username are its order and its search).
 */
export function accountTags(userId: string, isPerformer: boolean) {
  return isPerformer ? [tag.user(userId), tag.artists()] : [tag.user(userId)];
}
