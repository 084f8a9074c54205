import type { ReactNode } from 'react';

/**
 * The parts of a form that need no conform: error lists, the alert, the spinner and the submit button. Pages whose
 * only forms are buttons (a vote, a bookmark, a start-conversation) import these alone, so conform stays out of
 * their JavaScript; the fields of forms.tsx are built from them.
 */

const inputClass =
  'block w-full rounded-lg border bg-white/5 px-3 py-2.5 text-base text-white placeholder:text-white/60 ' +
  'focus:outline-none focus:ring-2 focus:ring-accent disabled:opacity-60';

export function inputClassName(invalid: boolean) {
  return `${inputClass} ${invalid ? 'border-red-400' : 'border-white/25'}`;
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

/** A red alert for an error about the whole form (a failed log-in shows one). */
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
