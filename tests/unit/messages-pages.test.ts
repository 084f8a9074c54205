import { describe, expect, it } from 'vitest';
import { dayLabel, dayOf, formatTime } from '~/components/local-time';
import { MessageTextSchema } from '#contract/message-schemas';
import { messageErrors, messageTextError } from '#contract/messages';
import { conversationHref } from '~/utils/messages';
import { messagesHref } from '~/utils/messages.server';

describe('where messages live', () => {
  const fan = { artist: false, username: 'demofan' };
  const artist = { artist: true, username: 'novaricci' };

  it('opens a conversation under the artist of the pair, with the other member as the required username', () => {
    expect(conversationHref(fan, { id: 'c1', recipient: { username: 'novaricci' } })).toBe(
      '/novaricci/account/messages/c1?username=novaricci#latest',
    );
    expect(conversationHref(artist, { id: 'c1', recipient: { username: 'demofan' } })).toBe(
      '/novaricci/account/messages/c1?username=demofan#latest',
    );
  });

  it('sends the top bar link to the artist inbox, the current artist, or /messages to choose', () => {
    expect(messagesHref(artist, 'thelatenights')).toBe('/novaricci/account/messages');
    expect(messagesHref(fan, 'thelatenights')).toBe('/thelatenights/account/messages');
    expect(messagesHref(fan)).toBe('/messages');
  });
});

describe('message times', () => {
  const now = new Date('2026-11-22T18:00:00.000Z');

  it('shows the time today, the day this year, and the year before that; the server marks GMT', () => {
    expect(formatTime('2026-11-22T09:05:00.000Z', 'short', 'UTC', now)).toBe('09:05 GMT');
    expect(formatTime('2026-03-03T09:05:00.000Z', 'short', 'UTC', now)).toBe('3 Mar');
    expect(formatTime('2026-03-03T09:05:00.000Z', 'long', 'UTC', now)).toBe('3 Mar, 09:05 GMT');
    expect(formatTime('2024-03-03T21:30:00.000Z', 'long', 'UTC', now)).toBe('3 Mar 2024, 21:30 GMT');
  });

  it('names the days between messages: Today, Yesterday, the weekday this year, the date before', () => {
    expect(dayLabel('2026-11-22T09:05:00.000Z', 'UTC', now)).toBe('Today');
    expect(dayLabel('2026-11-21T23:59:00.000Z', 'UTC', now)).toBe('Yesterday');
    expect(dayLabel('2026-11-19T12:00:00.000Z', 'UTC', now)).toBe('Thursday 19 November');
    expect(dayLabel('2025-12-31T12:00:00.000Z', 'UTC', now)).toBe('31 December 2025');
  });

  it("groups messages by the reader's day: two messages an hour apart are one day in UTC, two in Tokyo", () => {
    const [late, later] = ['2026-11-21T14:30:00.000Z', '2026-11-21T15:30:00.000Z'];
    expect(dayOf(late, 'UTC')).toBe(dayOf(later, 'UTC'));
    expect(dayOf(late, 'Asia/Tokyo')).not.toBe(dayOf(later, 'Asia/Tokyo'));
  });

  it('decides "today" in the reader\'s time zone, not in UTC', () => {
    // 23:30 GMT on the 21st is 08:30 on the 22nd in Tokyo, where it is 19:00 on the 22nd.
    const tokyoEvening = new Date('2026-11-22T10:00:00.000Z');
    expect(formatTime('2026-11-21T23:30:00.000Z', 'short', 'Asia/Tokyo', tokyoEvening)).toBe('08:30');
    expect(formatTime('2026-11-21T23:30:00.000Z', 'short', 'UTC', tokyoEvening)).toBe('21 Nov');
  });
});

describe("the browser's check of a message", () => {
  it('gives the same answer as the schema the action and the api use', () => {
    const samples = [
      '',
      '   ',
      '\n\t',
      'hi',
      '  hi  ',
      'x'.repeat(2000),
      ` ${'x'.repeat(2000)} `,
      'x'.repeat(2001),
      '🎸'.repeat(1000),
      '🎸'.repeat(1001),
      '🎸'.repeat(2000),
      '🎸'.repeat(2001),
    ];
    for (const text of samples) {
      const parsed = MessageTextSchema.safeParse(text);
      const schemaError = parsed.success ? undefined : parsed.error.issues[0]?.message;
      expect(messageTextError(text), JSON.stringify(text.slice(0, 12))).toBe(schemaError);
    }
    expect(messageTextError(' ')).toBe(messageErrors.empty);
    expect(messageTextError('x'.repeat(2001))).toBe(messageErrors.tooLong);
  });
});
