import { describe, expect, it } from 'vitest';
import {
  CaptionSchema,
  contentMessages as m,
  createPollSchema,
  createPostBodySchema,
  createPostSchema,
  createScheduleSchema,
  defaultSchedule,
  formatScheduleDate,
  formatScheduleTime,
  isFarEnoughAhead,
  parseScheduleDate,
  parseScheduleTime,
  PollSchema,
  PostTitleSchema,
  PresaleSchema,
  presaleMessages,
  scheduleInstant,
  TagsSchema,
} from '#contract/content-schemas';
import { CommentSchema } from '#contract/comment-schema';
import { commentTextError } from '#contract/content-rules';

/** The messages of a failed parse, by field path ("poll.answers.0.text"). */
function errors(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const byPath: Record<string, string[]> = {};
  for (const issue of result.error?.issues ?? []) (byPath[issue.path.join('.') || 'form'] ??= []).push(issue.message);
  return byPath;
}

const NOW = new Date('2025-06-15T12:00:00Z');
const at = (iso: string) => () => new Date(iso);
const valid = { title: 'Tour news', content: '<p>See you soon</p>', tags: 'post' };

describe('post title', () => {
  it('is required', () => {
    expect(errors(PostTitleSchema.safeParse(undefined)).form).toEqual([m.titleRequired]);
    expect(errors(PostTitleSchema.safeParse('')).form).toEqual([m.titleRequired]);
    expect(errors(PostTitleSchema.safeParse('   ')).form).toEqual([m.titleRequired]);
  });
  it('is at most 100 characters', () => {
    expect(PostTitleSchema.safeParse('a'.repeat(100)).success).toBe(true);
    expect(errors(PostTitleSchema.safeParse('a'.repeat(101))).form).toEqual([m.titleTooLong]);
  });
  it('counts an emoji as one character', () => {
    expect(PostTitleSchema.safeParse('🎸'.repeat(100)).success).toBe(true);
  });
  it('quotes the spec', () => {
    expect(m.titleRequired).toBe('Please enter a title for your post.');
    expect(m.titleTooLong).toBe('Title is too long. Please shorten it to stay within the character limit.');
  });
});

describe('caption (visible text)', () => {
  it('needs at least one visible character: markup alone is empty', () => {
    for (const empty of [undefined, '', '   ', '<p></p>', '<p> </p><br>', '<p><strong></strong></p>']) {
      expect(errors(CaptionSchema.safeParse(empty)).form).toEqual(['Please enter a caption for your post.']);
    }
  });
  it('allows 4000 visible characters however much markup surrounds them', () => {
    const text = 'a'.repeat(4000);
    expect(CaptionSchema.safeParse(`<p><strong>${text}</strong></p>`).success).toBe(true);
    expect(errors(CaptionSchema.safeParse(`<p>${text}b</p>`)).form).toEqual([
      'Caption is too long. Please shorten it to stay within the character limit.',
    ]);
  });
  it('counts an entity as the one character it shows', () => {
    expect(CaptionSchema.safeParse(`<p>${'&amp;'.repeat(4000)}</p>`).success).toBe(true);
    expect(CaptionSchema.safeParse(`<p>${'&amp;'.repeat(4001)}</p>`).success).toBe(false);
  });
});

describe('tags', () => {
  it('must be a category', () => {
    expect(errors(TagsSchema.safeParse(undefined)).form).toEqual(['Please select a category for your post.']);
    expect(errors(TagsSchema.safeParse('')).form).toEqual([m.tagsRequired]);
    expect(errors(TagsSchema.safeParse('podcast')).form).toEqual([m.tagsRequired]);
    expect(TagsSchema.parse('voicenote')).toBe('voicenote');
  });
});

