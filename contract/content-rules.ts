import { characterCount } from './content-text';

/**
 * The rules of the post form that pages need without zod: messages, limits, the visible-text counter
 * (from content-text.ts) and the schedule's date and time helpers. content-schemas.ts builds the zod schemas
 * from them (and re-exports them), so the browser of a page that only shows content does not download zod.
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
  titleOneLine: 'Please keep the title on one line, without tabs or other control characters.',
  pollTitleOneLine: 'Please keep the question on one line, without tabs or other control characters.',
  pollAnswerOneLine: 'Please keep each answer on one line, without tabs or other control characters.',
  captionRequired: 'Please enter a caption for your post.',
  captionTooLong: 'Caption is too long. Please shorten it to stay within the character limit.',
  tagsRequired: 'Please select a category for your post.',
  scheduleDateRequired: 'Please enter the date in DD/MM/YYYY format.',
  scheduleTimeRequired: 'Please enter time in 24-hour format (e.g., 14:00).',
  scheduleTimeInvalid: 'Invalid time format. Please use 24-hour format (e.g., 14:00).',
  scheduleTooSoon: 'Scheduled time and date must be at least 10 minutes in the future.',
  pollClosesInPast: 'Please choose a closing time in the future.',
  pollClosesBeforePublish: 'Please choose a closing time after the post is published.',
} as const;

/** The post form's limits: characters, poll answers and minutes. */
export const POLL_TEXT_MAX = 50;
export const POLL_ANSWERS_MIN = 2;
export const POLL_ANSWERS_MAX = 20;
export const POST_TITLE_MAX = 100;
export const CAPTION_MAX = 4000;
export const SCHEDULE_MIN_LEAD_MINUTES = 10;
export const SCHEDULE_DEFAULT_LEAD_MINUTES = 30;

export { characterCount, visibleText, visibleTextLength } from './content-text';

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
 * DD/MM/YYYY: digits only, two-digit day and month, four-digit year; month 1–12, day 1–31,
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

/** HH:MM, 24-hour: two digits each, hours 0–23, minutes 0–59. Anything else is undefined. */
export function parseScheduleTime(text: string | undefined): ClockTime | undefined {
  const match = /^(\d{2}):(\d{2})$/.exec((text ?? '').trim());
  if (!match) return undefined;
  const [hours, minutes] = [Number(match[1]), Number(match[2])];
  if (hours > 23 || minutes > 59) return undefined;
  return { hours, minutes };
}

/** The instant a date and time name in UTC (the widget's time is GMT). */
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

/** Switching the schedule on with no values yet proposes 30 minutes from now, in UTC. */
export function defaultSchedule(now: Date = new Date()) {
  const at = new Date(now.getTime() + SCHEDULE_DEFAULT_LEAD_MINUTES * 60_000);
  return { date: formatScheduleDate(at), time: formatScheduleTime(at) };
}

/** Whether a poll closing at `closesAt` (ISO or Date; none: never) has closed at `now`. */
export function isPollClosed(closesAt: string | Date | null | undefined, now: Date = new Date()) {
  return closesAt != null && new Date(closesAt).getTime() <= now.getTime();
}

/** A schedule must be at least 10 minutes after now (exactly 10 minutes is accepted). */
export function isFarEnoughAhead(at: Date, now: Date) {
  return at.getTime() - now.getTime() >= SCHEDULE_MIN_LEAD_MINUTES * 60_000;
}

export const presaleMessages = {
  ticketUrlRequired: 'Please enter the link where fans buy tickets.',
  ticketUrlInvalid: 'Please enter a full ticket link starting with https://.',
  saleDateInvalid: 'Please enter a valid date and time.',
  saleEndsBeforeStart: 'The presale must end after it starts.',
} as const;

export const COMMENT_MAX = 1000;

/**
 * What is wrong with a comment's text, or undefined when it may be posted: the rules of CommentSchema without zod, so
 * the item page checks comments in the browser without shipping zod (tests/unit/content-validation.test.ts holds
 * the two to the same answers).
 */
export function commentTextError(text: string | undefined): string | undefined {
  const trimmed = (text ?? '').trim();
  if (!trimmed) return interactionMessages.commentRequired;
  if (characterCount(trimmed) > COMMENT_MAX) return interactionMessages.commentTooLong;
  return undefined;
}
export const COLLECTION_TITLE_MAX = 100;
export const COLLECTION_DESCRIPTION_MAX = 1000;

/** What a vote is told (the poll card's form and POST and DELETE /polls/{id}/vote). */
export const pollMessages = {
  answerRequired: 'Please choose an answer.',
  closed: 'This poll has closed, so votes can no longer be cast or changed.',
  ownPoll: "Artists can't vote in their own polls.",
  notFound: 'This poll could not be found.',
} as const;

export const interactionMessages = {
  commentRequired: 'Please write a comment.',
  commentTooLong: 'Your comment is too long. Please keep it to 1000 characters.',
  collectionTitleRequired: 'Please enter a title for your collection.',
  collectionTitleTooLong: 'Title is too long. Please shorten it to stay within the character limit.',
  collectionTitleOneLine: 'Please keep the title on one line, without tabs or other control characters.',
  collectionDescriptionTooLong: 'Description is too long. Please shorten it to stay within the character limit.',
} as const;
