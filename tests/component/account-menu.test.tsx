import { json, type ActionFunctionArgs } from '@remix-run/node';
import { createRemixStub } from '@remix-run/testing';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AccountMenu } from '~/components/account-menu';

/** The menu's and the dialog's code loads on the click (a dynamic import): the first one in a test run is slow. */
const LAZY = { timeout: 5000 };

const fan = { username: 'juniperfan', email: 'juniper.fan@example.com', avatarUrl: '/images/default-avatar.svg', artist: false };
const artist = { username: 'novaricci', email: 'nova@example.com', avatarUrl: '/images/default-avatar.svg', artist: true };

function renderMenu(path = '/novaricci/vault?sort=asc', who: typeof fan = fan) {
  const posted: FormData[] = [];
  const Stub = createRemixStub([
    { path: '/:artistUsername/*', Component: () => <AccountMenu user={who} /> },
    { path: '/discover', Component: () => <AccountMenu user={who} /> },
    {
      path: '/logout',
      async action({ request }: ActionFunctionArgs) {
        posted.push(await request.formData());
        return json(null);
      },
    },
  ]);
  render(<Stub initialEntries={[path]} />);
  return { posted, user: userEvent.setup() };
}

describe('account menu', () => {
  it('is triggered by the user badge: the avatar and "Logged in as" with the username', async () => {
    renderMenu();
    const trigger = await screen.findByRole('button', { name: 'Logged in as juniperfan' });
    expect(trigger).toHaveAttribute('aria-expanded', 'false');
    expect(within(trigger).getByRole('presentation', { hidden: true })).toHaveAttribute('src', fan.avatarUrl);
    expect(screen.queryByText('Account details')).not.toBeInTheDocument();
  });

  it('opens a 250 px panel with "Account details", the username, the email and "Log out"', async () => {
    const { user } = renderMenu();
    await user.click(await screen.findByRole('button', { name: 'Logged in as juniperfan' }));
    const menu = await screen.findByRole('menu', {}, LAZY);
    expect(menu).toHaveClass('w-[250px]');
    expect(within(menu).getByText('Account details')).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Username juniperfan' })).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Email juniper.fan@example.com' })).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Log out' })).toBeInTheDocument();
  });

  it('closes again on Escape', async () => {
    const { user } = renderMenu();
    await user.click(await screen.findByRole('button', { name: 'Logged in as juniperfan' }));
    await screen.findByRole('menu', {}, LAZY);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
  });

  it('logs out with a form post to /logout that carries the current page', async () => {
    const { user, posted } = renderMenu();
    await user.click(await screen.findByRole('button', { name: 'Logged in as juniperfan' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Log out' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0].get('redirectTo')).toBe('/novaricci/vault?sort=asc');
  });

  it('leads a fan in a club to their membership there, and nowhere else outside a club', async () => {
    const { user } = renderMenu();
    await user.click(await screen.findByRole('button', { name: 'Logged in as juniperfan' }));
    const menu = await screen.findByRole('menu', {}, LAZY);
    expect(within(menu).getByRole('menuitem', { name: 'Your membership' })).toHaveAttribute('href', '/novaricci/account#membership-title');
    expect(within(menu).queryByRole('menuitem', { name: 'Studio' })).not.toBeInTheDocument();
  });

  it('leads an artist to their studio from any page, in their own club or elsewhere', async () => {
    const { user } = renderMenu('/discover', artist);
    await user.click(await screen.findByRole('button', { name: 'Logged in as novaricci' }));
    const menu = await screen.findByRole('menu', {}, LAZY);
    expect(within(menu).getByRole('menuitem', { name: 'Studio' })).toHaveAttribute('href', '/novaricci/account');
    expect(within(menu).queryByRole('menuitem', { name: 'Your membership' })).not.toBeInTheDocument();
  });
});
