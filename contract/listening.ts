/**
 * Listening (docs/listening.md): comments on a moment of a track, search of the vault, and what a lapsed fan keeps.
 * Shared by the api (its rules and messages) and the web (its forms, the "1:23" links and the highlights).
 */

export const listeningMessages = {
  atFormat: 'Write the time as minutes and seconds, like 1:23.',
  atNoMedia: 'Only a track or a video has moments to comment on.',
  atPastEnd: 'That moment is past the end of the track.',
  searchTooLong: 'Please search for at most 100 characters.',
} as const;

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

/** Seconds as the player shows them: "1:23", "0:05", "1:02:03". */
export function formatAt(seconds: number) {
  const whole = Math.max(0, Math.floor(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/**
 * A moment as a fan writes it in the comment form: "1:23", "1:02:03" or plain seconds ("83"). Undefined for
 * anything else; an empty field is no moment (null).
 */
export function parseAt(text: string | undefined | null): number | null | undefined {
  const value = (text ?? '').trim();
  if (!value) return null;
  if (/^\d{1,5}(\.\d{1,3})?$/.test(value)) return Number(value);
  const parts = /^(?:(\d{1,2}):)?(\d{1,3}):([0-5]\d)$/.exec(value);
  if (!parts) return undefined;
  const [, h = '0', m = '0', s = '0'] = parts;
  return Number(h) * 3600 + Number(m) * 60 + Number(s);
}

/** `?t=83` (or `?t=1:23`) on an item's address: where its player starts. */
export function readStartAt(value: string | null) {
  const at = parseAt(value);
  return typeof at === 'number' && Number.isFinite(at) ? at : null;
}
