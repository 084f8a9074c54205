import { getInputProps, type FieldMetadata } from '@conform-to/react';
import { useRef, type ReactNode } from 'react';
import type { CheckboxInput } from '#contract/content-schemas';
import { CheckboxField, FileField, InputField } from './forms';
import { ResumableStatus, useResumableUpload } from './resumable-upload';

/** One card of the post form, with an optional heading and a line of help under it. */
export function Section({ title, hint, children }: { title?: string; hint?: string; children: ReactNode }) {
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

export function PresaleFields({
  field,
}: {
  field: FieldMetadata<{ ticketUrl?: string; saleStartsAt?: string; saleEndsAt?: string } | undefined, Record<string, unknown>, string[]>;
}) {
  const { ticketUrl, saleStartsAt, saleEndsAt } = field.getFieldset();
  return (
    <>
      <InputField field={ticketUrl} label="Ticket link" inputProps={{ inputMode: 'url', placeholder: 'https://' }} />
      <div className="grid gap-5 sm:grid-cols-2">
        <InputField
          field={saleStartsAt}
          label="Presale opens (GMT, optional)"
          hint="DD/MM/YYYY HH:MM"
          inputProps={{ placeholder: 'DD/MM/YYYY HH:MM', autoComplete: 'off' }}
        />
        <InputField
          field={saleEndsAt}
          label="Presale closes (GMT, optional)"
          hint="DD/MM/YYYY HH:MM"
          inputProps={{ placeholder: 'DD/MM/YYYY HH:MM', autoComplete: 'off' }}
        />
      </div>
    </>
  );
}

/** What an edit form shows of a file the item has now. */
export interface FilePreview {
  id: string;
  kind: 'image' | 'audio' | 'video';
  url: string;
}

/**
 * A file picker, and the file already attached (uploaded by an earlier submission of this form, or the item's
 * current one on the edit page): its id rides in a hidden input until another file replaces it.
 */
export function AttachedFileField({
  label,
  hint,
  file,
  keptId,
  keptName,
  accept,
  preview,
  removable,
  uploading,
  resumable = false,
}: {
  label: string;
  hint: string;
  file: FieldMetadata<File | undefined, Record<string, unknown>, string[]>;
  keptId: FieldMetadata<string | undefined, Record<string, unknown>, string[]>;
  keptName: FieldMetadata<string | undefined, Record<string, unknown>, string[]>;
  accept: string;
  preview?: FilePreview | null;
  removable?: FieldMetadata<CheckboxInput, Record<string, unknown>, string[]>;
  uploading: boolean;
  /** Send a chosen file at once as a resumable upload (large audio and video), with JavaScript. */
  resumable?: boolean;
}) {
  const idRef = useRef<HTMLInputElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const tus = useResumableUpload({ id: idRef, name: nameRef });
  const attached = keptId.initialValue;
  const shown = preview && preview.id === attached ? preview : null;
  const { key: idKey, ...idProps } = getInputProps(keptId, { type: 'hidden' });
  const { key: nameKey, ...nameProps } = getInputProps(keptName, { type: 'hidden' });
  return (
    <div>
      <input key={idKey} {...idProps} ref={idRef} />
      <input key={nameKey} {...nameProps} ref={nameRef} />
      <FileField
        inputRef={fileRef}
        onFile={resumable && tus.enabled ? (input, chosen) => void tus.start(input, chosen) : undefined}
        status={
          resumable && tus.phase.state !== 'idle' ? (
            <ResumableStatus phase={tus.phase} onCancel={() => void tus.cancel(fileRef.current)} />
          ) : undefined
        }
        field={file}
        label={label}
        hint={hint}
        accept={accept}
        uploading={uploading}
        preview={
          attached ? (
            <div className="mb-3 flex flex-wrap items-center gap-3 rounded-lg bg-white/5 p-3">
              {shown?.kind === 'image' ? <img src={shown.url} alt="" className="h-16 w-16 rounded-md object-cover" /> : null}
              {shown?.kind === 'audio' ? <audio src={shown.url} controls preload="none" className="max-w-full" /> : null}
              <p className="min-w-0 flex-1 text-sm text-white/85">
                <span className="font-semibold text-white">Attached:</span> {keptName.initialValue || 'the current file'}. Choose a file to
                replace it.
              </p>
              {removable ? <CheckboxField field={removable} label="Remove it" /> : null}
            </div>
          ) : null
        }
      />
    </div>
  );
}
