import type { ReactNode } from 'react';

/** The frame of the artist's studio pages: the artist's name, a heading, a line of help, and the page. */
export function StudioPage({
  artistName,
  title,
  intro,
  children,
}: {
  artistName: string;
  title: string;
  intro?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 pb-20 pt-10 sm:px-6 sm:pt-14">
      <p className="text-sm font-semibold uppercase tracking-widest text-accent">{artistName}</p>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-white sm:text-4xl">{title}</h1>
      {intro ? <p className="mt-3 text-base text-white/80">{intro}</p> : null}
      <div className="mt-8">{children}</div>
    </div>
  );
}