describe('poll', () => {
  const poll = (value: object) => errors(PollSchema.safeParse(value));

  it('is not validated while disabled', () => {
    expect(PollSchema.safeParse({ enabled: false, title: '', answers: [{ text: '' }] }).success).toBe(true);
    expect(PollSchema.safeParse({}).success).toBe(true);
  });
  it('needs a question', () => {
    expect(poll({ enabled: true, answers: [{ text: 'a' }, { text: 'b' }] })['title']).toEqual(['Please enter a question for your poll.']);
    expect(poll({ enabled: true, title: '  ', answers: [{ text: 'a' }, { text: 'b' }] })['title']).toEqual([m.pollTitleRequired]);
  });
  it('keeps the question to 50 characters', () => {
    expect(poll({ enabled: true, title: 'q'.repeat(50), answers: [{ text: 'a' }, { text: 'b' }] })).toEqual({});
    expect(poll({ enabled: true, title: 'q'.repeat(51), answers: [{ text: 'a' }, { text: 'b' }] })['title']).toEqual([
      'Title is too long. Please shorten it to stay within the character limit.',
    ]);
  });
  it('needs at least two answers', () => {
    expect(poll({ enabled: true, title: 'Q', answers: [{ text: 'a' }] })['answers']).toEqual([
      'Please provide at least two answers for your poll.',
    ]);
    expect(poll({ enabled: true, title: 'Q' })['answers']).toEqual([m.pollAnswersTooFew]);
  });
  it('allows at most twenty answers', () => {
    const answers = (n: number) => Array.from({ length: n }, (_, i) => ({ text: `answer ${i}` }));
    expect(poll({ enabled: true, title: 'Q', answers: answers(20) })).toEqual({});
    expect(poll({ enabled: true, title: 'Q', answers: answers(21) })['answers']).toEqual([m.pollAnswersTooMany]);
  });
  it('needs every answer filled in, after trimming', () => {
    expect(poll({ enabled: true, title: 'Q', answers: [{ text: 'a' }, { text: '   ' }, {}] })).toEqual({
      'answers.1.text': ['Please fill in all answer fields.'],
      'answers.2.text': ['Please fill in all answer fields.'],
    });
  });
  it('keeps each answer to 50 characters', () => {
    expect(poll({ enabled: true, title: 'Q', answers: [{ text: 'a'.repeat(50) }, { text: 'b'.repeat(51) }] })).toEqual({
      'answers.1.text': ['Answer is too long. Please shorten it to stay within the character limit.'],
    });
  });
  it('trims what it keeps', () => {
    expect(PollSchema.parse({ enabled: true, title: ' Q ', answers: [{ id: 'x', text: ' a ' }, { text: 'b' }] })).toEqual({
      enabled: true,
      title: 'Q',
      answers: [
        { id: 'x', text: 'a' },
        { id: undefined, text: 'b' },
      ],
      closeDate: '',
      closeTime: '',
      closesKept: undefined,
      closesAt: undefined,
    });
  });
});

describe('poll closing time', () => {
  const schema = createPollSchema({ now: () => NOW });
  const open = { enabled: true, title: 'Q', answers: [{ text: 'a' }, { text: 'b' }] };
  const closing = (closeDate: string, closeTime: string, extra: object = {}) =>
    schema.safeParse({ ...open, closeDate, closeTime, ...extra });

  it('is optional: both empty, the poll never closes', () => {
    expect(schema.parse(open).closesAt).toBeUndefined();
    expect(schema.parse({ ...open, closeDate: ' ', closeTime: '' }).closesAt).toBeUndefined();
  });
  it('is a DD/MM/YYYY date and an HH:MM time in GMT, with the schedule messages', () => {
    expect(schema.parse({ ...open, closeDate: '16/06/2025', closeTime: '18:30' }).closesAt).toEqual(new Date('2025-06-16T18:30:00Z'));
    expect(errors(closing('', '18:30'))).toEqual({ closeDate: [m.scheduleDateRequired] });
    expect(errors(closing('31/06/2025', '18:30'))).toEqual({ closeDate: [m.scheduleDateRequired] });
    expect(errors(closing('16/06/2025', ''))).toEqual({ closeTime: [m.scheduleTimeRequired] });
    expect(errors(closing('16/06/2025', '24:00'))).toEqual({ closeTime: [m.scheduleTimeInvalid] });
  });
  it('must be in the future, unless it is the closing time the poll already has', () => {
    expect(errors(closing('15/06/2025', '12:00'))).toEqual({ closeTime: ['Please choose a closing time in the future.'] });
    expect(closing('15/06/2025', '12:01').success).toBe(true);
    expect(closing('15/06/2025', '11:00', { closesKept: '2025-06-15T11:00:00.000Z' }).success).toBe(true);
    expect(errors(closing('15/06/2025', '10:00', { closesKept: '2025-06-15T11:00:00.000Z' }))).toEqual({
      closeTime: [m.pollClosesInPast],
    });
  });
  it('is not read while the poll is off', () => {
    const off = schema.safeParse({ enabled: false, closeDate: '99/99/9999', closeTime: 'x' });
    expect(off.success && off.data.closesAt).toBe(undefined);
  });
  it('comes after a scheduled post is published, in the form and in the api body', () => {
    const post = {
      ...valid,
      poll: { ...open, closeDate: '16/06/2025', closeTime: '09:00' },
      schedule: { enabled: true, date: '16/06/2025', time: '09:00' },
    };
    for (const form of [createPostSchema({ now: () => NOW }), createPostBodySchema({ now: () => NOW })]) {
      expect(errors(form.safeParse(post))).toEqual({ 'poll.closeTime': ['Please choose a closing time after the post is published.'] });
      expect(form.safeParse({ ...post, poll: { ...post.poll, closeTime: '09:01' } }).success).toBe(true);
      expect(form.safeParse({ ...post, schedule: { ...post.schedule, enabled: false } }).success).toBe(true);
    }
  });
});

