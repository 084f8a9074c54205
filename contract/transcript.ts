import { formatAt, parseAt } from './listening';

/**
 * An item's captions and transcript (docs/listening.md): timed lines, from a WebVTT file or typed by the artist as
 * paragraphs that each start with their time ("0:12 We drove…"). Shared by the api (which stores the lines) and the
 * web (the form's rules and the transcript under the player).
 */

export interface Cue {
  /** Seconds from the start. */
  start: number;
  /** Seconds; null for a typed paragraph (it lasts until the next one). */
  end: number | null;
  text: string;
}

export const TRANSCRIPT_MAX = 100_000;

export const transcriptMessages = {
  tooLong: 'The transcript is too long: keep it to 100,000 characters.',
  untimed: 'Start each paragraph with its time, like 0:12, or add a WebVTT file.',
  outOfOrder: 'Put the paragraphs in order of their times.',
  badVtt: 'This WebVTT file could not be read: each caption needs a time line like 00:00:01.000 --> 00:00:04.000.',
  empty: 'Add the transcript, or a WebVTT file.',
  notPlayable: 'Only a track or a video has a transcript.',
} as const;

const VTT_TIME = /^(?:(\d+):)?(\d{1,2}):(\d{2})(?:[.,](\d{1,3}))?$/;

function vttSeconds(text: string) {
  const parts = VTT_TIME.exec(text.trim());
  if (!parts) return undefined;
  const [, h = '0', m, s, ms = '0'] = parts;
  return Number(h) * 3600 + Number(m) * 60 + Number(s) + Number(ms.padEnd(3, '0')) / 1000;
}

/** The text of a WebVTT cue without its markup (<v Speaker>, <i>, timestamps). */
const cueText = (lines: string[]) =>
  lines
    .join(' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\s+/g, ' ')
    .trim();

function parseVtt(text: string): Cue[] | string {
  const cues: Cue[] = [];
  const blocks = text
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .slice(1);
  for (const block of blocks) {
    const lines = block.split('\n').filter((line) => line.trim() !== '');
    const timing = lines.findIndex((line) => line.includes('-->'));
    if (timing < 0) {
      // NOTE, STYLE and REGION blocks carry no caption.
      if (/^(NOTE|STYLE|REGION)\b/.test(lines[0] ?? '')) continue;
      return transcriptMessages.badVtt;
    }
    const [from = '', rest = ''] = lines[timing]!.split('-->');
    const start = vttSeconds(from);
    const end = vttSeconds(rest.trim().split(/\s+/)[0] ?? '');
    if (start === undefined || end === undefined || end < start) return transcriptMessages.badVtt;
    const words = cueText(lines.slice(timing + 1));
    if (words) cues.push({ start, end, text: words });
  }
  return cues.length ? cues.sort((a, b) => a.start - b.start) : transcriptMessages.badVtt;
}

const TYPED_TIME = /^\[?((?:\d{1,2}:)?\d{1,3}:[0-5]\d)\]?\s*[-–—:]?\s*/;

function parseTyped(text: string): Cue[] | string {
  const cues: Cue[] = [];
  for (const paragraph of text.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    const trimmed = paragraph.trim();
    if (!trimmed) continue;
    const time = TYPED_TIME.exec(trimmed);
    const start = time ? parseAt(time[1]) : undefined;
    if (typeof start !== 'number') return transcriptMessages.untimed;
    if (cues.length && start < cues[cues.length - 1]!.start) return transcriptMessages.outOfOrder;
    const words = trimmed.slice(time![0].length).replace(/\s+/g, ' ').trim();
    if (words) cues.push({ start, end: null, text: words });
  }
  return cues.length ? cues : transcriptMessages.empty;
}

/** The lines of a transcript as the artist gave it: a WebVTT file's text, or typed paragraphs. An error message otherwise. */
export function parseTranscript(text: string): Cue[] | string {
  if (text.length > TRANSCRIPT_MAX) return transcriptMessages.tooLong;
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (!trimmed) return transcriptMessages.empty;
  return /^WEBVTT\b/.test(trimmed) ? parseVtt(trimmed) : parseTyped(trimmed);
}

/** The lines as the artist's form shows them: typed paragraphs, each with its time. */
export const typedTranscript = (cues: Cue[]) => cues.map((cue) => `${formatAt(cue.start)} ${cue.text}`).join('\n\n');

const vttTime = (seconds: number) => {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
};

/** The lines as a WebVTT file, for a video's captions; a typed paragraph lasts until the next (the last, 10 s). */
export function toVtt(cues: Cue[]) {
  const body = cues.map((cue, index) => {
    const end = cue.end ?? cues[index + 1]?.start ?? cue.start + 10;
    const text = cue.text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/-->/g, '--&gt;');
    return `${vttTime(cue.start)} --> ${vttTime(Math.max(end, cue.start))}\n${text}`;
  });
  return `WEBVTT\n\n${body.join('\n\n')}\n`;
}
