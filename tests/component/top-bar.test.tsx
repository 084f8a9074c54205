import { createRemixStub } from '@remix-run/testing';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { TopBar } from '~/components/top-bar';
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

function stub(user: CurrentUser | null) {
  return createRemixStub([{ path: '/:artistUsername/join', Component: () => <TopBar user={user} /> }]);
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

});