describe('schedule date and time parsing', () => {
  it('reads DD/MM/YYYY: digits only, two-digit day and month, four-digit year', () => {
    expect(parseScheduleDate('05/01/2026')).toEqual({ day: 5, month: 1, year: 2026 });
    for (const bad of ['5/1/2026', '05-01-2026', '05/01/26', '0a/01/2026', '05/01/20266', ' ', '', undefined, '05/01/２０２６']) {
      expect(parseScheduleDate(bad)).toBeUndefined();
    }
  });
  it('keeps month 1-12, day 1-31 and year 1000-9999', () => {
    expect(parseScheduleDate('01/13/2026')).toBeUndefined();
    expect(parseScheduleDate('01/00/2026')).toBeUndefined();
    expect(parseScheduleDate('00/01/2026')).toBeUndefined();
    expect(parseScheduleDate('32/01/2026')).toBeUndefined();
    expect(parseScheduleDate('01/01/0999')).toBeUndefined();
    expect(parseScheduleDate('01/01/1000')).toEqual({ day: 1, month: 1, year: 1000 });
    expect(parseScheduleDate('31/12/9999')).toEqual({ day: 31, month: 12, year: 9999 });
  });
  it('accepts only real calendar dates: month ends and leap years', () => {
    expect(parseScheduleDate('31/01/2026')).toBeDefined();
    expect(parseScheduleDate('30/04/2026')).toBeDefined();
    expect(parseScheduleDate('31/04/2026')).toBeUndefined();
    expect(parseScheduleDate('31/06/2026')).toBeUndefined();
    expect(parseScheduleDate('29/02/2024')).toBeDefined();
    expect(parseScheduleDate('29/02/2025')).toBeUndefined();
    expect(parseScheduleDate('29/02/2000')).toBeDefined();
    expect(parseScheduleDate('29/02/1900')).toBeUndefined();
    expect(parseScheduleDate('30/02/2024')).toBeUndefined();
  });
  it('reads HH:MM in 24 hours: two digits each, hours 0-23, minutes 0-59', () => {
    expect(parseScheduleTime('00:00')).toEqual({ hours: 0, minutes: 0 });
    expect(parseScheduleTime('23:59')).toEqual({ hours: 23, minutes: 59 });
    for (const bad of ['24:00', '12:60', '9:30', '09:5', '0930', 'ab:cd', '09:30pm', '', undefined]) {
      expect(parseScheduleTime(bad)).toBeUndefined();
    }
  });
  it('names an instant in UTC, whatever the machine time zone', () => {
    expect(scheduleInstant({ day: 31, month: 12, year: 2025 }, { hours: 23, minutes: 59 }).toISOString()).toBe('2025-12-31T23:59:00.000Z');
    expect(scheduleInstant({ day: 1, month: 1, year: 1000 }, { hours: 0, minutes: 0 }).toISOString()).toBe('1000-01-01T00:00:00.000Z');
  });
  it('formats back to DD/MM/YYYY and HH:MM in UTC', () => {
    const instant = new Date('2024-02-29T07:05:00Z');
    expect(formatScheduleDate(instant)).toBe('29/02/2024');
    expect(formatScheduleTime(instant)).toBe('07:05');
  });
  it('defaults to 30 minutes from now in UTC, across midnight, month and year ends', () => {
    expect(defaultSchedule(new Date('2025-06-15T12:00:00Z'))).toEqual({ date: '15/06/2025', time: '12:30' });
    expect(defaultSchedule(new Date('2025-12-31T23:45:00Z'))).toEqual({ date: '01/01/2026', time: '00:15' });
    expect(defaultSchedule(new Date('2024-02-28T23:50:00Z'))).toEqual({ date: '29/02/2024', time: '00:20' });
    expect(defaultSchedule(new Date('2025-02-28T23:50:00Z'))).toEqual({ date: '01/03/2025', time: '00:20' });
  });
});

