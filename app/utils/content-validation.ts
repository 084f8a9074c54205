import * as z from 'zod';
import { isContentType, type ContentType } from './content-types';

/**
 * The post form of spec §3 with every rule and message of spec §5 (post, poll, tags, thumbnail, schedule).
 * The same schemas validate in the browser (conform), in the web actions and again in the API.
 */
export const contentMessages = {
  pollTitleRequired: 'Please enter a question for your poll.',
  pollTitleTooLong: 'Title is too long. Please shorten it to stay within the character limit.',
  pollAnswersTooFew: 'Please provide at least two answers for your poll.',
  pollAnswersTooMany: 'A poll can have at most 20 answers.',
  pollAnswerRequired: 'Please fill in all answer fields.',
  pollAnswerTooLong: 'Answer is too long. Please shorten it to stay within the character limit.',
  titleRequired: 'Please enter a title for your post.',
  titleTooLong: 'Title is too long. Please shorten it to stay within the character limit.',
  captionRequired: 'Please enter a caption for your post.',
  captionTooLong: 'Caption is too long. Please shorten it to stay within the character limit.',
  tagsRequired: 'Please select a category for your post.',
  scheduleDateRequired: 'Please enter the date in DD/MM/YYYY format.',
  scheduleTimeRequired: 'Please enter time in 24-hour format (e.g., 14:00).',
  scheduleTimeInvalid: 'Invalid time format. Please use 24-hour format (e.g., 14:00).',
  scheduleTooSoon: 'Scheduled time and date must be at least 10 minutes in the future.',
} as const;

/** Spec §9. */
export const POLL_TEXT_MAX = 50;
export const POLL_ANSWERS_MIN = 2;
export const POLL_ANSWERS_MAX = 20;
export const POST_TITLE_MAX = 100;
export const CAPTION_MAX = 4000;
export const SCHEDULE_MIN_LEAD_MINUTES = 10;
export const SCHEDULE_DEFAULT_LEAD_MINUTES = 30;

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

/** The number the 4000-character caption limit counts (spec §5). */
export function visibleTextLength(html: string) {
  return characterCount(visibleText(html));
}

/** Makes undefined (a field the form left empty) fail with the field's "required" message, not zod's. */
const required = (message: string) => ({ error: (issue: { input: unknown }) => (issue.input === undefined ? message : undefined) });

export const PostTitleSchema = z
  .string(required(contentMessages.titleRequired))
  .trim()
  .min(1, { error: contentMessages.titleRequired, abort: true })
  .refine((title) => characterCount(title) <= POST_TITLE_MAX, { error: contentMessages.titleTooLong });

export const CaptionSchema = z.string(required(contentMessages.captionRequired)).superRefine((caption, ctx) => {
  const length = visibleTextLength(caption);
  if (length < 1) ctx.addIssue({ code: 'custom', message: contentMessages.captionRequired });
  else if (length > CAPTION_MAX) ctx.addIssue({ code: 'custom', message: contentMessages.captionTooLong });
});

/** The post's category (spec §3 `tags`): one of the fourteen content types. */
export const TagsSchema = z
  .string(required(contentMessages.tagsRequired))
  .trim()
  .min(1, { error: contentMessages.tagsRequired, abort: true })
  .refine(isContentType, { error: contentMessages.tagsRequired })
  .transform((tag) => tag as ContentType);

/** Spec §5: the thumbnail is an optional file with no rule of its own (the API checks what the file is). */
export const ThumbnailSchema = z.file().optional();

const PollAnswerSchema = z.object({
  id: z.string().optional(),
  text: z.string().optional(),
});

/** Spec §3 Poll: enabled (default false), title, answers of id and text. The rules apply only when enabled. */
export const PollSchema = z
  .object({
    enabled: z.boolean().default(false),
    title: z.string().optional(),
    answers: z.array(PollAnswerSchema).default([]),
  })
  .superRefine((poll, ctx) => {
    if (!poll.enabled) return;
    const title = (poll.title ?? '').trim();
    if (!title) ctx.addIssue({ code: 'custom', path: ['title'], message: contentMessages.pollTitleRequired });
    else if (characterCount(title) > POLL_TEXT_MAX)
      ctx.addIssue({ code: 'custom', path: ['title'], message: contentMessages.pollTitleTooLong });
    if (poll.answers.length < POLL_ANSWERS_MIN)
      ctx.addIssue({ code: 'custom', path: ['answers'], message: contentMessages.pollAnswersTooFew });
    else if (poll.answers.length > POLL_ANSWERS_MAX)
      ctx.addIssue({ code: 'custom', path: ['answers'], message: contentMessages.pollAnswersTooMany });
    poll.answers.forEach((answer, index) => {
      const text = (answer.text ?? '').trim();
      if (!text) ctx.addIssue({ code: 'custom', path: ['answers', index, 'text'], message: contentMessages.pollAnswerRequired });
      else if (characterCount(text) > POLL_TEXT_MAX)
        ctx.addIssue({ code: 'custom', path: ['answers', index, 'text'], message: contentMessages.pollAnswerTooLong });
    });
  })
  .transform((poll) => ({
    enabled: poll.enabled,
    title: (poll.title ?? '').trim(),
    answers: poll.answers.map((answer) => ({ id: answer.id || undefined, text: (answer.text ?? '').trim() })),
  }));

