import type { SubmissionResult } from '@conform-to/react';
import { describe, expect, it } from 'vitest';
import { CollectionActionSchema, shownCover } from '~/utils/collection-form';
import { chosenItems, readPickerAddress } from '~/utils/collections.server';
import { parseForm } from '~/utils/form-schema';

function form(entries: [string, string][]) {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
}

describe("chosenItems: the collection form's items in order", () => {
  it('sorts the ticked items by their order numbers, blanks last, ties in list order', () => {
    const data = form([
      ['item', 'a'],
      ['order-a', '2'],
      ['item', 'b'],
      ['order-b', '1'],
      ['item', 'c'],
      ['order-c', ''],
      ['order-d', '1'],
      ['item', 'e'],
      ['order-e', '2'],
    ]);
    expect(chosenItems(data)).toEqual(['b', 'a', 'e', 'c']);
  });

  it('applies a move intent after the numbers, and ignores one at the edge', () => {
    const base: [string, string][] = [
      ['item', 'a'],
      ['order-a', '1'],
      ['item', 'b'],
      ['order-b', '2'],
    ];
    expect(chosenItems(form([...base, ['intent', 'move-up:b']]))).toEqual(['b', 'a']);
    expect(chosenItems(form([...base, ['intent', 'move-down:a']]))).toEqual(['b', 'a']);
    expect(chosenItems(form([...base, ['intent', 'move-up:a']]))).toEqual(['a', 'b']);
    expect(chosenItems(form([...base, ['intent', 'move-down:b']]))).toEqual(['a', 'b']);
  });

  it('keeps the chosen items of other pages in their places, drops an unticked shown one, adds a ticked one of the picker', () => {
    // Five chosen, c and d shown (their page); c unticked, d renumbered 1, x ticked in the picker without a number.
    const data = form([
      ['chosen', 'a,b,c,d,e'],
      ['shown', 'c,d'],
      ['order-c', '3'],
      ['item', 'd'],
      ['order-d', '1'],
      ['item', 'x'],
      ['order-x', ''],
    ]);
    expect(chosenItems(data)).toEqual(['a', 'd', 'b', 'e', 'x']);
  });

  it('moves an item across the edge of its page', () => {
    const data = form([
      ['chosen', 'a,b,c'],
      ['shown', 'c'],
      ['item', 'c'],
      ['order-c', '3'],
      ['intent', 'move-up:c'],
    ]);
    expect(chosenItems(data)).toEqual(['a', 'c', 'b']);
  });

  it('keeps a ticked item once', () => {
    expect(
      chosenItems(
        form([
          ['item', 'a'],
          ['item', 'a'],
        ]),
      ),
    ).toEqual(['a']);
  });
});

describe("readPickerAddress: the picker's place and the unsaved form in the page's address", () => {
  const read = (search: string) => readPickerAddress(new URL(`http://localhost/juniperlane/account/collections/new${search}`));

  it('starts on the first page with no search and no form of its own', () => {
    expect(read('')).toEqual({ q: '', page: 1, cpage: 1, draft: null });
  });

  it('reads the search, the page and the form a browse left, the items in order once each', () => {
    const address = read('?q=+harbour+&page=3&cpage=2&title=Set&description=Road&coverId=m1&coverName=a.jpg&items=b,a,,b');
    expect(address).toEqual({
      q: 'harbour',
      page: 3,
      cpage: 2,
      draft: { title: 'Set', description: 'Road', coverId: 'm1', coverName: 'a.jpg', itemIds: ['b', 'a'] },
    });
  });

  it('keeps an empty choice (every box unticked) apart from no form at all', () => {
    expect(read('?items=').draft).toEqual({ title: '', description: '', coverId: null, coverName: '', itemIds: [] });
  });

  it('turns a page that is not one into the first or the last it allows, and a search too long into the longest allowed', () => {
    expect(read('?page=-2').page).toBe(1);
    expect(read('?page=two').page).toBe(1);
    expect(read('?page=2.7').page).toBe(2);
    expect(read('?page=99999999').page).toBe(1000);
    expect(read(`?q=${'a'.repeat(150)}`).q).toHaveLength(100);
  });
});

describe('shownCover: the cover as the last answer left it', () => {
  const saved = { id: 'c1', name: '', url: '/media/c1.jpg' };
  const reply = (initialValue: Record<string, unknown>) => ({ initialValue }) as Pick<SubmissionResult<string[]>, 'initialValue'>;

  it('is the saved cover when nothing was sent (none on a new collection)', () => {
    expect(shownCover(undefined, null, saved)).toEqual(saved);
    expect(shownCover(undefined, null, null)).toBeNull();
  });

  it('follows a refused save: the saved cover with its picture, an upload by its name, or none once removed', () => {
    expect(shownCover(reply({ coverId: 'c1' }), null, saved)).toEqual(saved);
    expect(shownCover(reply({ coverId: 'c2', coverName: 'sleeve.jpg' }), null, saved)).toEqual({ id: 'c2', name: 'sleeve.jpg', url: null });
    expect(shownCover(reply({ title: 'x' }), null, saved)).toBeNull();
  });

  it('follows the unsaved form in the address after a search, a page turn or a move', () => {
    expect(shownCover(undefined, { coverId: 'c2', coverName: 'sleeve.jpg' }, null)).toEqual({ id: 'c2', name: 'sleeve.jpg', url: null });
    expect(shownCover(undefined, { coverId: null, coverName: '' }, saved)).toBeNull();
  });
});

describe('CollectionActionSchema: a search or a page turn', () => {
  const browse = (title: string) =>
    parseForm(
      form([
        ['intent', 'browse'],
        ['title', title],
        ['q', 'demo'],
      ]),
      CollectionActionSchema,
    );

  it('goes whatever the title holds: empty, or longer than a save takes (the save says so)', () => {
    expect(browse('').status).toBe('success');
    expect(browse('Road songs').status).toBe('success');
    expect(browse('x'.repeat(101)).status).toBe('success');
  });
});
