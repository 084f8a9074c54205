import type { Submission } from '@conform-to/react';
import {
  redirect,
  unstable_parseMultipartFormData,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type UploadHandlerPart,
} from '@remix-run/node';
import { randomUUID } from 'node:crypto';
import { formatScheduleDate, formatScheduleTime } from '#contract/content-rules';
import type { PostFormDefaults } from '~/components/post-form';
import { apiFor, HttpError, isHttpError, type ApiClient } from './api.server';
import { invariantResponse, requireOwnArtist } from './auth.server';
import { getContent, type MediaItem, type MediaKind, type OwnContentItem } from './content.server';
import {
  createEditFormSchema,
  createPostFormSchema,
  formKindFor,
  isoToGmtInput,
  postBody,
  type PostFormKind,
  type PostFormValue,
} from './content-form';
import { parseGuardedForm, readFormData, unreadableForm } from './form-guard.server';
import { formReply } from './form-reply.server';

/**
 * The api calls behind the artist's creation pages (docs/content.md): streaming the browser's files to
 * POST /media, and creating, changing and deleting the artist's own items (reading them is content.server.ts's).
 */

/** What each file field accepts: one kind, or (a vault item) audio or video. */
export type FileRule = MediaKind | 'audio-or-video';

export interface Upload {
  id: string;
  name: string;
  kind: MediaKind;
}

export interface PostFormRead {
  formData: FormData;
  uploads: Record<string, Upload>;
  uploadErrors: Record<string, string[]>;
}

/** A text field of the form is small; anything bigger than this is not from our pages. */
const MAX_TEXT_PART_BYTES = 1_000_000;

/**
 * Reads a multipart post form. Text fields are kept; each chosen file is streamed, as it arrives from the browser,
 * to POST /media (never held whole in memory: a vault video can be 4 GB). The file field is replaced by the new
 * media's id in `{field}Id` and its name in `{field}Name`; a refused file leaves its message in uploadErrors.
 * Files in fields the page does not expect are drained and dropped.
 */
export async function readPostForm(api: ApiClient, request: Request, rules: Record<string, FileRule>): Promise<PostFormRead> {
  const uploads: Record<string, Upload> = {};
  const uploadErrors: Record<string, string[]> = {};
  let formData: FormData;
  try {
    formData = await unstable_parseMultipartFormData(request, async (part) => {
      if (part.filename === undefined) return readText(part);
      const rule = rules[part.name];
      if (!rule || !part.filename) {
        await drain(part.data[Symbol.asyncIterator]());
        return undefined;
      }
      const result = await streamToMedia(api, part, rule);
      if ('error' in result) uploadErrors[part.name] = [result.error];
      else uploads[part.name] = result;
      return undefined;
    });
  } catch (error) {
    // A body that is not the multipart it says it is, or breaks off: the client's mistake, not a 500.
    if (error instanceof Response || isHttpError(error)) throw error;
    throw unreadableForm();
  }
  for (const [field, upload] of Object.entries(uploads)) {
    formData.set(`${field}Id`, upload.id);
    formData.set(`${field}Name`, upload.name);
  }
  return { formData, uploads, uploadErrors };
}

async function readText(part: UploadHandlerPart) {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of part.data) {
    size += chunk.byteLength;
    if (size > MAX_TEXT_PART_BYTES) throw new Response('Payload too large', { status: 413 });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function drain(iterator: AsyncIterator<Uint8Array>) {
  for (;;) {
    const next = await iterator.next();
    if (next.done) return;
  }
}

const quoted = (text: string) => text.replace(/["\\\r\n]/g, '_');

/**
 * Pipes one file part into POST /media as a multipart body of its own, streamed through the api client. The api
 * sniffs the content, checks the size and keeps nothing of a refused or broken upload.
 */
async function streamToMedia(api: ApiClient, part: UploadHandlerPart, rule: FileRule): Promise<Upload | { error: string }> {
  const iterator = part.data[Symbol.asyncIterator]();
  const boundary = `----stagedoor-${randomUUID()}`;
  const encoder = new TextEncoder();
  const head = encoder.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted(part.filename ?? 'upload')}"\r\n` +
      `Content-Type: ${quoted(part.contentType || 'application/octet-stream')}\r\n\r\n`,
  );
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(head);
    },
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) {
        controller.enqueue(tail);
        controller.close();
      } else {
        controller.enqueue(next.value);
      }
    },
  });
  let media: MediaItem;
  try {
    const answer = await api.upload<{ data: MediaItem }>('/media', body, `multipart/form-data; boundary=${boundary}`, {
      params: { kind: rule === 'audio-or-video' ? undefined : rule },
      // A refused file is the field's message; a refused session or page is the client's to answer.
      handle: [400, 413, 415, 422],
      deadlineMs: 30 * 60_000,
    });
    media = answer.data;
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return { error: error.fieldErrors.file?.[0] ?? error.body?.message ?? 'This file could not be uploaded. Please try again.' };
  } finally {
    // Whatever the api did with it, the browser's part must be read to its end for the next field to come.
    await drain(iterator).catch(() => undefined);
  }
  if (rule === 'audio-or-video' && media.kind === 'image') {
    await deleteMedia(api, media._id);
    return { error: "This file type isn't supported. Upload an MP3, M4A, AAC, WAV, OGG or FLAC audio file, or an MP4, MOV or WebM video." };
  }
  return { id: media._id, name: part.filename ?? '', kind: media.kind };
}

