import { getFormProps, getInputProps, getSelectProps, useForm, type FieldMetadata, type SubmissionResult } from '@conform-to/react';
import { Form, Link, useNavigation } from '@remix-run/react';
import { useState, type ReactNode } from 'react';
import { categoriesFor, createPostFormSchema, type PostFormInput, type PostFormKind } from '~/utils/content-form';
import { CONTENT_TYPE_LABELS } from '#contract/content-types';
import type { CheckboxInput } from '#contract/content-schemas';
import { parseForm } from '~/utils/form-schema';
import { ErrorList, Field, FormAlert, inputClassName, Spinner } from './forms';
import { PollEditor } from './poll-editor';
import { RichTextEditor } from './rich-text-editor';
import { ScheduleWidget } from './schedule-widget';
import { useHydrated } from './use-hydrated';

/** Form values as strings, the way conform keeps them (a checkbox is 'on'). */
export interface PostFormDefaults {
  title?: string;
  content?: string;
  tags?: string;
  poll?: { enabled?: string; title?: string; answers?: { id?: string; text?: string }[] };
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
  media?: { id: string; kind: 'image' | 'audio' | 'video'; url: string } | null;
}

const IMAGE_ACCEPT = 'image/jpeg,image/png,image/webp,image/gif';
const MEDIA_ACCEPT = 'audio/*,video/mp4,video/quicktime,video/webm,.mp3,.m4a,.aac,.wav,.ogg,.oga,.opus,.flac,.mp4,.mov,.webm';

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
  const schema = createPostFormSchema(kind);
  const [form, fields] = useForm<PostFormInput>({
    id: `post-${kind}`,
    lastResult,
    defaultValue,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseForm(formData, schema),
  });
  const [category, setCategory] = useState(fields.tags.initialValue ?? '');
  const captionLabel = kind === 'vault' ? 'Description' : 'Caption';

  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-8">
      <FormAlert id={form.errorId} errors={form.errors} />
      <Section>
        <Field label="Title" inputProps={getInputProps(fields.title, { type: 'text' })} errors={fields.title.errors} errorId={fields.title.errorId} />
        <RichTextEditor field={fields.content} label={captionLabel} />
        {kind !== 'image' ? (
          <CategorySelect
            field={fields.tags}
            options={categoriesFor(kind)}
            onChange={setCategory}
          />
        ) : null}
      </Section>

      {kind === 'text' && (!hydrated || category === 'ticketPresale') ? (
        <Section title="Ticket presale" hint={hydrated ? undefined : 'Only for the Ticket Presale category.'}>
          <PresaleFields field={fields.presale} />
        </Section>
      ) : null}

      <Section title={kind === 'vault' ? 'Files' : kind === 'text' ? 'Thumbnail' : undefined}>
        {kind !== 'text' ? (
          <FileField
            label={kind === 'image' ? 'Photo' : 'Audio or video file'}
            hint={
              kind === 'image'
                ? 'JPEG, PNG, WebP or GIF, up to 15 MB.'
                : 'Audio: MP3, M4A, AAC, WAV, OGG or FLAC, up to 200 MB. Video: MP4, MOV or WebM, up to 1 GB.'
            }
            file={fields.media}
            keptId={fields.mediaId}
            keptName={fields.mediaName}
            accept={kind === 'image' ? IMAGE_ACCEPT : MEDIA_ACCEPT}
            preview={previews.media}
          />
        ) : null}
        {kind !== 'image' ? (
          <FileField
            label="Thumbnail (optional)"
            hint="JPEG, PNG, WebP or GIF, up to 15 MB."
            file={fields.thumbnail}
            keptId={fields.thumbnailId}
            keptName={fields.thumbnailName}
            accept={IMAGE_ACCEPT}
            preview={previews.thumbnail ? { ...previews.thumbnail, kind: 'image' } : null}
            removable={fields.removeThumbnail}
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

function Section({ title, hint, children }: { title?: string; hint?: string; children: ReactNode }) {
  return (
    <section className="space-y-5 rounded-2xl bg-navy-light p-5 ring-1 ring-white/10 sm:p-7">
      {title ? (
        <div>
          <h2 className="text-lg font-semibold text-white">{title}</h2>
          {hint ? <p className="mt-1 text-sm text-white/70">{hint}</p> : null}
        </div>
      ) : null}
      {children}
    </section>
  );
}

function CategorySelect({
  field,
  options,
  onChange,
}: {
  field: FieldMetadata<string | undefined, any, string[]>;
  options: readonly (keyof typeof CONTENT_TYPE_LABELS)[];
  onChange: (value: string) => void;
}) {
  const { key, ...props } = getSelectProps(field);
  const invalid = Boolean(field.errors?.length);
  return (
    <div>
      <label htmlFor={props.id} className="mb-1.5 block text-sm font-medium text-white/90">
        Category
      </label>
      <select
        key={key}
        {...props}
        onChange={(event) => onChange(event.currentTarget.value)}
        className={`${inputClassName(invalid)} [&>option]:bg-navy`}
      >
        <option value="">Choose a category</option>
        {options.map((type) => (
          <option key={type} value={type}>
            {CONTENT_TYPE_LABELS[type]}
          </option>
        ))}
      </select>
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

function PresaleFields({
  field,
}: {
  field: FieldMetadata<{ ticketUrl?: string; saleStartsAt?: string; saleEndsAt?: string } | undefined, any, string[]>;
}) {
  const { ticketUrl, saleStartsAt, saleEndsAt } = field.getFieldset();
  return (
    <>
      <Field
        label="Ticket link"
        inputProps={{ ...getInputProps(ticketUrl, { type: 'text' }), inputMode: 'url', placeholder: 'https://' }}
        errors={ticketUrl.errors}
        errorId={ticketUrl.errorId}
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <Field
          label="Presale opens (GMT, optional)"
          inputProps={getInputProps(saleStartsAt, { type: 'datetime-local' })}
          errors={saleStartsAt.errors}
          errorId={saleStartsAt.errorId}
        />
        <Field
          label="Presale closes (GMT, optional)"
          inputProps={getInputProps(saleEndsAt, { type: 'datetime-local' })}
          errors={saleEndsAt.errors}
          errorId={saleEndsAt.errorId}
        />
      </div>
    </>
  );
}

/**
 * A file input, and the file already attached (uploaded by an earlier submission of this form, or the item's
 * current one on the edit page): its id rides in a hidden input until another file replaces it.
 */
function FileField({
  label,
  hint,
  file,
  keptId,
  keptName,
  accept,
  preview,
  removable,
}: {
  label: string;
  hint: string;
  file: FieldMetadata<File | undefined, any, string[]>;
  keptId: FieldMetadata<string | undefined, any, string[]>;
  keptName: FieldMetadata<string | undefined, any, string[]>;
  accept: string;
  preview?: { id: string; kind: 'image' | 'audio' | 'video'; url: string } | null;
  removable?: FieldMetadata<CheckboxInput, any, string[]>;
}) {
  const invalid = Boolean(file.errors?.length);
  const attached = keptId.initialValue;
  const shown = preview && preview.id === attached ? preview : null;
  const { key: removeKey, ...removeProps } = removable ? getInputProps(removable, { type: 'checkbox' }) : { key: undefined };
  return (
    <div>
      <input {...getInputProps(keptId, { type: 'hidden' })} key={keptId.key} />
      <input {...getInputProps(keptName, { type: 'hidden' })} key={keptName.key} />
      <label htmlFor={file.id} className="mb-1.5 block text-sm font-medium text-white/90">
        {label}
      </label>
      {attached ? (
        <div className="mb-3 flex flex-wrap items-center gap-3 rounded-lg bg-white/5 p-3">
          {shown?.kind === 'image' ? <img src={shown.url} alt="" className="h-16 w-16 rounded-md object-cover" /> : null}
          {shown?.kind === 'audio' ? <audio src={shown.url} controls preload="none" className="max-w-full" /> : null}
          <p className="min-w-0 flex-1 text-sm text-white/85">
            <span className="font-semibold text-white">Attached:</span> {keptName.initialValue || 'the current file'}. Choose a
            file to replace it.
          </p>
          {removable ? (
            <label className="flex items-center gap-2 text-sm text-white">
              <input key={removeKey} {...removeProps} className="h-4 w-4 rounded border-white/40 bg-white/10 accent-accent text-accent focus:ring-accent" />
              Remove it
            </label>
          ) : null}
        </div>
      ) : null}
      <input
        id={file.id}
        name={file.name}
        type="file"
        accept={accept}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? file.errorId : `${file.id}-hint`}
        className="block w-full text-sm text-white/85 file:mr-3 file:rounded-full file:border-0 file:bg-white/15 file:px-4 file:py-2 file:font-semibold file:text-white hover:file:bg-white/25"
      />
      {!invalid ? (
        <p id={`${file.id}-hint`} className="mt-1 text-sm text-white/70">
          {hint}
        </p>
      ) : null}
      <ErrorList id={file.errorId} errors={file.errors} />
    </div>
  );
}

/** The frame of the artist's studio pages: the artist's name, a heading, a line of help, and the page. */
export function StudioPage({ artistName, title, intro, children }: { artistName: string; title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 pb-20 pt-10 sm:px-6 sm:pt-14">
      <p className="text-sm font-semibold uppercase tracking-widest text-accent">{artistName}</p>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-white sm:text-4xl">{title}</h1>
      {intro ? <p className="mt-3 text-base text-white/80">{intro}</p> : null}
      <div className="mt-8">{children}</div>
    </div>
  );
}
