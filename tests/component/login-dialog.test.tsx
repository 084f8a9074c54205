import { json, type ActionFunctionArgs } from '@remix-run/node';
import { createRemixStub } from '@remix-run/testing';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { LoginDialog } from '~/components/login-dialog';
import { parseForm } from '~/utils/form-schema';
import { LoginSchema } from '#contract/accounts';

const INCORRECT = 'The details you entered are incorrect. Please check your email and password and try again.';
const TECHNICAL = "Sorry, we're currently experiencing technical difficulties. Please try again later.";

/**
 * The dialog runs for real inside a Remix router; only the /login action is a stand-in for the network
 * boundary, answering with the shapes the real action answers (conform's reply: with a form error, or a success).
 */
function renderDialog({
  answer = () => Promise.resolve({ ok: true as const }),
  artist,
}: { answer?: () => Promise<{ ok: true } | { formError: string }>; artist?: string } = {}) {
  const onClose = vi.fn();
  const onSuccess = vi.fn();
  const posted: FormData[] = [];
  const Stub = createRemixStub([
    {
      path: '/',
      Component: () => <LoginDialog open onClose={onClose} onSuccess={onSuccess} artist={artist} />,
    },
    {
      path: '/login',
      async action({ request }: ActionFunctionArgs) {
        const formData = await request.formData();
        posted.push(formData);
        const submission = parseForm(formData, LoginSchema);
        if (submission.status !== 'success') return json(submission.reply({ hideFields: ['password'] }), { status: 400 });
        const result = await answer();
        if ('ok' in result) return json(submission.reply({ hideFields: ['password'] }));
        return json(submission.reply({ formErrors: [result.formError], hideFields: ['password'] }), { status: 400 });
      },
    },
  ]);
  render(<Stub initialEntries={['/']} />);
  return { onClose, onSuccess, posted, user: userEvent.setup() };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const emailInput = () => screen.getByLabelText('Email address');
const passwordInput = () => screen.getByLabelText('Password', { selector: 'input' });
const submitButton = () => screen.getByRole('button', { name: /log in/i });

describe('log-in dialog', () => {
  it('is a modal titled "Log in to your account" with the spec\'s labels and placeholders', async () => {
    renderDialog({ artist: 'novaricci' });
    const dialog = await screen.findByRole('dialog', { name: 'Log in to your account' });
    expect(emailInput()).toHaveAttribute('placeholder', 'Enter your email');
    expect(emailInput()).toHaveAttribute('name', 'usernameOrEmail');
    expect(passwordInput()).toHaveAttribute('placeholder', 'Enter your password');
    expect(passwordInput()).toHaveAttribute('type', 'password');
    expect(within(dialog).getByRole('link', { name: 'Forgot your password' })).toHaveAttribute(
      'href',
      '/password/reset/request?artist=novaricci',
    );
    expect(submitButton()).toHaveTextContent('Log In');
    expect(submitButton()).toBeEnabled();
  });

  it('links "Forgot your password" without an artist when none is in context', async () => {
    renderDialog();
    expect(await screen.findByRole('link', { name: 'Forgot your password' })).toHaveAttribute('href', '/password/reset/request');
  });

  it('shows and hides the password', async () => {
    const { user } = renderDialog();
    await screen.findByRole('dialog');
    await user.type(passwordInput(), 'secret');
    const toggle = screen.getByRole('button', { name: 'Show password' });
    await user.click(toggle);
    expect(passwordInput()).toHaveAttribute('type', 'text');
    expect(passwordInput()).toHaveValue('secret');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(passwordInput()).toHaveAttribute('type', 'password');
  });

  it('validates on submit, then on every change, without posting an invalid form', async () => {
    const { user, posted } = renderDialog();
    await screen.findByRole('dialog');
    // Nothing is said before the first submit.
    await user.type(emailInput(), 'not-an-email');
    expect(screen.queryByText('Please enter a valid email address')).not.toBeInTheDocument();

    await user.clear(emailInput());
    await user.click(submitButton());
    expect(await screen.findByText('Please enter your email address')).toBeInTheDocument();
    expect(screen.getByText('Please enter your password')).toBeInTheDocument();
    expect(emailInput()).toHaveAttribute('aria-invalid', 'true');

    // From now on each change revalidates.
    await user.type(emailInput(), 'fan@');
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    await user.type(emailInput(), 'example.com');
    await waitFor(() => expect(screen.queryByText('Please enter a valid email address')).not.toBeInTheDocument());
    expect(emailInput()).not.toHaveAttribute('aria-invalid');
    await user.type(passwordInput(), 'x');
    await waitFor(() => expect(screen.queryByText('Please enter your password')).not.toBeInTheDocument());
    expect(posted).toHaveLength(0);
  });

  it('disables the button with a spinner while pending, then shows the incorrect-details alert on both inputs', async () => {
    const gate = deferred<{ formError: string }>();
    const { user, posted } = renderDialog({ answer: () => gate.promise });
    await screen.findByRole('dialog');
    await user.type(emailInput(), 'fan@example.com');
    await user.type(passwordInput(), 'wrong-password');
    await user.click(submitButton());

    await waitFor(() => expect(submitButton()).toBeDisabled());
    expect(submitButton()).toHaveAttribute('aria-busy', 'true');
    expect(submitButton().querySelector('svg.animate-spin')).not.toBeNull();

    gate.resolve({ formError: INCORRECT });
    expect(await screen.findByRole('alert')).toHaveTextContent(INCORRECT);
    expect(submitButton()).toBeEnabled();
    expect(emailInput()).toHaveAttribute('aria-invalid', 'true');
    expect(passwordInput()).toHaveAttribute('aria-invalid', 'true');
    expect(emailInput()).toHaveClass('border-red-400');
    expect(passwordInput()).toHaveClass('border-red-400');

    // The dialog posts what the action expects: the form fields and intent=dialog.
    expect(posted).toHaveLength(1);
    expect(Object.fromEntries(posted[0])).toMatchObject({
      usernameOrEmail: 'fan@example.com',
      password: 'wrong-password',
      intent: 'dialog',
    });
  });

  it('clears the previous error while submitting again, and shows the technical-difficulties text', async () => {
    const answers = [deferred<{ formError: string }>(), deferred<{ formError: string }>()];
    let call = 0;
    const { user } = renderDialog({ answer: () => answers[call++].promise });
    await screen.findByRole('dialog');
    await user.type(emailInput(), 'fan@example.com');
    await user.type(passwordInput(), 'wrong-password');
    await user.click(submitButton());
    answers[0].resolve({ formError: INCORRECT });
    expect(await screen.findByRole('alert')).toHaveTextContent(INCORRECT);

    await user.click(submitButton());
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(submitButton()).toBeDisabled();
    expect(emailInput()).not.toHaveAttribute('aria-invalid');

    answers[1].resolve({ formError: TECHNICAL });
    expect(await screen.findByRole('alert')).toHaveTextContent(TECHNICAL);
    expect(emailInput()).toHaveAttribute('aria-invalid', 'true');
    expect(passwordInput()).toHaveAttribute('aria-invalid', 'true');
  });

  it("runs the caller's success action after a successful log-in", async () => {
    const { user, onSuccess } = renderDialog();
    await screen.findByRole('dialog');
    await user.type(emailInput(), 'fan@example.com');
    await user.type(passwordInput(), 'Backstage-Pass-1');
    await user.click(submitButton());
    await waitFor(() => expect(onSuccess).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('asks the caller to close on Escape and on the close button', async () => {
    const { user, onClose } = renderDialog();
    await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});
