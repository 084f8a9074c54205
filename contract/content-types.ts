/**
 * The content types with their display labels, the nine vault categories, and the filters of the
 * posts page. Shared by the web pages and the API so a type and its label live in one place.
 */

export const VAULT_CATEGORIES = [
  'demo',
  'unreleased',
  'voicenote',
  'session',
  'videoMessage',
  'musicVideo',
  'behindTheScenes',
  'live',
  'tourDiary',
] as const;

export const OTHER_CONTENT_TYPES = ['photo', 'post', 'poll', 'ticketPresale', 'announcement'] as const;

export const CONTENT_TYPES = [...VAULT_CATEGORIES, ...OTHER_CONTENT_TYPES] as const;

export type VaultCategory = (typeof VAULT_CATEGORIES)[number];
export type ContentType = (typeof CONTENT_TYPES)[number];

export const CONTENT_TYPE_LABELS: Record<ContentType, string> = {
  demo: 'Demo',
  unreleased: 'Unreleased',
  voicenote: 'Voice Note',
  session: 'Session',
  videoMessage: 'Video Message',
  musicVideo: 'Music Video',
  behindTheScenes: 'Behind The Scenes',
  live: 'Live',
  tourDiary: 'Tour Diary',
  photo: 'Photo',
  post: 'Post',
  poll: 'Poll',
  ticketPresale: 'Ticket Presale',
  announcement: 'Announcement',
};

export function isContentType(value: unknown): value is ContentType {
  return typeof value === 'string' && (CONTENT_TYPES as readonly string[]).includes(value);
}

export function isVaultCategory(value: unknown): value is VaultCategory {
  return typeof value === 'string' && (VAULT_CATEGORIES as readonly string[]).includes(value);
}

/** The posts page's filter values exactly as they appear in its `filters` search parameter. */
export const POSTS_FILTERS = ['Post', 'Poll', 'Tour Diary', 'Ticket Presale', 'Announcement'] as const;
export type PostsFilter = (typeof POSTS_FILTERS)[number];

/**
 * The content types each posts filter shows. "Post" covers text and image posts alike (a photo is a post with a
 * picture); "Poll" asks for the `poll` type, which the API also matches on any item that carries a poll.
 */
export const POSTS_FILTER_TYPES: Record<PostsFilter, ContentType[]> = {
  Post: ['post', 'photo'],
  Poll: ['poll'],
  'Tour Diary': ['tourDiary'],
  'Ticket Presale': ['ticketPresale'],
  Announcement: ['announcement'],
};

/** Every type the posts page lists when no filter is chosen. */
export const POSTS_TYPES: ContentType[] = [...new Set(Object.values(POSTS_FILTER_TYPES).flat())];

export function isPostsFilter(value: unknown): value is PostsFilter {
  return typeof value === 'string' && (POSTS_FILTERS as readonly string[]).includes(value);
}

/** The content types for a list of posts filters; unknown values are ignored, none means every posts type. */
export function typesForPostsFilters(filters: readonly string[]): ContentType[] {
  const chosen = filters.filter(isPostsFilter);
  if (chosen.length === 0) return POSTS_TYPES;
  return [...new Set(chosen.flatMap((filter) => POSTS_FILTER_TYPES[filter]))];
}

/**
 * The bookmarks page's filters: a fan bookmarks from the vault and from the
 * posts alike, so the page offers the vault's nine categories and the posts page's filters, each written as on its
 * own page. Tour Diary is both a vault category and a posts filter, and appears once, as the category.
 */
export const BOOKMARK_FILTERS = [...VAULT_CATEGORIES, ...POSTS_FILTERS.filter((filter) => filter !== 'Tour Diary')] as const;
export type BookmarkFilter = (typeof BOOKMARK_FILTERS)[number];

export const BOOKMARK_FILTER_LABELS = Object.fromEntries(
  BOOKMARK_FILTERS.map((filter) => [filter, isVaultCategory(filter) ? CONTENT_TYPE_LABELS[filter] : filter]),
) as Record<BookmarkFilter, string>;

export function isBookmarkFilter(value: unknown): value is BookmarkFilter {
  return typeof value === 'string' && (BOOKMARK_FILTERS as readonly string[]).includes(value);
}

/** The content types for a list of bookmark filters; none means every type. */
export function typesForBookmarkFilters(filters: readonly BookmarkFilter[]): ContentType[] {
  const categories = filters.filter(isVaultCategory);
  const postsFilters = filters.filter(isPostsFilter);
  return [...new Set([...categories, ...(postsFilters.length ? typesForPostsFilters(postsFilters) : [])])];
}

/** The `sort` search parameter: desc shows as Newest, asc as Oldest. */
export const SORT_LABELS = { desc: 'Newest', asc: 'Oldest' } as const;
export type SortOrder = keyof typeof SORT_LABELS;

/** The `type` search parameter of /{artist}/vault/{id}: which viewer the item page opens. */
export const ITEM_VIEWS = ['audio', 'video', 'photo', 'post', 'collection'] as const;
export type ItemView = (typeof ITEM_VIEWS)[number];

/** Where the item page's back link returns to (its `from` search parameter). */
export const ITEM_ORIGINS = ['vault', 'home', 'posts', 'bookmarks'] as const;
export type ItemOrigin = (typeof ITEM_ORIGINS)[number];

export const MEDIA_KINDS = ['image', 'audio', 'video'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** The item view that fits an item's media: audio and video get their player, an image its picture, else text. */
export function itemViewForMedia(kind: MediaKind | null | undefined): Exclude<ItemView, 'collection'> {
  if (kind === 'audio' || kind === 'video') return kind;
  if (kind === 'image') return 'photo';
  return 'post';
}
