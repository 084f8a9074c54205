import * as z from 'zod';
import { isContentType, type ContentType } from './content-types';
import {
  CAPTION_MAX,
  characterCount,
  COLLECTION_DESCRIPTION_MAX,
  COLLECTION_TITLE_MAX,
  COMMENT_MAX,
  contentMessages,
  interactionMessages,
  isFarEnoughAhead,
  parseScheduleDate,
  parseScheduleTime,
  POLL_ANSWERS_MAX,
  POLL_ANSWERS_MIN,
  POLL_TEXT_MAX,
  POST_TITLE_MAX,
  presaleMessages,
  scheduleInstant,
  visibleTextLength,
} from './content-rules';

/** The rules themselves, their messages and the date helpers live in content-rules.ts (no zod, for the pages). */
export * from './content-rules';

/**
 * The post form of spec §3 with every rule and message of spec §5 (post, poll, tags, thumbnail, schedule).
 * The same schemas validate in the browser (conform), in the web actions and again in the API.
 */
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
