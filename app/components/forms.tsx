import { useState, type InputHTMLAttributes, type ReactNode } from 'react';

/**
 * Form primitives shared by every form. Pass conform's `getInputProps(field, { type })` as inputProps: it
 * carries id, name, defaultValue, required, aria-invalid and aria-describedby; errorId ties the error text to it.
 */
export interface FieldProps {
  label: ReactNode;
  inputProps: InputHTMLAttributes<HTMLInputElement> & { id: string; key?: string };
  errors?: string[];
  errorId?: string;
  hint?: ReactNode;
  className?: string;
  /** Show the error style without a message of the field's own (a form-level error concerns this field too). */
  invalid?: boolean;
}

const inputClass =
  'block w-full rounded-lg border bg-white/5 px-3 py-2.5 text-base text-white placeholder:text-white/60 ' +
  'focus:outline-none focus:ring-2 focus:ring-accent disabled:opacity-60';

export function inputClassName(invalid: boolean) {
  return `${inputClass} ${invalid ? 'border-red-400' : 'border-white/25'}`;
}

export function Field({ label, inputProps, errors, errorId, hint, className, invalid: forceInvalid }: FieldProps) {
  const { key, ...props } = inputProps;
  const invalid = Boolean(forceInvalid || errors?.length);
  return (
    <div className={className}>
      <label htmlFor={props.id} className="mb-1.5 block text-sm font-medium text-white/90">
        {label}
      </label>
      <input key={key} {...props} className={inputClassName(invalid)} />
      {hint && !invalid ? <p className="mt-1 text-sm text-white/70">{hint}</p> : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

/** A password input with a show/hide toggle (the toggle needs JavaScript; without it the field still works). */
export function PasswordField(props: FieldProps) {
  const [visible, setVisible] = useState(false);
  const { key, ...inputProps } = props.inputProps;
  const invalid = Boolean(props.invalid || props.errors?.length);
  return (
    <div className={props.className}>
      <label htmlFor={inputProps.id} className="mb-1.5 block text-sm font-medium text-white/90">
        {props.label}
      </label>
      <div className="relative">
        <input key={key} {...inputProps} type={visible ? 'text' : 'password'} className={`${inputClassName(invalid)} pr-20`} />
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-pressed={visible}
          aria-controls={inputProps.id}
          className="absolute inset-y-0 right-0 rounded-r-lg px-3 text-sm font-medium text-accent hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
        >
          {visible ? 'Hide' : 'Show'}
          <span className="sr-only"> password</span>
        </button>
      </div>
      {props.hint && !invalid ? <p className="mt-1 text-sm text-white/70">{props.hint}</p> : null}
      <ErrorList id={props.errorId} errors={props.errors} />
    </div>
  );
}

export function ErrorList({ id, errors }: { id?: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <ul id={id} className="mt-1.5 space-y-0.5 text-sm text-red-300">
      {errors.map((error) => (
        <li key={error}>{error}</li>
      ))}
    </ul>
  );
}

/** A red alert for an error about the whole form (spec §4: the log-in failure alert). */
export function FormAlert({ id, errors }: { id?: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <div id={id} role="alert" className="rounded-lg border border-red-400/60 bg-red-500/15 px-3 py-2.5 text-sm text-red-200">
      {errors.map((error) => (
        <p key={error}>{error}</p>
      ))}
    </div>
  );
}

export function Spinner({ className = 'h-4 w-4' }: { className?: string }) {
  return (
    <svg className={`animate-spin ${className}`} viewBox="0 0 24 24" fill="none" aria-hidden="true">
      <circle cx="12" cy="12" r="10" stroke="currentColor" strokeOpacity="0.3" strokeWidth="4" />
      <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="4" strokeLinecap="round" />
    </svg>
  );
}

/** The yellow primary button; while pending it is disabled and shows a spinner. */
export function SubmitButton({
  pending = false,
  children,
  className = '',
  ...rest
}: { pending?: boolean; children: ReactNode } & React.ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button
      type="submit"
      {...rest}
      disabled={pending || rest.disabled}
      aria-busy={pending || undefined}
      className={`inline-flex w-full items-center justify-center gap-2 rounded-full bg-accent px-5 py-3 text-base font-semibold text-navy transition hover:bg-accent-dark focus:outline-none focus-visible:ring-2 focus-visible:ring-white disabled:cursor-not-allowed disabled:opacity-70 ${className}`}
    >
      {pending ? <Spinner /> : null}
      {children}
    </button>
  );
}
