import { Outlet, useLocation, useNavigationType } from '@remix-run/react';
import { fireEvent, render, screen } from '@testing-library/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { Link, useLinkNavigation } from '~/components/link';

/** What the root does: one listener for the page's links. */
function Root() {
  useLinkNavigation();
  return <Outlet />;
}

function Where() {
  const location = useLocation();
  return (
    <p>
      at {location.pathname + location.search + location.hash} by {useNavigationType()}
    </p>
  );
}

function Page() {
  return (
    <>
      <Where />
      <Link to="/thelatenights/vault">Vault</Link>
      <Link to="/thelatenights/posts" replace>
        Posts, replacing
      </Link>
      <Link to="/thelatenights">
        <span>Home</span>
      </Link>
      <Link to="?sort=asc" preventScrollReset>
        Oldest
      </Link>
      <Link to="https://stagedoor.fm/about">About</Link>
      <Link to="/thelatenights/vault" target="_blank">
        Vault, new tab
      </Link>
      <a href="/thelatenights/vault">Plain</a>
    </>
  );
}

/** A browser router, as the app has in the browser: the document's address is the router's. */
function renderApp(entry = '/thelatenights') {
  window.history.replaceState(null, '', entry);
  const router = createBrowserRouter([{ path: '/', Component: Root, children: [{ path: '*', Component: Page }] }]);
  render(<RouterProvider router={router} />);
}

/**
 * Clicks a link as a user does and answers whether the page left the click to the browser. The answer is read on
 * the window, after the document's listener, which then stops the default (jsdom cannot load another page).
 */
function click(name: string, init: MouseEventInit = {}) {
  return clickOn(screen.getByRole('link', { name }), init);
}

function clickOn(target: Element, init: MouseEventInit = {}) {
  let leftToBrowser = false;
  const onClick = (event: MouseEvent) => {
    leftToBrowser = !event.defaultPrevented;
    event.preventDefault();
  };
  window.addEventListener('click', onClick);
  fireEvent.click(target, { button: 0, ...init });
  window.removeEventListener('click', onClick);
  return leftToBrowser;
}

describe('Link', () => {
  it('is its <a> alone on the server, so it works without JavaScript', () => {
    expect(renderToStaticMarkup(<Link to="/thelatenights/vault" className="card">Vault</Link>)).toBe(
      '<a href="/thelatenights/vault" data-link="" class="card">Vault</a>',
    );
    expect(renderToStaticMarkup(<Link to="?sort=asc" replace preventScrollReset>Oldest</Link>)).toBe(
      '<a href="?sort=asc" data-link="replace" data-keep-scroll="">Oldest</a>',
    );
  });

  it('a plain click navigates inside the app, adding to the history', () => {
    renderApp();
    expect(click('Vault')).toBe(false);
    expect(screen.getByText('at /thelatenights/vault by PUSH')).toBeInTheDocument();
  });

  it('a click on what is inside the link counts as a click on the link', () => {
    renderApp('/thelatenights/vault');
    expect(clickOn(screen.getByText('Home'))).toBe(false);
    expect(screen.getByText('at /thelatenights by PUSH')).toBeInTheDocument();
  });

  it('replaces the history entry when asked, and when the link is to the page itself', () => {
    renderApp();
    click('Posts, replacing');
    expect(screen.getByText('at /thelatenights/posts by REPLACE')).toBeInTheDocument();
    click('Vault');
    click('Vault');
    expect(screen.getByText('at /thelatenights/vault by REPLACE')).toBeInTheDocument();
  });

  it('a query alone is resolved against the page, as the browser resolves it', () => {
    renderApp();
    click('Vault');
    click('Oldest');
    expect(screen.getByText('at /thelatenights/vault?sort=asc by PUSH')).toBeInTheDocument();
  });

  it('leaves to the browser a modified click, another button, another target, another origin and other links', () => {
    renderApp();
    for (const init of [{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { altKey: true }, { button: 1 }]) {
      expect(click('Vault', init)).toBe(true);
    }
    expect(click('Vault, new tab')).toBe(true);
    expect(click('About')).toBe(true);
    expect(click('Plain')).toBe(true);
    expect(screen.getByText('at /thelatenights by POP')).toBeInTheDocument();
  });

  it('leaves alone a click the page has already handled', () => {
    renderApp();
    const link = screen.getByRole('link', { name: 'Vault' });
    link.addEventListener('click', (event) => event.preventDefault(), { once: true });
    clickOn(link);
    expect(screen.getByText('at /thelatenights by POP')).toBeInTheDocument();
  });
});
