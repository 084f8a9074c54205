import { getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from '@conform-to/react';
import { useState, type InputHTMLAttributes, type ReactNode, type RefObject, type TextareaHTMLAttributes } from 'react';
import { ErrorList, inputClassName } from './form-parts';

/**
 * Fields that take conform's field (`fields.email` of useForm) and derive everything from it: the input's id and
 * name, its value, `required`, `aria-invalid`, `aria-describedby` (the error text, and the hint when there is one),
 * and the error text itself. Every form of the app is written with these.
 */
interface FieldShell {
  field: FieldMetadata<unknown>;
  label: ReactNode;
  hint?: ReactNode;
  className?: string;
  /** Show the error style without a message of the field's own (a form-level error concerns this field too). */
  invalid?: boolean;
  /** Keep the field's messages out of sight (while the form is being sent again, say). */
  hideErrors?: boolean;
}

function Label({ field, children }: { field: FieldMetadata<unknown>; children: ReactNode }) {
  return (
    <label htmlFor={field.id} className="mb-1.5 block text-sm font-medium text-white/90">
      {children}
    </label>
  );
}

/** The hint gives way to the error, and the input's aria-describedby names only what is on the page. */
function Hint({ field, hint, invalid }: { field: FieldMetadata<unknown>; hint?: ReactNode; invalid: boolean }) {
  return hint && !invalid ? (
    <p id={field.descriptionId} className="mt-1 text-sm text-white/70">
      {hint}
    </p>
  ) : null;
}

const isInvalid = ({ field, invalid, hideErrors }: FieldShell) => Boolean(invalid || (!hideErrors && field.errors?.length));
const shownErrors = ({ field, hideErrors }: FieldShell) => (hideErrors ? undefined : field.errors);
const hintId = (props: FieldShell) => (props.hint && !isInvalid(props) ? props.field.descriptionId : undefined);

/** A text-like input (text, email, number, url, datetime-local…); `inputProps` adds what conform does not derive. */
type InputExtras = Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'id' | 'type' | 'defaultValue'>;

export function InputField(
  props: FieldShell & {
    type?: 'text' | 'email' | 'number' | 'url' | 'tel' | 'search' | 'datetime-local' | 'date' | 'time';
    /** A `value` here makes the input controlled (conform's useInputControl): conform's defaultValue is then left out. */
    inputProps?: InputExtras;
    /** Beside the input, in its row (a calendar button, say). */
    addon?: ReactNode;
  },
) {
  const { field, label, hint, className, type = 'text', inputProps, addon } = props;
  const { key, defaultValue, ...conformProps } = getInputProps(field, { type, ariaDescribedBy: hintId(props) });
  const invalid = isInvalid(props);
  const input = (
    <input
      key={key}
      {...conformProps}
      defaultValue={inputProps?.value === undefined ? defaultValue : undefined}
      {...inputProps}
      className={inputClassName(invalid)}
    />
  );
  return (
    <div className={className}>
      <Label field={field}>{label}</Label>
      {addon ? (
        <div className="flex gap-2">
          {input}
          {addon}
        </div>
      ) : (
        input
      )}
      <Hint field={field} hint={hint} invalid={invalid} />
      <ErrorList id={field.errorId} errors={shownErrors(props)} />
    </div>
  );
}

/** A password input with a show/hide toggle (the toggle needs JavaScript; without it the field still works). */
export function PasswordInputField(props: FieldShell & { inputProps: InputExtras & { autoComplete: string } }) {
  const { field, label, hint, className, inputProps } = props;
  const [visible, setVisible] = useState(false);
  const { key, ...conformProps } = getInputProps(field, { type: 'password', ariaDescribedBy: hintId(props) });
  const invalid = isInvalid(props);
  return (
    <div className={className}>
      <Label field={field}>{label}</Label>
      <div className="relative">
        <input
          key={key}
          {...conformProps}
          {...inputProps}
          type={visible ? 'text' : 'password'}
          className={`${inputClassName(invalid)} pr-20`}
        />
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-pressed={visible}
          aria-controls={field.id}
          className="absolute inset-y-0 right-0 rounded-r-lg px-3 text-sm font-medium text-accent hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
        >
          {visible ? 'Hide' : 'Show'}
          <span className="sr-only"> password</span>
        </button>
      </div>
      <Hint field={field} hint={hint} invalid={isInvalid(props)} />
      <ErrorList id={field.errorId} errors={shownErrors(props)} />
    </div>
  );
}

export function TextareaField(
  props: FieldShell & { textareaProps?: Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'name' | 'id' | 'defaultValue'> },
) {
  const { field, label, hint, className, textareaProps } = props;
  const { key, ...conformProps } = getTextareaProps(field, { ariaDescribedBy: hintId(props) });
  const invalid = isInvalid(props);
  return (
    <div className={className}>
      <Label field={field}>{label}</Label>
      <textarea key={key} rows={4} {...conformProps} {...textareaProps} className={inputClassName(invalid)} />
      <Hint field={field} hint={hint} invalid={isInvalid(props)} />
      <ErrorList id={field.errorId} errors={shownErrors(props)} />
    </div>
  );
}

export function SelectField(props: FieldShell & { options: readonly { value: string; label: string }[]; placeholder?: string }) {
  const { field, label, hint, className, options, placeholder } = props;
  const { key, ...conformProps } = getSelectProps(field, { ariaDescribedBy: hintId(props) });
  const invalid = isInvalid(props);
  return (
    <div className={className}>
      <Label field={field}>{label}</Label>
      {/* The options' own background: the open list is drawn by the system, white by default under white text. */}
      <select key={key} {...conformProps} className={`${inputClassName(invalid)} [&>option]:bg-navy`}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <Hint field={field} hint={hint} invalid={isInvalid(props)} />
      <ErrorList id={field.errorId} errors={shownErrors(props)} />
    </div>
  );
}

/** A checkbox with its label beside it (a form posts 'on' when it is ticked: the schemas take that). */
export function CheckboxField(
  props: FieldShell & { inputProps?: Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'id' | 'type' | 'value' | 'defaultChecked'> },
) {
  const { field, label, hint, className, inputProps } = props;
  const { key, ...conformProps } = getInputProps(field, { type: 'checkbox', ariaDescribedBy: hintId(props) });
  return (
    <div className={className}>
      <div className="flex items-start gap-3">
        <input
          key={key}
          {...conformProps}
          {...inputProps}
          className="mt-0.5 h-5 w-5 shrink-0 rounded border-white/40 bg-white/10 accent-accent focus:ring-accent"
        />
        <label htmlFor={field.id} className="text-base text-white/90">
          {label}
        </label>
      </div>
      <Hint field={field} hint={hint} invalid={isInvalid(props)} />
      <ErrorList id={field.errorId} errors={shownErrors(props)} />
    </div>
  );
}

/**
 * A file picker that says what was chosen (its name and size) and, while the form is being sent, that the file is on
 * its way: `progress` is the share sent (0 to 1) when the page knows it, else the bar runs without a figure.
 * `preview` shows what the field holds now (the current image, say) between the label and the picker.
 */
/** The image types the api takes (JPEG, PNG, WebP, GIF), for a file field's picker. */
export const IMAGE_ACCEPT = 'image/jpeg,image/png,image/webp,image/gif';

export function FileField(
  props: FieldShell & {
    accept?: string;
    uploading?: boolean;
    progress?: number;
    preview?: ReactNode;
    /** Takes the chosen file as it is chosen (a resumable upload), with what to show under the picker. */
    onFile?: (input: HTMLInputElement, file: File | undefined) => void;
    status?: ReactNode;
    inputRef?: RefObject<HTMLInputElement>;
  },
) {
  const { field, label, hint, className, accept, uploading = false, progress, preview, onFile, status, inputRef } = props;
  const [chosen, setChosen] = useState<{ name: string; size: number } | null>(null);
  const { key, ...conformProps } = getInputProps(field, { type: 'file', ariaDescribedBy: hintId(props) });
  return (
    <div className={className}>
      <Label field={field}>{label}</Label>
      {preview}
      <input
        key={key}
        {...conformProps}
        accept={accept}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          setChosen(file ? { name: file.name, size: file.size } : null);
          onFile?.(event.currentTarget, file);
        }}
        ref={inputRef}
        className="block w-full text-sm text-white/85 file:mr-3 file:rounded-full file:border-0 file:bg-white/15 file:px-4 file:py-2 file:font-semibold file:text-white hover:file:bg-white/25"
      />
      {chosen && uploading ? (
        <div className="mt-2 flex items-center gap-3 text-sm text-white/80" role="status">
          <progress className="h-2 w-40 accent-accent" max={1} value={progress} aria-label={`Uploading ${chosen.name}`} />
          <span>
            Uploading {chosen.name}
            {progress === undefined ? '…' : ` (${Math.round(progress * 100)} %)`}
          </span>
        </div>
      ) : status ? (
        status
      ) : chosen ? (
        <p className="mt-1 text-sm text-white/70">
          {chosen.name} · {formatBytes(chosen.size)}
        </p>
      ) : null}
      <Hint field={field} hint={hint} invalid={isInvalid(props)} />
      <ErrorList id={field.errorId} errors={shownErrors(props)} />
    </div>
  );
}

const byteFormat = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 });

/** "820 KB", "12.4 MB". */
export function formatBytes(bytes: number) {
  if (bytes < 1_000_000) return `${byteFormat.format(Math.max(1, Math.round(bytes / 1000)))} KB`;
  if (bytes < 1_000_000_000) return `${byteFormat.format(bytes / 1_000_000)} MB`;
  return `${byteFormat.format(bytes / 1_000_000_000)} GB`;
}
