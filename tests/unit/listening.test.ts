import { describe, expect, it } from 'vitest';
import { HIGHLIGHT, highlightParts } from '#contract/search';
import { formatAt, parseAt, readStartAt } from '#contract/listening';
import { parseTranscript, toVtt, transcriptMessages, typedTranscript } from '#contract/transcript';

describe('moments', () => {
  it('reads what a fan writes, and writes what the player shows', () => {
    expect(parseAt('1:23')).toBe(83);
    expect(parseAt('83')).toBe(83);
    expect(parseAt(' 1:02:03 ')).toBe(3723);
    expect(parseAt('')).toBeNull();
    expect(parseAt('1:75')).toBeUndefined();
    expect(parseAt('soon')).toBeUndefined();
    expect(formatAt(83.9)).toBe('1:23');
    expect(formatAt(5)).toBe('0:05');
    expect(formatAt(3723)).toBe('1:02:03');
    expect(readStartAt('83')).toBe(83);
    expect(readStartAt('nonsense')).toBeNull();
    expect(readStartAt(null)).toBeNull();
  });

  it('splits a highlighted text into plain parts and marked words', () => {
    expect(highlightParts(`A ${HIGHLIGHT.start}lighthouse${HIGHLIGHT.stop} at ${HIGHLIGHT.start}dawn${HIGHLIGHT.stop}`)).toEqual([
      { text: 'A ', mark: false },
      { text: 'lighthouse', mark: true },
      { text: ' at ', mark: false },
      { text: 'dawn', mark: true },
    ]);
    expect(highlightParts('nothing matched')).toEqual([{ text: 'nothing matched', mark: false }]);
  });
});

describe('transcripts', () => {
  it('reads typed paragraphs with their times, and WebVTT cues without their markup', () => {
    expect(parseTranscript('[0:05] First line\n\n0:12 - Second\nstill second')).toEqual([
      { start: 5, end: null, text: 'First line' },
      { start: 12, end: null, text: 'Second still second' },
    ]);
    expect(parseTranscript('\uFEFFWEBVTT\r\n\r\n1\r\n00:01.000 --> 00:02.500 align:start\r\n<i>Hi</i> &amp; bye\r\n')).toEqual([
      { start: 1, end: 2.5, text: 'Hi & bye' },
    ]);
  });

  it('says what is wrong with a transcript it cannot read', () => {
    expect(parseTranscript('no time here')).toBe(transcriptMessages.untimed);
    expect(parseTranscript('0:10 b\n\n0:01 a')).toBe(transcriptMessages.outOfOrder);
    expect(parseTranscript('WEBVTT\n\n00:05.000 --> 00:01.000\nbackwards')).toBe(transcriptMessages.badVtt);
    expect(parseTranscript('   ')).toBe(transcriptMessages.empty);
    expect(parseTranscript('x'.repeat(100_001))).toBe(transcriptMessages.tooLong);
  });

  it('writes the lines back as typed paragraphs and as WebVTT (a typed line lasts until the next)', () => {
    const cues = [
      { start: 0, end: null, text: 'One <two>' },
      { start: 65, end: null, text: 'Three' },
    ];
    expect(typedTranscript(cues)).toBe('0:00 One <two>\n\n1:05 Three');
    expect(toVtt(cues)).toBe('WEBVTT\n\n00:00:00.000 --> 00:01:05.000\nOne &lt;two&gt;\n\n00:01:05.000 --> 00:01:15.000\nThree\n');
  });
});
