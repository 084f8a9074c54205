import { Link, useLocation, useParams } from '@remix-run/react';
import { useEffect, useState, type ReactNode } from 'react';
import type { CurrentUser } from '~/utils/mappers';
import { AccountMenu } from './account-menu';
import { LoginDialog } from './login-dialog';
import { Logo } from './logo';
import { useHydrated } from './use-hydrated';

/** The sticky bar at the top of the page; `start` replaces the logo (the error page puts its back button there). */
export function TopBarFrame({ start, end }: { start: ReactNode; end?: ReactNode }) {
  return (
    <header className="sticky top-0 z-30 border-b border-white/10 bg-navy-dark/90 backdrop-blur supports-[backdrop-filter]:bg-navy-dark/75">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        {start}
        {end ? <div className="flex items-center gap-3">{end}</div> : null}
      </div>
    </header>
  );
}

/**
 * The top bar (spec §2): signed in, the user badge that opens the account menu; signed out, the "Log in"
 * trigger of the log-in dialog.
 */
export function TopBar({ user }: { user: CurrentUser | null }) {
  const { pathname } = useLocation();
  return (
    <TopBarFrame
      start={
        <Link
          to={user ? '/discover' : '/'}
          className="rounded focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
        >
          <Logo className="h-7" />
        </Link>
      }
      end={user ? <AccountMenu user={user} /> : pathname === '/login' ? null : <LoginTrigger />}
    />
  );
}

const triggerClass =
  'rounded-full px-3 py-2 text-base font-semibold text-accent hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent';

/**
 * The yellow "Log in" text button. Until JavaScript runs it is a link to /login that brings the fan back here
 * afterwards; once hydrated it opens the log-in dialog, and a successful log-in reloads the page.
 */
export function LoginTrigger() {
  const hydrated = useHydrated();
  const location = useLocation();
  const { artistUsername } = useParams();
  const [open, setOpen] = useState(false);
  // A link inside the dialog ("Forgot your password") navigates away: the dialog closes with it.
  useEffect(() => setOpen(false), [location.key]);

  if (!hydrated) return <a href={loginHref(location.pathname + location.search, artistUsername)} className={triggerClass}>Log in</a>;
  return (
    <>
      <button type="button" aria-haspopup="dialog" onClick={() => setOpen(true)} className={triggerClass}>
        Log in
      </button>
      <LoginDialog open={open} onClose={() => setOpen(false)} artist={artistUsername} />
    </>
  );
}

/** /login with next set to where the fan is (none from the landing page: /discover is the better start). */
export function loginHref(current: string, artist?: string) {
  const search = new URLSearchParams();
  if (artist) search.set('artist', artist);
  if (current !== '/') search.set('next', current);
  const query = search.toString();
  return query ? `/login?${query}` : '/login';
}