export type PollInput = z.input<typeof PollSchema>;
export type PollValue = z.output<typeof PollSchema>;

export interface CalendarDate {
  day: number;
  month: number;
  year: number;
}

export interface ClockTime {
  hours: number;
  minutes: number;
}

export function isLeapYear(year: number) {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number) {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

/**
 * DD/MM/YYYY (spec §5): digits only, two-digit day and month, four-digit year; month 1–12, day 1–31,
 * year 1000–9999, and a real calendar date (no 31/04, no 29/02 outside leap years). Anything else is undefined.
 */
export function parseScheduleDate(text: string | undefined): CalendarDate | undefined {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec((text ?? '').trim());
  if (!match) return undefined;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > 31 || year < 1000 || year > 9999) return undefined;
  if (day > daysInMonth(year, month)) return undefined;
  return { day, month, year };
}

/** HH:MM, 24-hour (spec §5): two digits each, hours 0–23, minutes 0–59. Anything else is undefined. */
export function parseScheduleTime(text: string | undefined): ClockTime | undefined {
  const match = /^(\d{2}):(\d{2})$/.exec((text ?? '').trim());
  if (!match) return undefined;
  const [hours, minutes] = [Number(match[1]), Number(match[2])];
  if (hours > 23 || minutes > 59) return undefined;
  return { hours, minutes };
}

