import { Form, useActionData } from '@remix-run/react';
import { useState, type FormEvent } from 'react';
import { messageTextError } from '#contract/messages';
import { ErrorList } from '~/components/form-parts';
import type { Message } from '~/utils/messages';
import type { action } from './route';
import { replyError } from './sends';

/**
 * The send form: a plain <Form method="post"> (without JavaScript the page reloads, and the action's
 * errors come back on the field). With JavaScript the same rule is checked in the browser (messageTextError, the
 * schema's twin, so the page ships no zod), and the message goes to `onSend`, which shows it at once; Enter sends,
 * Shift+Enter starts a new line.
 */
export function SendForm({
  clientId: firstClientId,
  onSend,
  viewer,
  conversationId,
  deleteError,
}: {
  clientId: string;
  onSend: (message: Message) => void;
  viewer: { id: string; name: string; username: string; avatarUrl: string };
  conversationId: string;
  /** Why a delete sent from this page (with JavaScript) was refused. */
  deleteError?: string;
}) {
  // A reply here is the action's answer to the page without JavaScript (the page's fetchers keep theirs).
  const lastResult = useActionData<typeof action>();
  const sent = lastResult?.initialValue?.intent;
  const [clientId, setClientId] = useState(firstClientId);
  const [checked, setChecked] = useState<string | null>(null);
  const textError = checked ?? (sent === 'send' ? lastResult?.error?.text?.[0] : undefined);
  const formError = checked || sent !== 'send' ? undefined : replyError(lastResult);
  const refusal = deleteError ?? (sent === 'delete' ? replyError(lastResult) : undefined);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    const text = String(new FormData(event.currentTarget).get('text') ?? '');
    const error = messageTextError(text);
    if (error) {
      event.preventDefault();
      setChecked(error);
      return;
    }
    setChecked(null);
    event.preventDefault();
    onSend({
      id: `pending:${clientId}`,
      conversationId,
      text: text.trim(),
      createdAt: new Date().toISOString(),
      clientId,
      sender: viewer,
      pending: true,
    });
    setClientId(crypto.randomUUID());
    event.currentTarget.reset();
  }

  const textErrorId = 'send-message-text-error';
  const formErrorId = 'send-message-form-error';
  return (
    <div className="sticky bottom-0 -mx-4 border-t border-white/10 bg-navy-dark/95 px-4 pb-4 pt-3 backdrop-blur sm:-mx-6 sm:px-6">
      {refusal ? (
        <p role="alert" className="mb-2 text-sm text-red-300">
          {refusal}
        </p>
      ) : null}
      <Form method="post" noValidate onSubmit={handleSubmit} className="flex items-end gap-3">
        <input type="hidden" name="intent" value="send" />
        <input type="hidden" name="clientId" value={clientId} />
        <div className="min-w-0 flex-1">
          <label htmlFor="send-message-text" className="sr-only">
            Message
          </label>
          <textarea
            id="send-message-text"
            name="text"
            required
            rows={2}
            placeholder="Write a message…"
            defaultValue={sent === 'send' ? String(lastResult?.initialValue?.text ?? '') : undefined}
            aria-invalid={textError ? true : undefined}
            aria-describedby={[textError ? textErrorId : '', formError ? formErrorId : ''].join(' ').trim() || undefined}
            onInput={() => checked && setChecked(null)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                event.preventDefault();
                event.currentTarget.form?.requestSubmit();
              }
            }}
            className={`block w-full resize-none rounded-2xl border bg-navy-light px-4 py-3 text-base text-white placeholder:text-white/60 focus:outline-none focus:ring-2 focus:ring-accent ${
              textError ? 'border-red-400' : 'border-white/20'
            }`}
          />
          <ErrorList id={textErrorId} errors={textError ? [textError] : undefined} />
          <ErrorList id={formErrorId} errors={formError ? [formError] : undefined} />
        </div>
        <button
          type="submit"
          className="shrink-0 rounded-full bg-accent px-5 py-3 text-base font-bold text-navy hover:bg-accent/90 focus:outline-none focus-visible:ring-2 focus-visible:ring-white"
        >
          Send
        </button>
      </Form>
    </div>
  );
}
