import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeRedirect } from '../../app/utils/safe-redirect';

/**
 * `next`, `redirectTo` and paths taken from the URL become Location headers (docs/security.md, finding 2). What comes out
 * must keep a browser on our site, read the way the browser's URL parser reads it, and be a valid header value.
 */
const PAGE = 'https://app.stagedoor.fm/login?next=x';

/** Where a browser on our page goes when it follows this Location. */
const followed = (location: string) => new URL(location, PAGE);

describe('safeRedirect', () => {
  it('keeps a path on this site with its search and hash', () => {
    expect(safeRedirect('/nova/vault?sort=asc#latest')).toBe('/nova/vault?sort=asc#latest');
    expect(safeRedirect('/discover', '/')).toBe('/discover');
  });

  it('falls back for anything that leads to another host, read as a browser reads it', () => {
    for (const target of [
      '//evil.example/x',
      '/\t/evil.example',
      '/\n/evil.example',
      '/\r\n/evil.example',
      '/\\evil.example',
      '\\/evil.example',
      '/..//evil.example/x',
      '/%2e%2e//evil.example',
      '/.//evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      'evil.example',
      ' /x',
      '',
    ]) {
      expect(safeRedirect(target, '/fallback'), JSON.stringify(target)).toBe('/fallback');
    }
    expect(safeRedirect(null)).toBe('/discover');
    expect(safeRedirect(undefined, '')).toBe('');
  });

  it('answers ASCII a Location header can carry, for control characters and non-ASCII (they answered 500)', () => {
    expect(safeRedirect('/x\r\nSet-Cookie: a=b')).toBe('/xSet-Cookie:%20a=b');
    expect(safeRedirect('/\u3002evil.example')).toBe('/%E3%80%82evil.example');
    expect(() => new Headers({ Location: safeRedirect('/caf\u00e9/\u{1F3B8}?q=\u00fc') })).not.toThrow();
  });

  it('whatever it is given, the answer keeps the browser on our site and is a valid header value', { timeout: 60_000 }, () => {
    const piece = fc.oneof(
      fc.constantFrom(
        '/',
        '//',
        '\\',
        '\t',
        '\n',
        '\r',
        '.',
        '..',
        '%2e',
        '%2f',
        '%5c',
        '@',
        ':',
        '?',
        '#',
        'evil.example',
        '\u3002',
        ' ',
        '\u0000',
      ),
      fc.string({ maxLength: 4 }),
      fc.string({ unit: 'binary', maxLength: 4 }),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 8 }).map((parts) => parts.join('')),
        (target) => {
          const location = safeRedirect(target, '/discover');
          expect(followed(location).origin, JSON.stringify(target)).toBe('https://app.stagedoor.fm');
          expect(() => new Headers({ Location: location }), JSON.stringify(target)).not.toThrow();
          expect(location, JSON.stringify(target)).toMatch(/^\/(?![/\\])[\x21-\x7e]*$|^\/$/);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