describe('the 10-minute rule', () => {
  it('accepts exactly 10 minutes ahead and refuses anything less', () => {
    expect(isFarEnoughAhead(new Date('2025-06-15T12:10:00Z'), NOW)).toBe(true);
    expect(isFarEnoughAhead(new Date('2025-06-15T12:09:59.999Z'), NOW)).toBe(false);
    expect(isFarEnoughAhead(new Date('2025-06-15T11:00:00Z'), NOW)).toBe(false);
  });
  it('is reported on the time field with the spec message', () => {
    const schedule = createScheduleSchema({ now: () => NOW });
    expect(errors(schedule.safeParse({ enabled: true, date: '15/06/2025', time: '12:09' }))).toEqual({
      time: ['Scheduled time and date must be at least 10 minutes in the future.'],
    });
    expect(schedule.safeParse({ enabled: true, date: '15/06/2025', time: '12:10' }).success).toBe(true);
  });
  it('compares in UTC across a year end', () => {
    const schedule = createScheduleSchema({ now: at('2025-12-31T23:55:00Z') });
    expect(errors(schedule.safeParse({ enabled: true, date: '01/01/2026', time: '00:04' })).time).toEqual([m.scheduleTooSoon]);
    expect(schedule.safeParse({ enabled: true, date: '01/01/2026', time: '00:05' }).success).toBe(true);
    expect(errors(schedule.safeParse({ enabled: true, date: '31/12/2025', time: '23:59' })).time).toEqual([m.scheduleTooSoon]);
  });
  it('compares in UTC across a leap day', () => {
    const schedule = createScheduleSchema({ now: at('2024-02-28T23:55:00Z') });
    expect(schedule.safeParse({ enabled: true, date: '29/02/2024', time: '00:05' }).success).toBe(true);
    expect(errors(schedule.safeParse({ enabled: true, date: '29/02/2024', time: '00:04' })).time).toEqual([m.scheduleTooSoon]);
  });
  it('gives the scheduled instant with the values', () => {
    const schedule = createScheduleSchema({ now: () => NOW });
    expect(schedule.parse({ enabled: true, date: '16/06/2025', time: '08:30' })).toEqual({
      enabled: true,
      date: '16/06/2025',
      time: '08:30',
      at: new Date('2025-06-16T08:30:00Z'),
    });
  });
});

describe('schedule fields', () => {
  const schedule = createScheduleSchema({ now: () => NOW });

  it('needs the date when enabled', () => {
    expect(errors(schedule.safeParse({ enabled: true, time: '14:00' }))).toEqual({ date: ['Please enter the date in DD/MM/YYYY format.'] });
    expect(errors(schedule.safeParse({ enabled: true, date: '31/06/2025', time: '14:00' }))).toEqual({ date: [m.scheduleDateRequired] });
  });
  it('needs the time when enabled', () => {
    expect(errors(schedule.safeParse({ enabled: true, date: '16/06/2025' }))).toEqual({
      time: ['Please enter time in 24-hour format (e.g., 14:00).'],
    });
    expect(errors(schedule.safeParse({ enabled: true, date: '16/06/2025', time: ' ' }))).toEqual({ time: [m.scheduleTimeRequired] });
  });
  it('refuses hours past 23 and minutes past 59', () => {
    for (const time of ['24:00', '12:60', '7:00']) {
      expect(errors(schedule.safeParse({ enabled: true, date: '16/06/2025', time }))).toEqual({
        time: ['Invalid time format. Please use 24-hour format (e.g., 14:00).'],
      });
    }
  });
  it('is not validated when off, and keeps its values', () => {
    expect(schedule.parse({ enabled: false, date: '99/99/9999', time: '99:99' })).toEqual({
      enabled: false,
      date: '99/99/9999',
      time: '99:99',
      at: undefined,
    });
  });
});

