import * as z from 'zod/mini';
import { CONTENT_TYPES, isVaultCategory, VAULT_CATEGORIES, type ContentType } from '#contract/content-types';
import {
  CaptionSchema,
  CheckboxSchema,
  contentMessages,
  createScheduleSchema,
  createPollSchema,
  pollClosesAfterPublication,
  PostTitleSchema,
  PresaleSchema,
  formatScheduleDate,
  formatScheduleTime,
  parseScheduleDate,
  parseScheduleTime,
  TagsSchema,
  type PostBody,
  type ScheduleOptions,
} from '#contract/content-schemas';

/**
 * The artist's three creation forms (text post, image post, vault item) as the browser sends them: the post form
 * (`createPostSchema`'s fields and messages) plus the files. The same schema validates in the browser
 * (conform) and in the action. In the action each chosen file has already been streamed to POST /media, so the
 * file field is gone and its id stands in `thumbnailId` / `mediaId`; a hidden input carries that id through a
 * failed submission, so a 4 GB video is not sent twice because a title was missing.
 */
export type PostFormKind = 'text' | 'image' | 'vault';

export const postFormMessages = {
  photoRequired: 'Please add a photo.',
  mediaRequired: 'Please add an audio or video file.',
  mediaNotAudioOrVideo:
    "This file type isn't supported. Upload an MP3, M4A, AAC, WAV, OGG or FLAC audio file, or an MP4, MOV or WebM video.",
} as const;

/** A vault item's category: one of the nine. */
export const VaultCategorySchema = z
  .string({ error: (issue) => (issue.input === undefined ? contentMessages.tagsRequired : undefined) })
  .check(z.trim(), z.refine(isVaultCategory, { error: contentMessages.tagsRequired }));

/**
 * The presale's times as the form writes them, DD/MM/YYYY HH:MM as every date of the app (the schedule's too; a
 * datetime-local input showed mm/dd/yyyy in an American browser), labelled GMT, so read as UTC. The
 * YYYY-MM-DDTHH:MM of a datetime-local input is read too. Anything else goes on as typed, for the schema to refuse.
 */
export function gmtInputToIso(value: string | undefined) {
  const text = (value ?? '').trim();
  if (!text) return undefined;
  const written = /^(\d{1,2})\/(\d{1,2})\/(\d{4})[\sT,]+(\d{1,2}):(\d{2})$/.exec(text);
  if (written) {
    const [day, month, year, hour, minute] = written.slice(1).map((part) => part.padStart(2, '0'));
    // The schedule's own readers say whether it is a day (31/02 is not) and a time.
    const valid = parseScheduleDate(`${day}/${month}/${year}`) && parseScheduleTime(`${hour}:${minute}`);
    return valid ? `${year}-${month}-${day}T${hour}:${minute}Z` : text;
  }
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(text) ? `${text}Z` : text;
}

/** The other way, for an edit form: an ISO instant as DD/MM/YYYY HH:MM in GMT. */
export function isoToGmtInput(iso: string | null | undefined) {
  if (!iso) return '';
  const instant = new Date(iso);
  return `${formatScheduleDate(instant)} ${formatScheduleTime(instant)}`;
}

const PresaleFieldsSchema = z.optional(
  z.object({ ticketUrl: z.optional(z.string()), saleStartsAt: z.optional(z.string()), saleEndsAt: z.optional(z.string()) }),
);

const fileFields = {
  thumbnail: z.optional(z.file()),
  thumbnailId: z.optional(z.string()),
  thumbnailName: z.optional(z.string()),
  removeThumbnail: CheckboxSchema,
  media: z.optional(z.file()),
  mediaId: z.optional(z.string()),
  mediaName: z.optional(z.string()),
};

/**
 * What the form's submit buttons say: keep it as a draft, or publish (at the scheduled time when the schedule is on).
 * A form sent without either (conform's add and remove answer, or Enter in a field) publishes.
 */
const PostIntentSchema = z.optional(z.enum(['draft', 'publish']));

