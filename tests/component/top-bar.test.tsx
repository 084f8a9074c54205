import { createRemixStub } from '@remix-run/testing';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { TopBar, type NotificationsBellData } from '~/components/top-bar';
import type { CurrentUser } from '~/utils/mappers';

/** The menu's and the dialog's code loads on the click (a dynamic import): the first one in a test run is slow. */
const LAZY = { timeout: 5000 };

const fan: CurrentUser = {
  id: 'u1',
  username: 'latefan',
  email: 'late.fan@example.com',
  name: 'latefan',
  artist: false,
  avatarUrl: '/images/default-avatar.svg',
};

function stub(user: CurrentUser | null, notifications?: NotificationsBellData) {
  return createRemixStub([{ path: '/:artistUsername/join', Component: () => <TopBar user={user} notifications={notifications} /> }]);
}

describe('top bar', () => {
  it('signed out, "Log in" opens the log-in dialog in context of the page\'s artist', async () => {
    const Stub = stub(null);
    render(<Stub initialEntries={['/thelatenights/join']} />);
    const banner = screen.getByRole('banner');
    await userEvent.setup().click(await within(banner).findByRole('button', { name: 'Log in' }));
    const dialog = await screen.findByRole('dialog', { name: 'Log in to your account' }, LAZY);
    expect(within(dialog).getByRole('link', { name: 'Forgot your password' })).toHaveAttribute(
      'href',
      '/password/reset/request?artist=thelatenights',
    );
  });

  it('signed in, shows the user badge instead of "Log in"', async () => {
    const Stub = stub(fan);
    render(<Stub initialEntries={['/thelatenights/join']} />);
    expect(await screen.findByRole('button', { name: 'Logged in as latefan' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Log in' })).not.toBeInTheDocument();
  });

  it('signed in as a fan, the bell links to the notifications page and says how many are unread', async () => {
    const Stub = stub(fan, { unread: 3 });
    render(<Stub initialEntries={['/thelatenights/join']} />);
    const bell = await screen.findByRole('link', { name: 'Notifications, 3 unread' });
    expect(bell).toHaveAttribute('href', '/notifications');
    expect(within(bell).getByTestId('notifications-unread')).toHaveTextContent('3');
  });

  it('the bell without unread ones has no badge, and a large count is capped', async () => {
    const { unmount } = render(createElementOf(stub(fan, { unread: 0 })));
    const quiet = await screen.findByRole('link', { name: 'Notifications' });
    expect(within(quiet).queryByTestId('notifications-unread')).toBeNull();
    unmount();
    render(createElementOf(stub(fan, { unread: 120 })));
    expect(
      within(await screen.findByRole('link', { name: 'Notifications, 120 unread' })).getByTestId('notifications-unread'),
    ).toHaveTextContent('99+');
  });

  it('no bell when the page has none to show (an artist, or signed out)', async () => {
    const Stub = stub(fan);
    render(<Stub initialEntries={['/thelatenights/join']} />);
    await screen.findByRole('button', { name: 'Logged in as latefan' });
    expect(screen.queryByRole('link', { name: /^Notifications/ })).toBeNull();
  });
});

function createElementOf(Stub: ReturnType<typeof stub>) {
  return <Stub initialEntries={['/thelatenights/join']} />;
}
