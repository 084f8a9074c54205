import { describe, expect, it } from 'vitest';
import { chosenItems } from '~/utils/collections.server';

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