/** Every field of the three forms (the pages share one form component). */
export function createPostFormSchema(kind: PostFormKind, options: ScheduleOptions = {}) {
  return z
    .object({
      intent: PostIntentSchema,
      title: PostTitleSchema,
      content: CaptionSchema,
      tags: kind === 'text' ? TagsSchema : kind === 'vault' ? VaultCategorySchema : z.optional(z.string()),
      poll: z.prefault(createPollSchema(options), { enabled: false, answers: [] }),
      schedule: z.prefault(createScheduleSchema(options), { enabled: false }),
      presale: PresaleFieldsSchema,
      ...fileFields,
    })
    .check(
      z.superRefine((form, ctx) => {
        pollClosesAfterPublication(form, ctx);
        if (kind !== 'text' && !form.media && !form.mediaId) {
          ctx.addIssue({
            code: 'custom',
            path: ['media'],
            message: kind === 'image' ? postFormMessages.photoRequired : postFormMessages.mediaRequired,
          });
        }
        if (kind === 'text' && form.tags === 'ticketPresale') {
          const presale = z.safeParse(PresaleSchema, presaleBody(form.presale));
          for (const issue of presale.error?.issues ?? []) {
            ctx.addIssue({ code: 'custom', path: ['presale', ...issue.path.map(String)], message: issue.message });
          }
        }
      }),
    );
}

export type PostFormValue = z.output<ReturnType<typeof createPostFormSchema>>;
export type PostFormInput = z.input<ReturnType<typeof createPostFormSchema>>;

/** The edit page's two forms, told apart by intent: the item's post form (draft or publish), or its delete button. */
export function createEditFormSchema(kind: PostFormKind, options: ScheduleOptions = {}) {
  return z.discriminatedUnion('intent', [createPostFormSchema(kind, options), z.object({ intent: z.literal('delete') })]);
}

/** The poll as the api reads it: what was typed (the api reads it with the same schema). */
function pollBody(poll: PostFormValue['poll']): PostBody['poll'] {
  const { enabled, title, answers, closeDate, closeTime, closesKept } = poll;
  return { enabled, title, answers, closeDate, closeTime, closesKept };
}

function presaleBody(presale: PostFormValue['presale']) {
  return {
    ticketUrl: presale?.ticketUrl ?? '',
    saleStartsAt: gmtInputToIso(presale?.saleStartsAt) ?? null,
    saleEndsAt: gmtInputToIso(presale?.saleEndsAt) ?? null,
  };
}

/** The category a form saves: the chosen one, or photo for an image post. */
export function categoryOf(kind: PostFormKind, value: Pick<PostFormValue, 'tags'>): ContentType {
  return kind === 'image' ? 'photo' : (value.tags as ContentType);
}

/** The body of POST /content and PUT /content/{id} (docs/content.md) for a validated form. */
export function postBody(kind: PostFormKind, value: PostFormValue, draft: boolean): PostBody {
  const tags = categoryOf(kind, value);
  return {
    title: value.title,
    content: value.content,
    tags,
    poll: value.poll.enabled ? pollBody(value.poll) : { enabled: false, answers: [] },
    schedule: { enabled: value.schedule.enabled, date: value.schedule.date, time: value.schedule.time },
    draft,
    thumbnailId: kind === 'image' || value.removeThumbnail ? null : value.thumbnailId || null,
    mediaId: kind === 'text' ? null : value.mediaId || null,
    presale: tags === 'ticketPresale' ? presaleBody(value.presale) : null,
  };
}

/**
 * Which form edits an item: a photo the image form, an item with audio or video the vault form, anything else (a
 * text post, also one in a vault category such as a written Tour Diary) the text form, which needs no file.
 */
export function formKindFor(type: ContentType, mediaKind?: 'image' | 'audio' | 'video' | null): PostFormKind {
  if (type === 'photo') return 'image';
  return isVaultCategory(type) && (mediaKind === 'audio' || mediaKind === 'video') ? 'vault' : 'text';
}

/** The categories a form offers: a photo is posted through the image form, a vault file is in a vault category. */
export function categoriesFor(kind: Exclude<PostFormKind, 'image'>): readonly ContentType[] {
  return kind === 'vault' ? VAULT_CATEGORIES : CONTENT_TYPES.filter((type) => type !== 'photo');
}
