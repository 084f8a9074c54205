import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeCaption } from '../../api/content/sanitize';
import { visibleText, visibleTextLength } from '#contract/content-text';

describe('visible text counter (the 4000-character caption rule)', () => {
  it('strips markup and counts what a reader sees', () => {
    expect(visibleText('<p>Hello <strong>world</strong></p>')).toBe('Hello world');
    expect(visibleTextLength('<p>Hello <strong>world</strong></p>')).toBe(11);
    expect(visibleTextLength('<p><a href="https://example.com/a/very/long/link">link</a></p>')).toBe(4);
  });
  it('does not join words that sit in separate blocks', () => {
    expect(visibleText('<p>one</p><p>two</p><ul><li>three</li><li>four</li></ul>five<br>six')).toBe('one two three four five six');
  });
  it('does not split a word styled in the middle', () => {
    expect(visibleText('bo<strong>ld</strong>ly')).toBe('boldly');
  });
  it('decodes entities to the character they show', () => {
    expect(visibleText('Tom &amp; Jerry &lt;3 &#8212; &#x1F3B8; &nbsp;!')).toBe('Tom & Jerry <3 — 🎸 !');
    expect(visibleTextLength('&#x1F3B8;')).toBe(1);
  });
  it('counts an emoji or accented letter as one character', () => {
    expect(visibleTextLength('🎸🎤')).toBe(2);
    expect(visibleTextLength('Beyoncé')).toBe(7);
  });
  it('collapses white space as a browser renders it and ignores leading and trailing space', () => {
    expect(visibleTextLength('  a \n\n  b  ')).toBe(3);
    expect(visibleTextLength('<p>&nbsp;</p>')).toBe(0);
  });
  it('counts nothing inside script, style or comments', () => {
    expect(visibleText('<script>alert("x")</script>a<style>p{}</style><!-- note -->b')).toBe('a b');
  });
  it('reads a plain-text caption (no JavaScript) as it is', () => {
    expect(visibleText('Soundcheck at 5 < 6 pm, doors > 7')).toBe('Soundcheck at 5 < 6 pm, doors > 7');
  });
});

describe('caption sanitising', () => {
  it('removes script elements with their content', () => {
    expect(sanitizeCaption('<p>Hi<script>alert(1)</script></p>')).toBe('<p>Hi</p>');
    expect(sanitizeCaption('<p>Hi</p><SCRIPT src="https://evil.example/x.js"></SCRIPT>')).toBe('<p>Hi</p>');
  });
  it('removes event handlers', () => {
    expect(sanitizeCaption('<p onclick="steal()">Hi</p><img src=x onerror="steal()">')).toBe('<p>Hi</p>');
    expect(sanitizeCaption('<strong onmouseover="x()">bold</strong>')).toBe('<strong>bold</strong>');
  });
  it('turns javascript:, data: and relative links into plain text', () => {
    expect(sanitizeCaption('<p><a href="javascript:alert(1)">click</a></p>')).toBe('<p>click</p>');
    expect(sanitizeCaption('<p><a href=" JaVaScRiPt:alert(1)">click</a></p>')).toBe('<p>click</p>');
    expect(sanitizeCaption('<p><a href="data:text/html,<script>x</script>">x</a></p>')).toBe('<p>x</p>');
    expect(sanitizeCaption('<p><a href="/account">x</a></p>')).toBe('<p>x</p>');
  });
  it('keeps http, https and mailto links, opening safely in a new tab', () => {
    expect(sanitizeCaption('<a href="https://tickets.example/show" target="_self" rel="opener">tickets</a>')).toBe(
      '<a href="https://tickets.example/show" rel="noopener noreferrer nofollow" target="_blank">tickets</a>',
    );
    expect(sanitizeCaption('<a href="mailto:band@example.com">mail</a>')).toContain('href="mailto:band@example.com"');
  });
  it('keeps the editor formatting: paragraphs, breaks, bold, italic, lists', () => {
    const html = '<p><strong>a</strong> <b>b</b> <em>c</em> <i>d</i><br /></p><ul><li>e</li></ul><ol><li>f</li></ol>';
    expect(sanitizeCaption(html)).toBe(html);
  });
  it('drops other tags and attributes but keeps their text', () => {
    expect(sanitizeCaption('<div class="x" style="color:red"><h1>Title</h1><p><span>text</span></p></div>')).toBe('Title<p>text</p>');
    expect(sanitizeCaption('<iframe src="https://evil.example"></iframe><p>ok</p>')).toBe('<p>ok</p>');
  });
  it('closes every link it opens as a link: a refused link before a kept one made <a>…</span>', () => {
    expect(sanitizeCaption('<p><a href="javascript:x">no</a> <a href="https://x.example">yes</a></p>')).toBe(
      '<p>no <a href="https://x.example" rel="noopener noreferrer nofollow" target="_blank">yes</a></p>',
    );
  });

  it('whatever markup comes in, what goes out is well formed, of the editor’s tags only, with safe links', { timeout: 60_000 }, () => {
    const ALLOWED = new Set(['p', 'br', 'strong', 'b', 'em', 'i', 'a', 'ul', 'ol', 'li']);
    const piece = fc.oneof(
      fc.constantFrom('<p>', '</p>', '<b>', '</b>', '<i>', '</i>', '<ul>', '<li>', '</li>', '</ul>', '<br>', '<br />', '</a>', '<a>'),
      fc.constantFrom(
        '<span>',
        '</span>',
        '<div>',
        '</div>',
        '<script>',
        '</script>',
        '<style>',
        '<img src=x onerror=y>',
        '<svg><a href="https://s.example">',
      ),
      fc
        .constantFrom('https://x.example', 'javascript:alert(1)', '/account', 'mailto:a@b.example', ' JaVaScRiPt:x', 'data:text/html,x', '')
        .map((href) => `<a href="${href}">`),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 12 }).map((parts) => parts.join('')),
        (input) => {
          const output = sanitizeCaption(input);
          const open: string[] = [];
          for (const [tag, closing, name, attributes] of output.matchAll(/<(\/?)([a-z0-9]+)([^>]*)>/gi)) {
            const lower = name.toLowerCase();
            expect(ALLOWED.has(lower), `${tag} in ${output} from ${input}`).toBe(true);
            if (lower === 'br') continue;
            if (closing) expect(open.pop(), `${tag} in ${output} from ${input}`).toBe(lower);
            else open.push(lower);
            if (lower === 'a' && !closing)
              expect(attributes, `${tag} from ${input}`).toMatch(
                /^ href="(https?:\/\/|mailto:)[^"]*" rel="noopener noreferrer nofollow" target="_blank"$/,
              );
          }
          expect(open, `${output} from ${input}`).toEqual([]);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('turns a plain-text caption into paragraphs, escaping what looks like markup', () => {
    expect(sanitizeCaption('First line\nsecond line\n\nNew paragraph & more')).toBe(
      '<p>First line<br />second line</p><p>New paragraph &amp; more</p>',
    );
    expect(sanitizeCaption('5 < 6 and 7 > 3')).toBe('<p>5 &lt; 6 and 7 &gt; 3</p>');
    expect(sanitizeCaption('<img src=x onerror="steal()"> <3')).toBe('<p>&lt;img src=x onerror="steal()"&gt; &lt;3</p>');
  });
});
