import { createRemixStub } from '@remix-run/testing';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ErrorPage } from '~/components/error-page';

function renderErrorPage(notFound: boolean, artistUsername?: string, club?: { username: string; name: string }) {
  const Stub = createRemixStub([
    {
      path: '*',
      Component: () => (
        <ErrorPage notFound={notFound} artistUsername={artistUsername} marketingUrl="https://stagedoor.example" club={club} />
      ),
    },
  ]);
  render(<Stub />);
}

describe('error page', () => {
  it('says a page does not exist and leads home, even from an artist page', () => {
    renderErrorPage(true, 'novaricci');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent("Uh, oh, This page doesn't seem to exist.");
    expect(screen.getByRole('link', { name: 'Head back to the homepage.' })).toHaveAttribute('href', '/');
    expect(screen.getByText('That definitely exists.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to homepage' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('link', { name: /vault/ })).not.toBeInTheDocument();
  });

  it('inside a club whose artist loaded (a deleted item), also leads back to the club’s vault', () => {
    renderErrorPage(true, 'novaricci', { username: 'novaricci', name: 'Nova Ricci' });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent("Uh, oh, This page doesn't seem to exist.");
    expect(screen.getByRole('link', { name: 'See what else Nova Ricci has in the vault' })).toHaveAttribute('href', '/novaricci/vault');
    expect(screen.getByRole('link', { name: 'Head back to the homepage.' })).toHaveAttribute('href', '/');
  });

  it('after any other failure apologises, links the contact page, and leads back to the artist', () => {
    renderErrorPage(false, 'novaricci');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent("Sorry. Something's gone wrong.");
    expect(screen.getByText('Try refreshing the page or heading back to the previous page.')).toBeInTheDocument();
    const contact = screen.getByRole('link', { name: /^If you keep having problems, please report the issue to our team\./ });
    expect(contact).toHaveAttribute('href', 'https://stagedoor.example/contact');
    expect(contact).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('link', { name: 'Back to homepage' })).toHaveAttribute('href', '/novaricci');
  });

  it('leads home after a failure outside any artist page, and hides the user badge', () => {
    renderErrorPage(false);
    expect(screen.getByRole('link', { name: 'Back to homepage' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('button', { name: /Logged in as/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Log in' })).not.toBeInTheDocument();
  });
});
