import { describe, expect, it } from 'vitest';
import { possessive } from '#contract/names';

describe('possessive', () => {
  it('adds ’s, or the apostrophe alone to a name ending in s', () => {
    expect(possessive('Juniper Lane')).toBe('Juniper Lane’s');
    expect(possessive('The Late Nights')).toBe('The Late Nights’');
    expect(possessive('NOVA AND THE REYES')).toBe('NOVA AND THE REYES’');
    expect(possessive('thelatenights')).toBe('thelatenights’');
  });
});
