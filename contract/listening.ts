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
