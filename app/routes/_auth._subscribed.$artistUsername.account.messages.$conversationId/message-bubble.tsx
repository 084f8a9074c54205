import { Form, Link, useFetcher } from '@remix-run/react';
import { moderationMessages } from '#contract/moderation-messages';
import { useState } from 'react';
import { LocalTime } from '~/components/local-time';
import { useHydrated } from '~/components/use-hydrated';
import type { Message } from '~/utils/messages';
import type { clientAction } from './route';
import { replyError, sendKey } from './sends';

/**
 * A message of this tab's that the api has not stored yet: "Sending…" while its fetcher is on its way, then why it
 * was not sent (`unsent`: it could not even be posted), with Retry.
 */
export function PendingMessage({ message, unsent, onRetry }: { message: Message; unsent?: string; onRetry: () => void }) {
  const fetcher = useFetcher<typeof clientAction>({ key: sendKey(message.clientId ?? '') });
  const refused = fetcher.data?.status === 'error' ? replyError(fetcher.data, 'text') : undefined;
  const failure = fetcher.state === 'idle' ? (unsent ?? refused) : undefined;
  // Held for the artist's review is not a failure: nothing to retry.
  if (failure === moderationMessages.heldMessage) return <MessageBubble message={message} mine seen={false} note={failure} />;
  return <MessageBubble message={message} mine seen={false} failure={failure} onRetry={onRetry} />;
}

export function MessageBubble({
  message,
  mine,
  seen,
  failure,
  note,
  onRetry,
  onDelete,
  blockHref,
  reportHref,
}: {
  message: Message;
  mine: boolean;
  seen: boolean;
  failure?: string;
  /** A word about the message instead of its time (held for review). */
  note?: string;
  /** The artist's view of a fan's message: the way to block its sender (a confirmation page). */
  blockHref?: string;
  /** A fan's view of the other member's message: the way to report it. */
  reportHref?: string;
  onRetry?: () => void;
  /** Only the viewer's stored messages can be deleted. */
  onDelete?: () => void;
}) {
  const hydrated = useHydrated();
  const [confirming, setConfirming] = useState(false);
  return (
    <li className={`flex flex-col ${mine ? 'items-end' : 'items-start'}`} data-testid="message" aria-busy={message.pending || undefined}>
      <div
        className={`max-w-[85%] whitespace-pre-wrap break-words rounded-2xl px-4 py-2.5 text-base sm:max-w-[70%] ${
          mine ? 'rounded-br-md bg-accent text-navy' : 'rounded-bl-md bg-navy-light text-white ring-1 ring-white/10'
        } ${message.pending && !failure ? 'opacity-70' : ''}`}
      >
        <span className="sr-only">{mine ? 'You' : message.sender.name || message.sender.username}: </span>
        {message.text}
      </div>
      <div className="mt-1 flex items-center gap-3 px-1 text-xs text-white/70">
        {failure ? (
          <>
            <span role="alert" className="text-red-300">
              {failure}
            </span>
            <button type="button" onClick={onRetry} className="font-semibold text-accent underline">
              Retry
            </button>
          </>
        ) : note ? (
          <span role="status">{note}</span>
        ) : message.pending ? (
          <span>Sending…</span>
        ) : (
          <LocalTime iso={message.createdAt} style="long" />
        )}
        {seen ? <span>Seen</span> : null}
        {blockHref ? (
          <Link to={blockHref} className="font-semibold text-white/80 underline hover:text-white">
            Block<span className="sr-only"> {message.sender.name || message.sender.username}</span>
          </Link>
        ) : null}
        {reportHref ? (
          <Link to={reportHref} className="font-semibold text-white/80 underline hover:text-white">
            Report<span className="sr-only"> this message</span>
          </Link>
        ) : null}
        {mine && !message.pending ? (
          hydrated ? (
            confirming ? (
              // It goes for both members and cannot come back: one more press, as a messenger asks.
              <span className="flex items-center gap-3">
                <span className="text-white">Delete for both of you?</span>
                <button type="button" onClick={onDelete} className="font-semibold text-red-300 underline hover:text-red-200">
                  Yes, delete
                </button>
                <button
                  type="button"
                  onClick={() => setConfirming(false)}
                  className="font-semibold text-white/80 underline hover:text-white"
                >
                  Keep
                </button>
              </span>
            ) : (
              <button type="button" onClick={() => setConfirming(true)} className="font-semibold text-white/80 underline hover:text-white">
                Delete<span className="sr-only"> message</span>
              </button>
            )
          ) : (
            <Form method="post" className="inline">
              <input type="hidden" name="intent" value="delete" />
              <input type="hidden" name="messageId" value={message.id} />
              <button type="submit" className="font-semibold text-white/80 underline hover:text-white">
                Delete<span className="sr-only"> message</span>
              </button>
            </Form>
          )
        ) : null}
      </div>
    </li>
  );
}
