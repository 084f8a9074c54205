/**
 * Text as a reader sees it, for the post form's limits and for the cards' excerpts: apart from the rest
 * of content-rules.ts, so the pages that only show content load these few functions and not the form's rules.
 */

/**
 * What cannot stand in text that is shown on one line (a name, a title): line breaks and tabs and every other
 * control character, the line and paragraph separators, and the direction overrides that make a name read
 * backwards. Emoji joiners and other format characters that letters need stay allowed.
 */
const OFF_THE_LINE = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

/** True when the text holds nothing that breaks or disguises a single line (checked after trimming). */
export function isSingleLine(text: string) {
  return !OFF_THE_LINE.test(text);
}

/** Characters as a person counts them: an emoji or an accented letter is one, whatever its UTF-16 length. */
export function characterCount(text: string) {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  copy: '©',
  reg: '®',
  trade: '™',
  euro: '€',
  pound: '£',
};

function decodeEntities(text: string) {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? entity;
  });
}

const BLOCK_TAG = /^(p|br|div|li|ul|ol|h[1-6]|blockquote|pre|tr|td|th|hr)$/i;

/**
 * The text a reader sees in a caption: markup stripped (script and style bodies too), entities decoded, and
 * white space collapsed as a browser renders it. A plain-text caption (the no-JavaScript textarea) reads the same.
 */
export function visibleText(html: string) {
  const text = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<\/?([a-z][a-z0-9]*)\b[^>]*>/gi, (_tag, name: string) => (BLOCK_TAG.test(name) ? ' ' : ''));
  return decodeEntities(text).replace(/\s+/g, ' ').trim();
}

/** The number the 4000-character caption limit counts. */
export function visibleTextLength(html: string) {
  return characterCount(visibleText(html));
}

/** The first words of a caption's visible text, cut at a word boundary (a feed card's text). */
export function excerpt(html: string, max = 180) {
  const text = visibleText(html);
  if (characterCount(text) <= max) return text;
  const cut = [...text].slice(0, max).join('');
  const atWord = cut.slice(0, cut.lastIndexOf(' ') > max * 0.6 ? cut.lastIndexOf(' ') : cut.length);
  return `${atWord.replace(/[\s.,;:!?–—-]+$/, '')}…`;
}
