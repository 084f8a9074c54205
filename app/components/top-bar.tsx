import { Link, useLocation, useParams } from '@remix-run/react';
import { useEffect, useState, type ReactNode } from 'react';
import type { CurrentUser } from '~/utils/mappers';
import type { UnreadTotalEvent } from '#contract/messages';
import type { NotificationResponse } from '#contract/notifications';
import { NotificationEvent, RealtimeEvent } from '#contract/realtime';
import { getSocket, useRealtimeEvent } from '~/utils/realtime';
import { AccountMenu } from './account-menu';
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
 * The top bar: signed in, the user badge that opens the account menu; signed out, the "Log in"
 * trigger of the log-in dialog.
 */
export function TopBar({
  user,
  messages,
  notifications,
}: {
  user: CurrentUser | null;
  messages?: MessagesLinkData | null;
  notifications?: NotificationsBellData | null;
}) {
  const { pathname } = useLocation();
  return (
    <TopBarFrame
      start={
        <Link to={user ? '/discover' : '/'} className="rounded focus:outline-none focus-visible:ring-2 focus-visible:ring-accent">
          <Logo className="h-7" />
        </Link>
      }
      end={
        user ? (
          <>
            {notifications ? <NotificationsBell unread={notifications.unread} /> : null}
            {messages ? <MessagesLink href={messages.href} unread={messages.unread} /> : null}
            <AccountMenu user={user} />
          </>
        ) : pathname === '/login' ? null : (
          <LoginTrigger />
        )
      }
    />
  );
}

/**
 * The dialog's code (Headless UI's dialog, the form and its schema) loads when the visitor reaches for the
 * button, not with the page: most visits to a public page never log in from it.
 */
const loadLoginDialog = () => import('./login-dialog');
type LoginDialogComponent = Awaited<ReturnType<typeof loadLoginDialog>>['LoginDialog'];

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
  const [Dialog, setDialog] = useState<LoginDialogComponent | null>(null);
  // A link inside the dialog ("Forgot your password") navigates away: the dialog closes with it.
  useEffect(() => setOpen(false), [location.key]);

  if (!hydrated)
    return (
      <a href={loginHref(location.pathname + location.search, artistUsername)} className={triggerClass}>
        Log in
      </a>
    );
  return (
    <>
      <button
        type="button"
        aria-haspopup="dialog"
        onPointerEnter={() => void loadLoginDialog()}
        onFocus={() => void loadLoginDialog()}
        onClick={() => {
          setOpen(true);
          void loadLoginDialog().then((module) => setDialog(() => module.LoginDialog));
        }}
        className={triggerClass}
      >
        Log in
      </button>
      {Dialog ? <Dialog open={open} onClose={() => setOpen(false)} artist={artistUsername} /> : null}
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

export interface MessagesLinkData {
  href: string;
  /** The viewer's unread messages; null when it could not be asked. */
  unread: number | null;
}

const iconLinkClass =
  'relative rounded-full p-2 text-white/90 hover:bg-white/10 hover:text-white focus:outline-none focus-visible:ring-2 focus-visible:ring-accent';

function CountBadge({ count, testId }: { count: number | null; testId: string }) {
  if (!count) return null;
  return (
    <span
      data-testid={testId}
      className="absolute -right-0.5 -top-0.5 min-w-[1.25rem] rounded-full bg-accent px-1 text-center text-xs font-bold leading-5 text-navy"
    >
      {count > 99 ? '99+' : count}
    </span>
  );
}

/**
 * A count the server rendered and the realtime connection keeps current. While connected, the api's events are the
 * truth (it sends the total on every change and every fresh connection); a loader's answer can be older than the
 * last event, e.g. read in parallel with a read-all.
 */
function useLiveTotal(initial: number | null, event: string) {
  const [total, setTotal] = useState(initial);
  useEffect(() => {
    if (!getSocket()?.connected) setTotal(initial);
  }, [initial]);
  useRealtimeEvent<UnreadTotalEvent>(event, (payload) => setTotal(payload.total));
  return total;
}

export interface NotificationsBellData {
  /** The fan's unread notifications; null when it could not be asked. */
  unread: number | null;
}

/**
 * The bell (docs/notifications.md "What the fan sees"): a link to /notifications with the fan's unread
 * total, kept live by the api's events. A notification arriving is also read out by screen readers, since the badge
 * changing says nothing to them.
 */
export function NotificationsBell({ unread: initial }: NotificationsBellData) {
  const unread = useLiveTotal(initial, NotificationEvent.unreadTotal);
  const [arrived, setArrived] = useState('');
  useRealtimeEvent<{ notification: NotificationResponse }>(NotificationEvent.created, ({ notification }) =>
    setArrived(`New from ${notification.performer.name}: ${notification.item.title}`),
  );
  const label = unread ? `Notifications, ${unread} unread` : 'Notifications';
  return (
    <>
      <Link to="/notifications" aria-label={label} title={label} className={iconLinkClass}>
        <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" className="h-6 w-6" aria-hidden="true">
          <path strokeLinecap="round" strokeLinejoin="round" d="M6 16V11a6 6 0 1 1 12 0v5l2 2H4zM10 21h4" />
        </svg>
        <CountBadge count={unread} testId="notifications-unread" />
      </Link>
      {/* A live region without the status role: a page's own status message stays the page's one "status". */}
      <span aria-live="polite" data-testid="notification-arrived" className="sr-only">
        {arrived}
      </span>
    </>
  );
}

/**
 * The link to the viewer's messages with their unread total. The server renders the total; while the realtime
 * connection is open the api's unread-total events keep it current without a reload.
 */
export function MessagesLink({ href, unread: initial }: MessagesLinkData) {
  const unread = useLiveTotal(initial, RealtimeEvent.unreadTotal);
  const label = unread ? `Messages, ${unread} unread` : 'Messages';
  return (
    <Link to={href} aria-label={label} title={label} className={iconLinkClass}>
      <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" className="h-6 w-6" aria-hidden="true">
        <path strokeLinecap="round" strokeLinejoin="round" d="M4 5h16v11H8l-4 4z" />
      </svg>
      <CountBadge count={unread} testId="unread-total" />
    </Link>
  );
}
