import { describe, expect, it } from 'vitest';
import { excerpt } from '#contract/content-text';
import {
  listSearch,
  readList,
  readOffset,
  readOrigin,
  readBookmarkFilters,
  readPostsFilters,
  readSort,
  readVaultFilters,
  toggleFilter,
} from '../../app/utils/content-params';
import {
  BOOKMARK_FILTER_LABELS,
  BOOKMARK_FILTERS,
  POSTS_FILTERS,
  typesForBookmarkFilters,
  VAULT_CATEGORIES,
} from '#contract/content-types';

const search = (query: string) => new URLSearchParams(query);

describe('the content pages’ search parameters', () => {
  it('reads filters as a comma list, as repeated parameters, or both, without blanks or repeats', () => {
    expect(readList(search('filters=demo,live'), 'filters')).toEqual(['demo', 'live']);
    expect(readList(search('filters=demo&filters=live'), 'filters')).toEqual(['demo', 'live']);
    expect(readList(search('filters=demo,%20live&filters=demo&filters=,'), 'filters')).toEqual(['demo', 'live']);
    expect(readList(search(''), 'filters')).toEqual([]);
  });

  it('keeps only real vault categories and posts filters, so an old or edited link still opens the page', () => {
    expect(readVaultFilters(search('filters=demo,nonsense,tourDiary,post'))).toEqual(['demo', 'tourDiary']);
    expect(readPostsFilters(search('filters=Tour+Diary,Poll,poll,Photo'))).toEqual(['Tour Diary', 'Poll']);
  });

  it('offers bookmarks the vault categories and the posts filters, each as written on its own page, Tour Diary once', () => {
    expect(BOOKMARK_FILTERS).toEqual([...VAULT_CATEGORIES, 'Post', 'Poll', 'Ticket Presale', 'Announcement']);
    expect(BOOKMARK_FILTER_LABELS.tourDiary).toBe('Tour Diary');
    expect(BOOKMARK_FILTER_LABELS.Poll).toBe('Poll');
    expect(readBookmarkFilters(search('filters=live,Poll,Tour+Diary,post'))).toEqual(['live', 'Poll']);
    expect(typesForBookmarkFilters(['live', 'Post'])).toEqual(['live', 'post', 'photo']);
    expect(typesForBookmarkFilters(['Announcement'])).toEqual(['announcement']);
    expect(typesForBookmarkFilters([])).toEqual([]);
  });

  it('sorts Newest (desc) unless asc is asked for; offsets are whole numbers from 0', () => {
    expect(readSort(search(''))).toBe('desc');
    expect(readSort(search('sort=asc'))).toBe('asc');
    expect(readSort(search('sort=sideways'))).toBe('desc');
    expect(readOffset(search('offset=24'))).toBe(24);
    expect(readOffset(search('offset=-3'))).toBe(0);
    expect(readOffset(search('offset=2.5'))).toBe(0);
    expect(readOffset(search('offset=abc'))).toBe(0);
  });

  it('knows where the item page returns to', () => {
    expect(readOrigin(search('from=bookmarks'))).toBe('bookmarks');
    expect(readOrigin(search('from=elsewhere'))).toBeUndefined();
  });

  it('writes links with the filters in a stable order as one readable comma list, the default sort left out', () => {
    expect(listSearch({ filters: ['live', 'demo'], sort: 'desc' }, VAULT_CATEGORIES)).toBe('?filters=demo,live');
    expect(listSearch({ filters: [], sort: 'asc', offset: 24 }, VAULT_CATEGORIES)).toBe('?sort=asc&offset=24');
    expect(listSearch({ filters: [], sort: 'desc' }, VAULT_CATEGORIES)).toBe('');
    expect(listSearch({ filters: ['Ticket Presale', 'Poll'], sort: 'desc' }, POSTS_FILTERS)).toBe('?filters=Poll,Ticket+Presale');
    // A collection has an order of its own: there every sort is written, and none means the artist's order.
    expect(listSearch({ filters: [], sort: 'desc' }, VAULT_CATEGORIES, { from: 'home' }, null)).toBe('?from=home&sort=desc');
    expect(listSearch({ filters: [] }, VAULT_CATEGORIES, { from: undefined }, null)).toBe('');
  });

  it('a link written is read back as the same state', () => {
    const state = { filters: ['unreleased', 'behindTheScenes'] as const, sort: 'asc' as const, offset: 48 };
    const back = search(listSearch(state, VAULT_CATEGORIES).slice(1));
    expect(readVaultFilters(back)).toEqual(['unreleased', 'behindTheScenes']);
    expect(readSort(back)).toBe('asc');
    expect(readOffset(back)).toBe(48);
  });

  it('a filter chip switches its own filter and leaves the others', () => {
    expect(toggleFilter(['demo'], 'live')).toEqual(['demo', 'live']);
    expect(toggleFilter(['demo', 'live'], 'demo')).toEqual(['live']);
  });
});

describe('the excerpt of a post card', () => {
  it('shows the visible text of the caption, whole when short', () => {
    expect(excerpt('<p>One take, <strong>no</strong> edits.</p><script>x()</script>')).toBe('One take, no edits.');
  });

  it('cuts a long caption at a word and marks the cut', () => {
    const text = excerpt(`<p>${'word '.repeat(60)}</p>`, 50);
    expect(text.endsWith('word…')).toBe(true);
    expect([...text].length).toBeLessThanOrEqual(51);
  });
});
