import * as z from 'zod/mini';
import { required } from './zod-required';
import { isContentType, type ContentType } from './content-types';
import { isSingleLine } from './content-text';
import {
  CAPTION_MAX,
  characterCount,
  COLLECTION_DESCRIPTION_MAX,
  COLLECTION_TITLE_MAX,
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
 * The post form with every rule and message (post, poll, tags, thumbnail, schedule).
 * The same schemas validate in the browser (conform, through parseForm), in the web actions and again in the API.
 * Written with zod/mini, as every schema a page loads (docs/architecture.md): a form posts text, so a checkbox
 * arrives as 'on' and the schema reads it (Checkbox); the api sends real booleans to the same schemas.
 */

/** A checkbox: `true` from the api, 'on' from a form; unchecked (missing) is false. */
export const CheckboxSchema = z.pipe(
  z.optional(z.union([z.boolean(), z.literal('on')])),
  z.transform((value) => value === true || value === 'on'),
);
export type CheckboxInput = z.input<typeof CheckboxSchema>;

export const PostTitleSchema = z.string(required(contentMessages.titleRequired)).check(
  z.trim(),
  z.minLength(1, { error: contentMessages.titleRequired, abort: true }),
  z.refine((title) => characterCount(title) <= POST_TITLE_MAX, { error: contentMessages.titleTooLong }),
  z.refine(isSingleLine, { error: contentMessages.titleOneLine }),
);

export const CaptionSchema = z.string(required(contentMessages.captionRequired)).check(
  z.superRefine((caption, ctx) => {
    const length = visibleTextLength(caption);
    if (length < 1) ctx.addIssue({ code: 'custom', message: contentMessages.captionRequired });
    else if (length > CAPTION_MAX) ctx.addIssue({ code: 'custom', message: contentMessages.captionTooLong });
  }),
);

/** The post's category (the form's `tags`): one of the fourteen content types. */
export const TagsSchema = z.pipe(
  z
    .string(required(contentMessages.tagsRequired))
    .check(
      z.trim(),
      z.minLength(1, { error: contentMessages.tagsRequired, abort: true }),
      z.refine(isContentType, { error: contentMessages.tagsRequired }),
    ),
  z.transform((tag) => tag as ContentType),
);

/** The thumbnail is an optional file with no rule of its own (the API checks what the file is). */
export const ThumbnailSchema = z.optional(z.file());

const PollAnswerSchema = z.object({
  id: z.optional(z.string()),
  text: z.optional(z.string()),
});

export interface ScheduleOptions {
  /** The clock the 10-minute rule and the poll's closing time read; tests pass a fixed instant. */
  now?: () => Date;
}

/**
 * When the poll's closing time is typed (DD/MM/YYYY and HH:MM in GMT, as the schedule's): undefined for neither
 * (the poll never closes), else the instant, or the field and message of what is wrong.
 */
function pollClosing(poll: { closeDate?: string; closeTime?: string }) {
  const dateText = (poll.closeDate ?? '').trim();
  const timeText = (poll.closeTime ?? '').trim();
  if (!dateText && !timeText) return undefined;
  const date = parseScheduleDate(dateText);
  const time = parseScheduleTime(timeText);
  const issues: { path: string; message: string }[] = [];
  if (!date) issues.push({ path: 'closeDate', message: contentMessages.scheduleDateRequired });
  if (!timeText) issues.push({ path: 'closeTime', message: contentMessages.scheduleTimeRequired });
  else if (!time) issues.push({ path: 'closeTime', message: contentMessages.scheduleTimeInvalid });
  return date && time ? { at: scheduleInstant(date, time), issues } : { at: undefined, issues };
}

/**
 * A poll: enabled (default false), title, answers of id and text; the rules apply only when enabled. It may also
 * have an optional closing time (closeDate, closeTime: both empty for a poll that never closes), which must be in the
 * future; `closesKept` is the closing time the poll has now (ISO, from the edit form), which an edit may keep once it
 * has passed. The output adds `closesAt`, the closing instant.
 */
export function createPollSchema({ now = () => new Date() }: ScheduleOptions = {}) {
  return z.pipe(
    z
      .object({
        enabled: CheckboxSchema,
        title: z.optional(z.string()),
        answers: z._default(z.array(PollAnswerSchema), []),
        closeDate: z.optional(z.string()),
        closeTime: z.optional(z.string()),
        closesKept: z.optional(z.string()),
      })
      .check(
        z.superRefine((poll, ctx) => {
          if (!poll.enabled) return;
          const title = (poll.title ?? '').trim();
          if (!title) ctx.addIssue({ code: 'custom', path: ['title'], message: contentMessages.pollTitleRequired });
          else if (characterCount(title) > POLL_TEXT_MAX)
            ctx.addIssue({ code: 'custom', path: ['title'], message: contentMessages.pollTitleTooLong });
          else if (!isSingleLine(title)) ctx.addIssue({ code: 'custom', path: ['title'], message: contentMessages.pollTitleOneLine });
          if (poll.answers.length < POLL_ANSWERS_MIN)
            ctx.addIssue({ code: 'custom', path: ['answers'], message: contentMessages.pollAnswersTooFew });
          else if (poll.answers.length > POLL_ANSWERS_MAX)
            ctx.addIssue({ code: 'custom', path: ['answers'], message: contentMessages.pollAnswersTooMany });
          poll.answers.forEach((answer, index) => {
            const text = (answer.text ?? '').trim();
            if (!text) ctx.addIssue({ code: 'custom', path: ['answers', index, 'text'], message: contentMessages.pollAnswerRequired });
            else if (characterCount(text) > POLL_TEXT_MAX)
              ctx.addIssue({ code: 'custom', path: ['answers', index, 'text'], message: contentMessages.pollAnswerTooLong });
            else if (!isSingleLine(text))
              ctx.addIssue({ code: 'custom', path: ['answers', index, 'text'], message: contentMessages.pollAnswerOneLine });
          });
          const closing = pollClosing(poll);
          for (const issue of closing?.issues ?? []) ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
          const kept = poll.closesKept ? Date.parse(poll.closesKept) : NaN;
          if (closing?.at && closing.at.getTime() <= now().getTime() && closing.at.getTime() !== kept)
            ctx.addIssue({ code: 'custom', path: ['closeTime'], message: contentMessages.pollClosesInPast });
        }),
      ),
    z.transform((poll) => ({
      enabled: poll.enabled,
      title: (poll.title ?? '').trim(),
      answers: poll.answers.map((answer) => ({ id: answer.id || undefined, text: (answer.text ?? '').trim() })),
      closeDate: (poll.closeDate ?? '').trim(),
      closeTime: (poll.closeTime ?? '').trim(),
      closesKept: poll.closesKept || undefined,
      closesAt: poll.enabled ? pollClosing(poll)?.at : undefined,
    })),
  );
}

export const PollSchema = createPollSchema();

export type PollInput = z.input<typeof PollSchema>;
export type PollValue = z.output<typeof PollSchema>;

/**
 * The schedule {enabled, date, time}. Switched off, the values are kept and not validated.
 * The output adds `at`, the scheduled instant, when the schedule is on and valid.
 */
export function createScheduleSchema({ now = () => new Date() }: ScheduleOptions = {}) {
  return z.pipe(
    z
      .object({
        enabled: CheckboxSchema,
        date: z.optional(z.string()),
        time: z.optional(z.string()),
      })
      .check(
        z.superRefine((schedule, ctx) => {
          if (!schedule.enabled) return;
          const date = parseScheduleDate(schedule.date);
          if (!date) ctx.addIssue({ code: 'custom', path: ['date'], message: contentMessages.scheduleDateRequired });
          const timeText = (schedule.time ?? '').trim();
          const time = parseScheduleTime(timeText);
          if (!timeText) ctx.addIssue({ code: 'custom', path: ['time'], message: contentMessages.scheduleTimeRequired });
          else if (!time) ctx.addIssue({ code: 'custom', path: ['time'], message: contentMessages.scheduleTimeInvalid });
          if (date && time && !isFarEnoughAhead(scheduleInstant(date, time), now()))
            ctx.addIssue({ code: 'custom', path: ['time'], message: contentMessages.scheduleTooSoon });
        }),
      ),
    z.transform((schedule) => {
      const date = parseScheduleDate(schedule.date);
      const time = parseScheduleTime(schedule.time);
      return {
        enabled: schedule.enabled,
        date: schedule.date ?? '',
        time: schedule.time ?? '',
        at: schedule.enabled && date && time ? scheduleInstant(date, time) : undefined,
      };
    }),
  );
}

export const ScheduleSchema = createScheduleSchema();

const isoDateTime = z.pipe(
  z.string().check(
    z.trim(),
    z.refine((value) => !Number.isNaN(Date.parse(value)), { error: presaleMessages.saleDateInvalid }),
  ),
  z.transform((value) => new Date(value)),
);

/** What a fan needs to act on a ticket presale: where to buy, and when the presale opens and closes (ISO 8601). */
export const PresaleSchema = z
  .object({
    ticketUrl: z.string(required(presaleMessages.ticketUrlRequired)).check(
      z.trim(),
      z.minLength(1, { error: presaleMessages.ticketUrlRequired, abort: true }),
      z.maxLength(2000, { error: presaleMessages.ticketUrlInvalid, abort: true }),
      z.refine((value) => /^https?:\/\/[^\s/]+\.[^\s]+$/i.test(value) && URL.canParse(value), {
        error: presaleMessages.ticketUrlInvalid,
      }),
    ),
    saleStartsAt: z.nullish(isoDateTime),
    saleEndsAt: z.nullish(isoDateTime),
  })
  .check(
    z.superRefine((presale, ctx) => {
      if (presale.saleStartsAt && presale.saleEndsAt && presale.saleEndsAt <= presale.saleStartsAt)
        ctx.addIssue({ code: 'custom', path: ['saleEndsAt'], message: presaleMessages.saleEndsBeforeStart });
    }),
  );

type PostOutputs = {
  poll: z.output<ReturnType<typeof createPollSchema>>;
  schedule: z.output<ReturnType<typeof createScheduleSchema>>;
};

/** A scheduled post's poll closes after the post comes out (the schedule's own rules say when that is). */
export function pollClosesAfterPublication(
  post: PostOutputs,
  ctx: { addIssue(issue: { code: 'custom'; path: string[]; message: string }): void },
) {
  const { poll, schedule } = post;
  if (poll.enabled && poll.closesAt && schedule.at && poll.closesAt.getTime() <= schedule.at.getTime())
    ctx.addIssue({ code: 'custom', path: ['poll', 'closeTime'], message: contentMessages.pollClosesBeforePublish });
}

function postShape(options: ScheduleOptions) {
  return {
    title: PostTitleSchema,
    content: CaptionSchema,
    tags: TagsSchema,
    poll: z.prefault(createPollSchema(options), { enabled: false, answers: [] }),
    schedule: z.prefault(createScheduleSchema(options), { enabled: false }),
  };
}

/** The post form as the web sends it (the thumbnail is the uploaded file). */
export function createPostSchema(options: ScheduleOptions = {}) {
  return z.object({ ...postShape(options), thumbnail: ThumbnailSchema }).check(z.superRefine(pollClosesAfterPublication));
}

export const PostSchema = createPostSchema();

/** An id of an uploaded file (POST /media), absent or null when there is none. */
const MediaIdSchema = z.nullish(z.string().check(z.trim(), z.minLength(1), z.maxLength(100)));

/** The same rules as the API reads them: the files arrive first through POST /media, so the body names them. */
export function createPostBodySchema(options: ScheduleOptions = {}) {
  return z
    .object({
      ...postShape(options),
      draft: z._default(z.boolean(), false),
      thumbnailId: MediaIdSchema,
      mediaId: MediaIdSchema,
      presale: z.nullish(PresaleSchema),
    })
    .check(z.superRefine(pollClosesAfterPublication));
}

export type PostValue = z.output<ReturnType<typeof createPostSchema>>;
export type PostBody = z.input<ReturnType<typeof createPostBodySchema>>;
export type PostBodyValue = z.output<ReturnType<typeof createPostBodySchema>>;

/** A collection: its title and description, an optional cover image and its items in the artist's order. */
export const CollectionSchema = z.object({
  title: z.string(required(interactionMessages.collectionTitleRequired)).check(
    z.trim(),
    z.minLength(1, { error: interactionMessages.collectionTitleRequired, abort: true }),
    z.refine((title) => characterCount(title) <= COLLECTION_TITLE_MAX, { error: interactionMessages.collectionTitleTooLong }),
    z.refine(isSingleLine, { error: interactionMessages.collectionTitleOneLine }),
  ),
  description: z._default(
    z.string().check(
      z.trim(),
      z.refine((text) => characterCount(text) <= COLLECTION_DESCRIPTION_MAX, {
        error: interactionMessages.collectionDescriptionTooLong,
      }),
    ),
    '',
  ),
  coverId: MediaIdSchema,
  itemIds: z.optional(z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))).check(z.maxLength(1000))),
});