/** Removes an upload that no item uses (the api refuses with 409 when one does, which is fine here). */
export async function deleteMedia(api: ApiClient, id: string) {
  await api.delete(`/media/${encodeURIComponent(id)}`).catch(() => undefined);
}

/**
 * The api's field errors (keyed by path, `poll.answers.0.text`) as the form's field names
 * (`poll.answers[0].text`); file ids belong to their file inputs.
 */
export function formFieldErrors(errors: Record<string, string[]>) {
  const renamed: Record<string, string[]> = {};
  for (const [path, messages] of Object.entries(errors)) {
    const name =
      path === 'thumbnailId'
        ? 'thumbnail'
        : path === 'mediaId'
          ? 'media'
          : path === 'type'
            ? 'tags'
            : path.replace(/\.(\d+)(?=\.|$)/g, '[$1]');
    renamed[name] = [...(renamed[name] ?? []), ...messages];
  }
  return renamed;
}

/** The fields each form shows (their first name segment); the api may name one a form does not have. */
const FORM_FIELDS: Record<PostFormKind, readonly string[]> = {
  text: ['title', 'content', 'tags', 'thumbnail', 'poll', 'schedule', 'presale'],
  image: ['title', 'content', 'media', 'poll', 'schedule'],
  vault: ['title', 'content', 'tags', 'media', 'thumbnail', 'poll', 'schedule'],
};

/** Field errors on the fields the form shows; the messages of any other field go to the form's alert, never lost. */
export function placeFieldErrors(kind: PostFormKind, errors: Record<string, string[]>) {
  const onForm: Record<string, string[]> = {};
  const elsewhere: string[] = [];
  for (const [name, messages] of Object.entries(errors)) {
    if (FORM_FIELDS[kind].includes(name.split(/[.[]/)[0])) onForm[name] = messages;
    else elsewhere.push(...messages);
  }
  return { onForm, elsewhere };
}

/** Where a saved item sends the artist: the success page (create-text-success) with its state. */
export function successPath(artistUsername: string, item: Pick<OwnContentItem, '_id' | 'state' | 'publishAt'>) {
  const search = new URLSearchParams({ id: item._id });
  if (item.state === 'scheduled') search.set('scheduledAt', item.publishAt);
  if (item.state === 'draft') search.set('draft', 'true');
  return `/${artistUsername}/account/create-text-success?${search}`;
}

const FILE_RULES: Record<PostFormKind, Record<string, FileRule>> = {
  text: { thumbnail: 'image' },
  image: { media: 'image' },
  vault: { thumbnail: 'image', media: 'audio-or-video' },
};

const isMultipart = (request: Request) => (request.headers.get('Content-Type') ?? '').startsWith('multipart/form-data');

/**
 * The action of the creation pages (create-text, create-image, add-to-vault): guard, stream the files to the api,
 * parse with the form's zod schema, then create the item and go to the success page (post/redirect/get).
 * Validation and api field errors come back onto the form's fields with status 400; the ids of files already
 * uploaded come back in the form's values, so they are not sent again.
 */
export async function postFormAction(args: ActionFunctionArgs, kind: PostFormKind) {
  const { request, params } = args;
  const api = apiFor(args);
  const { artist } = await requireOwnArtist(api, params.artistUsername);
  invariantResponse(isMultipart(request), 'Bad request', { status: 400 });
  const { formData, uploadErrors } = await readPostForm(api, request, FILE_RULES[kind]);
  const submission = parseGuardedForm(formData, createPostFormSchema(kind));
  if (submission.status !== 'success' || Object.keys(uploadErrors).length > 0) return refusal(submission, uploadErrors);
  return savePost(api, { artist: artist.username, kind }, submission, submission.value);
}

/** The poll's closing time as the form writes it (GMT), and as it is now, so an edit may keep it once it has passed. */
function pollClosingDefaults(closesAt: string | null) {
  if (!closesAt) return {};
  const instant = new Date(closesAt);
  return { closeDate: formatScheduleDate(instant), closeTime: formatScheduleTime(instant), closesKept: closesAt };
}

/** The item as the post form's values (strings, a checkbox as 'on'), with its files kept by id. */
function formDefaults(item: OwnContentItem): PostFormDefaults {
  // A scheduled item whose time has come is published: its old schedule no longer applies.
  const schedule = item.schedule && item.state !== 'published' ? item.schedule : undefined;
  return {
    title: item.title,
    content: item.content,
    tags: item.type,
    poll: item.poll
      ? {
          enabled: 'on',
          title: item.poll.title,
          answers: item.poll.answers.map((answer) => ({ id: answer._id, text: answer.text })),
          ...pollClosingDefaults(item.poll.closesAt),
        }
      : undefined,
    schedule: schedule ? { enabled: schedule.enabled ? 'on' : undefined, date: schedule.date, time: schedule.time } : undefined,
    presale: item.presale
      ? {
          ticketUrl: item.presale.ticketUrl,
          saleStartsAt: isoToGmtInput(item.presale.saleStartsAt),
          saleEndsAt: isoToGmtInput(item.presale.saleEndsAt),
        }
      : undefined,
    thumbnailId: item.thumbnail?._id,
    mediaId: item.media?._id,
  };
}

const STATE_LABEL = { draft: 'Draft', scheduled: 'Scheduled', published: 'Published' } as const;

/** The loader of the edit page: the item's own creation form, filled in from GET /content/{id}. */
export async function editContentLoader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const [{ artist }, item] = await Promise.all([requireOwnArtist(api, args.params.artistUsername), getContent(api, args.params.id ?? '')]);
  return {
    artist: { username: artist.username, name: artist.name },
    // The page's line under its heading: "Announcement · Draft".
    item: { id: item._id, title: item.title, summary: `${item.typeLabel} · ${STATE_LABEL[item.state]}` },
    kind: formKindFor(item.type, item.media?.kind),
    defaults: formDefaults(item),
    previews: {
      thumbnail: item.thumbnail ? { id: item.thumbnail._id, url: item.thumbnail.thumbnailUrl ?? item.thumbnail.url } : null,
      media: item.media ? { id: item.media._id, kind: item.media.kind, url: item.media.thumbnailUrl ?? item.media.url } : null,
    },
  };
}

