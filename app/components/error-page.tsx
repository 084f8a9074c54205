import { Logo } from './logo';
import { TopBarFrame } from './top-bar';

export interface ErrorPageProps {
  notFound: boolean;
  /** The artist of the page that failed, if any: "back" leads to their page after a generic failure. */
  artistUsername?: string;
  marketingUrl: string;
  /** On a 404 inside a fan club whose artist is known (a deleted item's old link): the way back into the club. */
  club?: { username: string; name: string };
}

/** Where the back button leads: the artist page after a generic failure on an artist's page, else home. */
export function backTarget(notFound: boolean, artistUsername?: string) {
  return !notFound && artistUsername ? `/${encodeURIComponent(artistUsername)}` : '/';
}

const linkClass =
  'font-semibold text-accent underline underline-offset-4 hover:no-underline focus:outline-none focus-visible:ring-2 focus-visible:ring-accent rounded';

/**
 * The not-found and generic error page. Its top bar carries only the back button (the user badge
 * stays hidden: the failing page may not have loaded the user). Back is a plain link on purpose: following it
 * loads a whole new document, which is the spec's "then reloads the window", with or without JavaScript.
 */
export function ErrorPage({ notFound, artistUsername, marketingUrl, club }: ErrorPageProps) {
  const back = backTarget(notFound, artistUsername);
  return (
    <>
      <TopBarFrame
        start={
          <a
            href={back}
            className="-ml-2 flex items-center gap-2 rounded-full px-2 py-2 text-white hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
          >
            <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="h-5 w-5">
              <path
                fillRule="evenodd"
                d="M12.8 4.2a1 1 0 0 1 0 1.4L8.4 10l4.4 4.4a1 1 0 0 1-1.4 1.4l-5.1-5.1a1 1 0 0 1 0-1.4l5.1-5.1a1 1 0 0 1 1.4 0Z"
                clipRule="evenodd"
              />
            </svg>
            <span className="sr-only sm:not-sr-only sm:text-sm sm:font-medium">Back to homepage</span>
          </a>
        }
        end={<Logo className="h-6" />}
      />
      <main id="main" className="flex flex-1 items-center">
        <section className="mx-auto w-full max-w-xl px-6 py-20 text-center sm:py-28">
          <p aria-hidden="true" className="text-6xl font-black tracking-tight text-accent sm:text-7xl">
            {notFound ? '404' : 'Oops'}
          </p>
          {notFound ? (
            <>
              <h1 className="mt-6 text-2xl font-bold text-white sm:text-3xl">Uh, oh, This page doesn't seem to exist.</h1>
              <p className="mt-4 text-lg text-white/80">
                <a href="/" className={linkClass}>
                  Head back to the homepage.
                </a>
              </p>
              <p className="mt-2 text-white/70">That definitely exists.</p>
              {club ? (
                <p className="mt-6 text-white/80">
                  It may have been taken down.{' '}
                  <a href={`/${encodeURIComponent(club.username)}/vault`} className={linkClass}>
                    See what else {club.name} has in the vault
                  </a>
                </p>
              ) : null}
            </>
          ) : (
            <>
              <h1 className="mt-6 text-2xl font-bold text-white sm:text-3xl">Sorry. Something's gone wrong.</h1>
              <p className="mt-4 text-lg text-white/80">Try refreshing the page or heading back to the previous page.</p>
              <p className="mt-2 text-white/70">
                <a href={`${marketingUrl}/contact`} target="_blank" rel="noopener noreferrer" className={linkClass}>
                  If you keep having problems, please report the issue to our team.
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              </p>
            </>
          )}
        </section>
      </main>
    </>
  );
}
