// @vitest-environment node
import { createRemixStub } from '@remix-run/testing';
import { renderToString } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loginHref, TopBar } from '~/components/top-bar';
import type { CurrentUser } from '~/utils/mappers';

/**
 * What the server sends before (or without) JavaScript. A file of its own: once a component has hydrated in
 * a test file, later renders there are interactive from the start, as they are in the browser.
 */
const fan: CurrentUser = {
  id: 'u1',
  username: 'latefan',
  email: 'late.fan@example.com',
  name: 'latefan',
  artist: false,
  avatarUrl: '/images/default-avatar.svg',
};

function serverHtml(user: CurrentUser | null) {
  const Stub = createRemixStub([{ path: '/:artistUsername/join', Component: () => <TopBar user={user} /> }]);
  return renderToString(<Stub initialEntries={['/thelatenights/join']} />);
}

describe('top bar without JavaScript', () => {
  // The in-memory router of the test stub uses layout effects, which React reports on every server render.
  const consoleError = console.error;
  beforeAll(() => {
    vi.spyOn(console, 'error').mockImplementation((message, ...rest) => {
      if (!String(message).includes('useLayoutEffect does nothing on the server')) consoleError(message, ...rest);
    });
  });
  afterAll(() => vi.restoreAllMocks());

  it('signed out, without JavaScript "Log in" is a link to /login that brings the fan back', () => {
    const html = serverHtml(null);
    expect(html).toContain('href="/login?artist=thelatenights&amp;next=%2Fthelatenights%2Fjoin"');
    expect(loginHref('/')).toBe('/login');
  });

  it('signed in, without JavaScript the account details and "Log out" form sit in a disclosure', () => {
    const html = serverHtml(fan);
    expect(html).toContain('<details');
    expect(html).toContain('Account details');
    expect(html).toContain('late.fan@example.com');
    expect(html).toMatch(/<form method="post" action="\/logout"/);
  });
});
