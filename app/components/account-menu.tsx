import { Form, Link, useLocation, useParams } from '@remix-run/react';
import { useState, type ReactNode } from 'react';
import type { CurrentUser } from '~/utils/mappers';
import { useHydrated } from './use-hydrated';

export type AccountUser = Pick<CurrentUser, 'avatarUrl' | 'username' | 'email' | 'artist'>;

/**
 * Where the menu leads besides the details: an artist's studio (publishing, drafts, collections, subscribers, their
 * profile) from every page, inside a club a fan's membership there (renewal, cancel) — the account page of that
 * club, its membership section — a fan's memberships of every club, and everyone's account settings (name, picture,
 * email, password, data, deletion).
 */
export function useAccountLinks(user: AccountUser) {
  const { artistUsername } = useParams();
  const links: { label: string; to: string }[] = [];
  if (user.artist) links.push({ label: 'Studio', to: `/${user.username}/account` });
  if (artistUsername && artistUsername !== user.username)
    links.push({ label: 'Your membership', to: `/${artistUsername}/account#membership-title` });
  // Every club a fan belongs to, to cancel or resume any of them from here (an artist belongs to none).
  if (!user.artist) links.push({ label: 'Memberships', to: '/account/memberships' });
  links.push({ label: 'Account settings', to: '/account' });
  return links;
}

export const menuLinkClass =
  'flex w-full items-center rounded-lg px-3 py-2 text-left text-sm font-semibold text-white hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent data-[focus]:bg-white/10';

export const panelClass = 'z-40 w-[250px] rounded-xl bg-navy-light p-1.5 text-white shadow-2xl ring-1 ring-white/15 focus:outline-none';
export const logOutClass =
  'flex w-full items-center rounded-lg px-3 py-2 text-left text-sm font-semibold text-accent hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent data-[focus]:bg-white/10';

/**
 * The header account menu: a 250 px dropdown whose trigger is the user badge — the avatar and, from
 * the md breakpoint, "Logged in as" and the username. It holds "Account details" (username and email) and
 * "Log out". Before JavaScript has loaded (or without it) the same content sits in a <details> disclosure,
 * so logging out works as a plain form post.
 */
export function AccountMenu({ user }: { user: AccountUser }) {
  const hydrated = useHydrated();
  const links = useAccountLinks(user);
  if (!hydrated) {
    return (
      <details className="group relative">
        <summary className={`${triggerClass} list-none [&::-webkit-details-marker]:hidden`}>
          <Badge user={user} />
        </summary>
        <div className={`${panelClass} absolute right-0 mt-2`}>
          <h2 className="px-3 pb-1 pt-2 text-xs font-semibold uppercase tracking-wider text-white/70">Account details</h2>
          <Detail label="Username">{user.username}</Detail>
          <Detail label="Email">{user.email}</Detail>
          <hr className="my-1.5 border-white/10" />
          {links.map((link) => (
            <Link key={link.to} to={link.to} className={menuLinkClass}>
              {link.label}
            </Link>
          ))}
          <LogoutForm>
            <button type="submit" className={logOutClass}>
              Log out
            </button>
          </LogoutForm>
        </div>
      </details>
    );
  }
  return <LazyAccountMenu user={user} />;
}

export const triggerClass =
  'flex cursor-pointer items-center gap-3 rounded-full py-1 pl-1 pr-1 text-left hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent md:pr-4';

export function Badge({ user }: { user: AccountUser }) {
  return (
    <>
      <img src={user.avatarUrl} alt="" width={36} height={36} className="h-9 w-9 rounded-full bg-white/10 object-cover" />
      <span className="sr-only md:not-sr-only md:flex md:flex-col md:leading-tight">
        <span className="text-xs text-white/70">Logged in as </span>
        <span className="max-w-[12rem] truncate text-sm font-semibold text-white">{user.username}</span>
      </span>
    </>
  );
}

export function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="px-3 py-1.5">
      <span className="block text-xs text-white/70">{label}</span>
      <span className="block truncate text-sm text-white">{children}</span>
    </div>
  );
}

/**
 * Log out is a plain form post to /logout carrying the current URL: the action clears the session and sends
 * the browser back there (or, from a payment step, to the register step) without resetting the scroll.
 */
export function LogoutForm({ children }: { children: ReactNode }) {
  const location = useLocation();
  return (
    <Form method="post" action="/logout" preventScrollReset>
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      {children}
    </Form>
  );
}

const loadDropdown = () => import('./account-menu-dropdown');
type Dropdown = Awaited<ReturnType<typeof loadDropdown>>['default'];

/**
 * Once hydrated, the trigger is a plain button, and the dropdown's code (Headless UI's menu, with its
 * positioning) loads only when the fan reaches for it (pointer over, focus or tap), so no page pays for it on
 * its first visit. The click swaps in the real menu, open, with the focus on its button.
 */
function LazyAccountMenu({ user }: { user: AccountUser }) {
  const [Dropdown, setDropdown] = useState<Dropdown | null>(null);
  const [openRequested, setOpenRequested] = useState(false);
  // Swapping the button while a click is under way would lose the click: only the click itself swaps it.
  const warm = () => void loadDropdown();
  if (Dropdown) return <Dropdown user={user} openOnMount={openRequested} />;
  return (
    <button
      type="button"
      aria-haspopup="menu"
      aria-expanded="false"
      className={triggerClass}
      onPointerEnter={warm}
      onFocus={warm}
      onClick={() => {
        setOpenRequested(true);
        void loadDropdown().then((module) => setDropdown(() => module.default));
      }}
    >
      <Badge user={user} />
    </button>
  );
}