/** The instant a date and time name in UTC (the widget's time is GMT, spec §2). */
export function scheduleInstant(date: CalendarDate, time: ClockTime) {
  const instant = new Date(Date.UTC(date.year, date.month - 1, date.day, time.hours, time.minutes));
  // Date.UTC maps years 0–99 to 1900+; set the full year explicitly so every year of 1000–9999 is exact.
  instant.setUTCFullYear(date.year);
  return instant;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

export function formatScheduleDate(instant: Date) {
  return `${pad(instant.getUTCDate())}/${pad(instant.getUTCMonth() + 1)}/${pad(instant.getUTCFullYear(), 4)}`;
}

export function formatScheduleTime(instant: Date) {
  return `${pad(instant.getUTCHours())}:${pad(instant.getUTCMinutes())}`;
}

/** Spec §4: switching the schedule on with no values yet proposes 30 minutes from now, in UTC. */
export function defaultSchedule(now: Date = new Date()) {
  const at = new Date(now.getTime() + SCHEDULE_DEFAULT_LEAD_MINUTES * 60_000);
  return { date: formatScheduleDate(at), time: formatScheduleTime(at) };
}

/** Spec §5: at least 10 minutes after now (exactly 10 minutes is accepted). */
export function isFarEnoughAhead(at: Date, now: Date) {
  return at.getTime() - now.getTime() >= SCHEDULE_MIN_LEAD_MINUTES * 60_000;
}

export interface ScheduleOptions {
  /** The clock the 10-minute rule reads; tests pass a fixed instant. */
  now?: () => Date;
}

/**
 * Spec §3 schedule {enabled, date, time}. Switched off, the values are kept and not validated (spec §4).
 * The output adds `at`, the scheduled instant, when the schedule is on and valid.
 */
export function createScheduleSchema({ now = () => new Date() }: ScheduleOptions = {}) {
  return z
    .object({
      enabled: z.boolean().default(false),
      date: z.string().optional(),
      time: z.string().optional(),
    })
    .superRefine((schedule, ctx) => {
      if (!schedule.enabled) return;
      const date = parseScheduleDate(schedule.date);
      if (!date) ctx.addIssue({ code: 'custom', path: ['date'], message: contentMessages.scheduleDateRequired });
      const timeText = (schedule.time ?? '').trim();
      const time = parseScheduleTime(timeText);
      if (!timeText) ctx.addIssue({ code: 'custom', path: ['time'], message: contentMessages.scheduleTimeRequired });
      else if (!time) ctx.addIssue({ code: 'custom', path: ['time'], message: contentMessages.scheduleTimeInvalid });
      if (date && time && !isFarEnoughAhead(scheduleInstant(date, time), now()))
        ctx.addIssue({ code: 'custom', path: ['time'], message: contentMessages.scheduleTooSoon });
    })
    .transform((schedule) => {
      const date = parseScheduleDate(schedule.date);
      const time = parseScheduleTime(schedule.time);
      return {
        enabled: schedule.enabled,
        date: schedule.date ?? '',
        time: schedule.time ?? '',
        at: schedule.enabled && date && time ? scheduleInstant(date, time) : undefined,
      };
    });
}

export const ScheduleSchema = createScheduleSchema();

export const presaleMessages = {
  ticketUrlRequired: 'Please enter the link where fans buy tickets.',
  ticketUrlInvalid: 'Please enter a full ticket link starting with https://.',
  saleDateInvalid: 'Please enter a valid date and time.',
  saleEndsBeforeStart: 'The presale must end after it starts.',
} as const;

const isoDateTime = z
  .string()
  .trim()
  .refine((value) => !Number.isNaN(Date.parse(value)), { error: presaleMessages.saleDateInvalid })
  .transform((value) => new Date(value));

/** What a fan needs to act on a ticket presale: where to buy, and when the presale opens and closes (ISO 8601). */
export const PresaleSchema = z
  .object({
    ticketUrl: z
      .string(required(presaleMessages.ticketUrlRequired))
      .trim()
      .min(1, { error: presaleMessages.ticketUrlRequired, abort: true })
      .max(2000, { error: presaleMessages.ticketUrlInvalid, abort: true })
      .refine((value) => /^https?:\/\/[^\s/]+\.[^\s]+$/i.test(value) && URL.canParse(value), {
        error: presaleMessages.ticketUrlInvalid,
      }),
    saleStartsAt: isoDateTime.nullish(),
    saleEndsAt: isoDateTime.nullish(),
  })
  .superRefine((presale, ctx) => {
    if (presale.saleStartsAt && presale.saleEndsAt && presale.saleEndsAt <= presale.saleStartsAt)
      ctx.addIssue({ code: 'custom', path: ['saleEndsAt'], message: presaleMessages.saleEndsBeforeStart });
  });

function postShape(options: ScheduleOptions) {
  return {
    title: PostTitleSchema,
    content: CaptionSchema,
    tags: TagsSchema,
    poll: PollSchema.prefault({ enabled: false, answers: [] }),
    schedule: createScheduleSchema(options).prefault({ enabled: false }),
  };
}

/** The post form of spec §3 as the web sends it (the thumbnail is the uploaded file). */
export function createPostSchema(options: ScheduleOptions = {}) {
  return z.object({ ...postShape(options), thumbnail: ThumbnailSchema });
}

export const PostSchema = createPostSchema();

/** The same rules as the API reads them: the files arrive first through POST /media, so the body names them. */
export function createPostBodySchema(options: ScheduleOptions = {}) {
  return z.object({
    ...postShape(options),
    draft: z.boolean().default(false),
    thumbnailId: z.string().trim().min(1).max(100).nullish(),
    mediaId: z.string().trim().min(1).max(100).nullish(),
    presale: PresaleSchema.nullish(),
  });
}

export type PostValue = z.output<ReturnType<typeof createPostSchema>>;
export type PostBody = z.input<ReturnType<typeof createPostBodySchema>>;
export type PostBodyValue = z.output<ReturnType<typeof createPostBodySchema>>;

export const COMMENT_MAX = 1000;
export const COLLECTION_TITLE_MAX = 100;
export const COLLECTION_DESCRIPTION_MAX = 1000;

export const interactionMessages = {
  commentRequired: 'Please write a comment.',
  commentTooLong: 'Your comment is too long. Please keep it to 1000 characters.',
  collectionTitleRequired: 'Please enter a title for your collection.',
  collectionTitleTooLong: 'Title is too long. Please shorten it to stay within the character limit.',
  collectionDescriptionTooLong: 'Description is too long. Please shorten it to stay within the character limit.',
} as const;

/** A comment on an item: plain text, shown as text (never as HTML). */
export const CommentSchema = z.object({
  text: z
    .string(required(interactionMessages.commentRequired))
    .trim()
    .min(1, { error: interactionMessages.commentRequired, abort: true })
    .refine((text) => characterCount(text) <= COMMENT_MAX, { error: interactionMessages.commentTooLong }),
});

/** A collection: its title and description, an optional cover image and its items in the artist's order. */
export const CollectionSchema = z.object({
  title: z
    .string(required(interactionMessages.collectionTitleRequired))
    .trim()
    .min(1, { error: interactionMessages.collectionTitleRequired, abort: true })
    .refine((title) => characterCount(title) <= COLLECTION_TITLE_MAX, { error: interactionMessages.collectionTitleTooLong }),
  description: z
    .string()
    .trim()
    .refine((text) => characterCount(text) <= COLLECTION_DESCRIPTION_MAX, {
      error: interactionMessages.collectionDescriptionTooLong,
    })
    .default(''),
  coverId: z.string().trim().min(1).max(100).nullish(),
  itemIds: z.array(z.string().trim().min(1).max(100)).max(1000).optional(),
});
