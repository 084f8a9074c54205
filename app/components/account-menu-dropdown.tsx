import { Menu, MenuButton, MenuHeading, MenuItem, MenuItems, MenuSection, MenuSeparator } from '@headlessui/react';
import { Link } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import {
  Badge,
  Detail,
  logOutClass,
  LogoutForm,
  menuLinkClass,
  panelClass,
  triggerClass,
  useAccountLinks,
  type AccountUser,
} from './account-menu';

/**
 * The account menu's dropdown with Headless UI: keyboard navigation, Escape, outside clicks and
 * anchoring. Loaded on demand by AccountMenu; `openOnMount` opens it when the click came before the code.
 */
export default function AccountMenuDropdown({ user, openOnMount }: { user: AccountUser; openOnMount: boolean }) {
  const button = useRef<HTMLButtonElement>(null);
  const links = useAccountLinks(user);
  useEffect(() => {
    // The placeholder button this replaces may have had the focus: it goes to the real button.
    const focusLost = !document.activeElement || document.activeElement === document.body;
    if (focusLost) button.current?.focus({ preventScroll: true });
    if (openOnMount) button.current?.click();
    // Only the first mount: the caller's wish is spent once the menu has opened.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <Menu>
      <MenuButton ref={button} className={triggerClass}>
        <Badge user={user} />
      </MenuButton>
      <MenuItems
        anchor={{ to: 'bottom end', gap: 8 }}
        transition
        className={`${panelClass} origin-top-right transition duration-100 ease-out data-[closed]:scale-95 data-[closed]:opacity-0`}
      >
        <MenuSection>
          <MenuHeading className="px-3 pb-1 pt-2 text-xs font-semibold uppercase tracking-wider text-white/70">Account details</MenuHeading>
          <MenuItem disabled as="div">
            <Detail label="Username">{user.username}</Detail>
          </MenuItem>
          <MenuItem disabled as="div">
            <Detail label="Email">{user.email}</Detail>
          </MenuItem>
        </MenuSection>
        <MenuSeparator className="my-1.5 h-px bg-white/10" />
        {links.map((link) => (
          <MenuItem key={link.to}>
            <Link to={link.to} className={menuLinkClass}>
              {link.label}
            </Link>
          </MenuItem>
        ))}
        <LogoutForm>
          <MenuItem>
            <button type="submit" className={logOutClass}>
              Log out
            </button>
          </MenuItem>
        </LogoutForm>
      </MenuItems>
    </Menu>
  );
}