/**
 * The action of the edit page: the item's post form (draft or publish, which replaces the item; its files streamed
 * as on the creation pages) and the delete button (a plain form), told apart by intent.
 */
export async function editContentAction(args: ActionFunctionArgs) {
  const { request, params } = args;
  const api = apiFor(args);
  const [{ artist }, item] = await Promise.all([requireOwnArtist(api, params.artistUsername), getContent(api, params.id ?? '')]);
  const kind = formKindFor(item.type, item.media?.kind);
  const { formData, uploadErrors } = isMultipart(request)
    ? await readPostForm(api, request, FILE_RULES[kind])
    : { formData: await readFormData(request), uploadErrors: {} };
  const submission = parseGuardedForm(formData, createEditFormSchema(kind));
  if (submission.status !== 'success' || Object.keys(uploadErrors).length > 0) return refusal(submission, uploadErrors);
  const value = submission.value;
  switch (value.intent) {
    case 'delete':
      await api.delete(`/content/${encodeURIComponent(item._id)}`);
      return redirect(`/${artist.username}/account/content?deleted=true`);
    case 'draft':
    case 'publish':
    case undefined:
      return savePost(api, { artist: artist.username, kind, itemId: item._id }, submission, value);
  }
}

/** A form that did not pass, with the messages of any refused file on its field. */
function refusal<Output>(submission: Submission<unknown, string[], Output>, uploadErrors: Record<string, string[]>) {
  // A form that names no intent we know is not one of our pages' forms.
  if (submission.status !== 'success' && submission.error?.intent) throw new Response('Bad request', { status: 400 });
  return formReply(submission, { fieldErrors: uploadErrors });
}

/**
 * Creates the item, or replaces `itemId` (PUT /content/{id}; poll answers keep their votes by id), and goes to the
 * success page. The api's refusal comes back on the fields the form shows, and any other message in its alert.
 */
async function savePost<Output>(
  api: ApiClient,
  page: { artist: string; kind: PostFormKind; itemId?: string },
  submission: Submission<unknown, string[], Output>,
  value: PostFormValue,
) {
  const body = postBody(page.kind, value, value.intent === 'draft');
  try {
    const answer = page.itemId
      ? await api.put<{ data: OwnContentItem }>(`/content/${encodeURIComponent(page.itemId)}`, body)
      : await api.post<{ data: OwnContentItem }>('/content', body);
    return redirect(successPath(page.artist, answer.data));
  } catch (error) {
    if (!(error instanceof HttpError) || error.status >= 500) throw error;
    const { onForm, elsewhere } = placeFieldErrors(page.kind, formFieldErrors(error.fieldErrors));
    const placed = Object.keys(onForm).length || elsewhere.length;
    return formReply(submission, placed ? { fieldErrors: onForm, formErrors: elsewhere } : { formErrors: [error.message] });
  }
}