describe('the whole post form', () => {
  it('reports every field at once, each with its spec message', () => {
    const result = createPostSchema({ now: () => NOW }).safeParse({
      poll: { enabled: true, answers: [{ text: '' }] },
      schedule: { enabled: true, date: '15/06/2025', time: '12:05' },
    });
    expect(errors(result)).toEqual({
      title: [m.titleRequired],
      content: [m.captionRequired],
      tags: [m.tagsRequired],
      'poll.title': [m.pollTitleRequired],
      'poll.answers': [m.pollAnswersTooFew],
      'poll.answers.0.text': [m.pollAnswerRequired],
      'schedule.time': [m.scheduleTooSoon],
    });
  });
  it('takes an optional thumbnail file', () => {
    const schema = createPostSchema({ now: () => NOW });
    expect(schema.safeParse(valid).success).toBe(true);
    const thumbnail = new File([new Uint8Array([1, 2, 3])], 'cover.png', { type: 'image/png' });
    expect(schema.parse({ ...valid, thumbnail }).thumbnail).toBe(thumbnail);
  });
  it('is the same in the API body, which names its uploaded files', () => {
    const body = createPostBodySchema({ now: () => NOW }).parse({ ...valid, draft: true, mediaId: 'm1' });
    expect(body).toMatchObject({ title: 'Tour news', tags: 'post', draft: true, mediaId: 'm1', poll: { enabled: false } });
    expect(body.schedule).toEqual({ enabled: false, date: '', time: '', at: undefined });
  });
});

describe('presale details and comments', () => {
  it('needs a full ticket link', () => {
    expect(errors(PresaleSchema.safeParse({}))).toEqual({ ticketUrl: [presaleMessages.ticketUrlRequired] });
    expect(errors(PresaleSchema.safeParse({ ticketUrl: 'tickets.example' }))).toEqual({ ticketUrl: [presaleMessages.ticketUrlInvalid] });
    expect(errors(PresaleSchema.safeParse({ ticketUrl: 'javascript:alert(1)' }))).toEqual({
      ticketUrl: [presaleMessages.ticketUrlInvalid],
    });
    expect(PresaleSchema.safeParse({ ticketUrl: 'https://tickets.example/show' }).success).toBe(true);
  });
  it('ends the sale after it starts', () => {
    expect(
      errors(
        PresaleSchema.safeParse({
          ticketUrl: 'https://t.example/x',
          saleStartsAt: '2025-07-01T10:00:00Z',
          saleEndsAt: '2025-07-01T09:00:00Z',
        }),
      ),
    ).toEqual({ saleEndsAt: [presaleMessages.saleEndsBeforeStart] });
  });
  it('needs comment text, up to 1000 characters', () => {
    expect(errors(CommentSchema.safeParse({ text: '  ' }))).toEqual({ text: ['Please write a comment.'] });
    expect(CommentSchema.safeParse({ text: 'x'.repeat(1000) }).success).toBe(true);
    expect(CommentSchema.safeParse({ text: 'x'.repeat(1001) }).success).toBe(false);
  });
  it.each([
    undefined,
    '',
    '   ',
    ' Great show ',
    'x'.repeat(1000),
    ` ${'x'.repeat(1000)} `,
    'x'.repeat(1001),
    '🎸'.repeat(1000),
    '🎸'.repeat(1001),
  ])('says what CommentSchema says about a comment without zod (%#)', (text) => {
    const parsed = CommentSchema.safeParse({ text });
    expect(commentTextError(text)).toBe(parsed.success ? undefined : parsed.error.issues[0]?.message);
  });
});
