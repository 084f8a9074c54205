import type { ReactNode } from 'react';

/**
 * The layout of the single-form pages (register, password reset): one h1, a short introduction and the form on
 * a raised panel, in a column narrow enough to read on a phone and not stretched on a desktop. On wide screens
 * `art` (the artist's imagery) fills the space beside the form; phones skip it and get to the form at once.
 */
export function FormPage({
  title,
  intro,
  aside,
  children,
  footer,
  art,
}: {
  title: ReactNode;
  intro?: ReactNode;
  /** Shown above the title: the artist the fan is joining, a step indicator. */
  aside?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  art?: ReactNode;
}) {
  const column = (
    <div className={`mx-auto w-full max-w-md px-4 pb-16 pt-10 sm:px-0 sm:pt-16 ${art ? 'lg:mx-0' : ''}`}>
      {aside}
      <h1 className="text-3xl font-extrabold tracking-tight text-white sm:text-4xl">{title}</h1>
      {intro ? <div className="mt-3 text-base leading-relaxed text-white/80 sm:text-lg">{intro}</div> : null}
      <div className="mt-8 rounded-2xl bg-navy-light p-5 shadow-xl shadow-black/20 ring-1 ring-white/10 sm:p-8">{children}</div>
      {footer ? <div className="mt-6 text-center text-base text-white/80">{footer}</div> : null}
    </div>
  );
  return (
    <div className="relative isolate overflow-hidden">
      <div
        className="absolute inset-x-0 top-0 -z-10 h-80 bg-[radial-gradient(ellipse_at_top,rgba(249,239,30,0.14),transparent_65%)]"
        aria-hidden="true"
      />
      {art ? (
        <div className="mx-auto grid max-w-6xl gap-12 sm:px-6 lg:grid-cols-[minmax(0,1fr)_28rem] lg:items-start lg:gap-16">
          <div className="hidden pt-16 lg:block">{art}</div>
          {column}
        </div>
      ) : (
        column
      )}
    </div>
  );
}

/** A text link in the accent colour, underlined so it is told apart from text by more than colour. */
export const accentLinkClass =
  'font-semibold text-accent underline decoration-accent/50 underline-offset-4 hover:decoration-accent focus:outline-none focus-visible:ring-2 focus-visible:ring-accent rounded-sm';
