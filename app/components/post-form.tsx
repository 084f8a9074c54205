import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { Form, Link, useNavigation } from '@remix-run/react';
import { CONTENT_TYPE_LABELS } from '#contract/content-types';
import { categoriesFor, createPostFormSchema, type PostFormInput, type PostFormKind } from '~/utils/content-form';
import { parseForm } from '~/utils/form-schema';
import { IMAGE_ACCEPT, InputField, SelectField } from './forms';
import { FormAlert, Spinner } from './form-parts';
import { PollEditor } from './poll-editor';
import { AttachedFileField, PresaleFields, Section, type FilePreview } from './post-form-fields';
import { RichTextEditor } from './rich-text-editor';
import { ScheduleWidget } from './schedule-widget';
import { useHydrated } from './use-hydrated';

/** Form values as strings, the way conform keeps them (a checkbox is 'on'). */
export interface PostFormDefaults {
  title?: string;
  content?: string;
  tags?: string;
  poll?: {
    enabled?: string;
    title?: string;
    answers?: { id?: string; text?: string }[];
    closeDate?: string;
    closeTime?: string;
    closesKept?: string;
  };
  schedule?: { enabled?: string; date?: string; time?: string };
  presale?: { ticketUrl?: string; saleStartsAt?: string; saleEndsAt?: string };
  thumbnailId?: string;
  thumbnailName?: string;
  mediaId?: string;
  mediaName?: string;
}

/** What an edit form shows of the files the item has now. */
export interface FilePreviews {
  thumbnail?: { id: string; url: string } | null;
  media?: FilePreview | null;
}

const MEDIA_ACCEPT = 'audio/*,video/mp4,video/quicktime,video/webm,.mp3,.m4a,.aac,.wav,.ogg,.oga,.opus,.flac,.mp4,.mov,.webm';
const IMAGE_HINT = 'JPEG, PNG, WebP or GIF, up to 15 MB.';

/**
 * A poll starts with its two answer inputs, so that it can be filled in without JavaScript (which cannot add them
 * when the poll is ticked); they are sent and ignored while the poll is off.
 */
function withPollAnswers(defaults: PostFormDefaults = {}): PostFormDefaults {
  if (defaults.poll?.answers?.length) return defaults;
  return { ...defaults, poll: { ...defaults.poll, answers: [{ text: '' }, { text: '' }] } };
}

/**
 * The one form behind create-text, create-image, add-to-vault and the edit page: plain multipart HTML that works
 * without JavaScript (the action validates and answers), validated in the browser with the same zod schema when
 * JavaScript runs. Two submit buttons say what to do: save as a draft, or publish (at the scheduled time if the
 * schedule is on).
 */
export function PostForm({
  kind,
  defaultValue,
  lastResult,
  previews = {},
  cancelTo,
}: {
  kind: PostFormKind;
  defaultValue?: PostFormDefaults;
  lastResult?: SubmissionResult<string[]>;
  previews?: FilePreviews;
  cancelTo: string;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const pendingIntent = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null;
  const sending = pendingIntent === 'draft' || pendingIntent === 'publish';
  const schema = createPostFormSchema(kind);
  const [form, fields] = useForm<PostFormInput>({
    id: `post-${kind}`,
    lastResult,
    defaultValue: withPollAnswers(defaultValue),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseForm(formData, schema),
  });

  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-8">
      {/* Enter in a field presses a form's first submit button, here the poll's "Remove" or "Add answer" (and a
          Publish would tell every fan): this disabled one comes first, so Enter sends nothing. */}
      <button type="submit" disabled hidden aria-hidden="true" tabIndex={-1} />
      <FormAlert id={form.errorId} errors={form.errors} />
      <Section>
        <InputField field={fields.title} label="Title" />
        <RichTextEditor field={fields.content} label="Caption" />
        {kind !== 'image' ? (
          <SelectField
            field={fields.tags}
            label="Category"
            placeholder="Choose a category"
            options={categoriesFor(kind).map((type) => ({ value: type, label: CONTENT_TYPE_LABELS[type] }))}
          />
        ) : null}
      </Section>

      {/* The category as chosen so far: conform follows the select as it changes. */}
      {kind === 'text' && (!hydrated || fields.tags.value === 'ticketPresale') ? (
        <Section title="Ticket presale" hint={hydrated ? undefined : 'Only for the Ticket Presale category.'}>
          <PresaleFields field={fields.presale} />
        </Section>
      ) : null}

      <Section title={kind === 'vault' ? 'Files' : kind === 'text' ? 'Thumbnail' : undefined}>
        {kind !== 'text' ? (
          <AttachedFileField
            label={kind === 'image' ? 'Photo' : 'Audio or video file'}
            hint={
              kind === 'image' ? IMAGE_HINT : 'Audio: MP3, M4A, AAC, WAV, OGG or FLAC, up to 200 MB. Video: MP4, MOV or WebM, up to 4 GB.'
            }
            file={fields.media}
            keptId={fields.mediaId}
            keptName={fields.mediaName}
            accept={kind === 'image' ? IMAGE_ACCEPT : MEDIA_ACCEPT}
            preview={previews.media}
            uploading={sending}
            resumable={kind === 'vault'}
          />
        ) : null}
        {kind !== 'image' ? (
          <AttachedFileField
            label="Thumbnail (optional)"
            hint={IMAGE_HINT}
            file={fields.thumbnail}
            keptId={fields.thumbnailId}
            keptName={fields.thumbnailName}
            accept={IMAGE_ACCEPT}
            preview={previews.thumbnail ? { ...previews.thumbnail, kind: 'image' } : null}
            removable={fields.removeThumbnail}
            uploading={sending}
          />
        ) : null}
      </Section>

      {/* Every form: fans vote on a photo or a demo too ("name this song"), and an edit must not drop a poll. */}
      <Section>
        <PollEditor form={form} field={fields.poll} />
      </Section>

      <Section>
        <ScheduleWidget field={fields.schedule} />
      </Section>

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-end">
        <Link
          to={cancelTo}
          className="rounded-full px-5 py-3 text-center text-base font-semibold text-white/85 hover:text-white focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
        >
          Cancel
        </Link>
        <button
          type="submit"
          name="intent"
          value="draft"
          disabled={Boolean(pendingIntent)}
          aria-busy={pendingIntent === 'draft' || undefined}
          className="inline-flex items-center justify-center gap-2 rounded-full border border-white/40 px-5 py-3 text-base font-semibold text-white hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent disabled:cursor-not-allowed disabled:opacity-70"
        >
          {pendingIntent === 'draft' ? <Spinner /> : null}
          Save as draft
        </button>
        <button
          type="submit"
          name="intent"
          value="publish"
          disabled={Boolean(pendingIntent)}
          aria-busy={pendingIntent === 'publish' || undefined}
          className="inline-flex items-center justify-center gap-2 rounded-full bg-accent px-6 py-3 text-base font-semibold text-navy hover:bg-accent-dark focus:outline-none focus-visible:ring-2 focus-visible:ring-white disabled:cursor-not-allowed disabled:opacity-70"
        >
          {pendingIntent === 'publish' ? <Spinner /> : null}
          Publish
        </button>
      </div>
    </Form>
  );
}
