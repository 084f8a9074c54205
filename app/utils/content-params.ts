import { SEARCH_MAX } from '#contract/search';
import {
  isBookmarkFilter,
  isPostsFilter,
  isVaultCategory,
  ITEM_ORIGINS,
  type BookmarkFilter,
  type ItemOrigin,
  type PostsFilter,
  type SortOrder,
  type VaultCategory,
} from '#contract/content-types';

/**
 * The search parameters of the content pages, read and written in one place so every page, link and
 * plain GET form agrees. `filters` is written as one comma-separated value (`?filters=demo,live`, short and
 * readable in a shared link) and read in either shape: comma lists, repeated parameters (what a GET form of
 * checkboxes sends: `?filters=demo&filters=live`) or both. Unknown values are dropped, not refused: an old
 * link still opens the page.
 */

/** Items per page: the vault grid (divisible by 2, 3 and 4 columns), the posts feed, an item's comments. */
export const VAULT_PAGE_SIZE = 24;
export const FEED_PAGE_SIZE = 10;
export const COMMENTS_PAGE_SIZE = 20;

/** Every value of a list parameter, repeated or comma-separated, trimmed, without blanks or duplicates. */
export function readList(search: URLSearchParams, name: string): string[] {
  const values = search.getAll(name).flatMap((value) => value.split(','));
  return [...new Set(values.map((value) => value.trim()).filter(Boolean))];
}

export function readVaultFilters(search: URLSearchParams): VaultCategory[] {
  return readList(search, 'filters').filter(isVaultCategory);
}

export function readPostsFilters(search: URLSearchParams): PostsFilter[] {
  return readList(search, 'filters').filter(isPostsFilter);
}

export function readBookmarkFilters(search: URLSearchParams): BookmarkFilter[] {
  return readList(search, 'filters').filter(isBookmarkFilter);
}

/** `sort` is desc (Newest, the default) or asc (Oldest). */
export function readSort(search: URLSearchParams): SortOrder {
  return search.get('sort') === 'asc' ? 'asc' : 'desc';
}

/** A page offset: a whole number from 0; anything else is 0. */
export function readOffset(search: URLSearchParams, name = 'offset'): number {
  const value = Number(search.get(name));
  return Number.isInteger(value) && value > 0 ? Math.min(value, 1_000_000) : 0;
}

/** `q`, the words a list page searches for (empty: no search), at most SEARCH_MAX characters. */
export function readSearch(search: URLSearchParams): string {
  return (search.get('q') ?? '').trim().slice(0, SEARCH_MAX);
}

export function readOrigin(search: URLSearchParams): ItemOrigin | undefined {
  const from = search.get('from');
  return (ITEM_ORIGINS as readonly string[]).includes(from ?? '') ? (from as ItemOrigin) : undefined;
}

/** A list page's state as its links carry it. */
export interface ListState<F extends string = string> {
  filters: readonly F[];
  /** Undefined: the list's own order (a collection's artist order). */
  sort?: SortOrder;
  offset?: number;
}

/**
 * The search string for a list page: filters as one comma list in a stable order (the order of `all`), the sort
 * unless it is the page's default (`defaultSort`: desc, or null where every sort is a choice), the offset only
 * past the first page, and any extra parameters kept.
 */
export function listSearch<F extends string>(
  state: ListState<F>,
  all: readonly F[],
  extra: Record<string, string | undefined> = {},
  defaultSort: SortOrder | null = 'desc',
): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(extra)) if (value) search.set(key, value);
  const filters = all.filter((filter) => state.filters.includes(filter));
  if (filters.length) search.set('filters', filters.join(','));
  if (state.sort && state.sort !== defaultSort) search.set('sort', state.sort);
  if (state.offset) search.set('offset', String(state.offset));
  // Commas may stand as they are in a query string: `filters=demo,live` reads better in a shared link.
  const text = search.toString().replace(/%2C/gi, ',');
  return text ? `?${text}` : '';
}

/** The filters with one of them switched on or off (a filter chip's link). */
export function toggleFilter<F extends string>(filters: readonly F[], filter: F): F[] {
  return filters.includes(filter) ? filters.filter((f) => f !== filter) : [...filters, filter];
}
