/**
 * Vault and posts search (docs/listening.md): the longest search, and the highlights (the api marks each matched
 * word of a search list's titles and passages, the web shows them as <mark>). Apart from contract/listening.ts so the
 * list pages do not carry the player's and the comments' rules.
 */

/** The longest search a fan can type. */
export const SEARCH_MAX = 100;

/** The marks around each matched word in a search list's highlights: control characters no title or caption holds. */
export const HIGHLIGHT = { start: '\u0002', stop: '\u0003' } as const;

/** A highlighted text as parts: plain, or a matched word (`mark`). */
export function highlightParts(text: string): { text: string; mark: boolean }[] {
  const parts: { text: string; mark: boolean }[] = [];
  for (const [index, piece] of text.split(HIGHLIGHT.start).entries()) {
    if (index === 0) {
      if (piece) parts.push({ text: piece, mark: false });
      continue;
    }
    const [marked = '', ...rest] = piece.split(HIGHLIGHT.stop);
    if (marked) parts.push({ text: marked, mark: true });
    const after = rest.join('');
    if (after) parts.push({ text: after, mark: false });
  }
  return parts;
}
