import type { SubmissionResult } from '@conform-to/react';
import { useFetchers, useSubmit } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import type { Message } from '~/utils/messages';

export const NOT_SENT = 'Not sent: check your connection and try again.';
export const NOT_DELETED = 'Not deleted: check your connection and try again.';

/** The fetcher of one message on its way, named by its clientId: Retry goes through the same one. */
export const sendKey = (clientId: string) => `send-message:${clientId}`;

/** What the page shows of a refused form: the reason on the field, or the one for the whole form. */
export function replyError(reply: SubmissionResult<string[]> | undefined, field?: string) {
  return (field && reply?.error?.[field]?.[0]) || reply?.error?.['']?.[0] || undefined;
}

/**
 * This tab's messages on their way. Each shows at once as pending and goes to the page's action through a fetcher of
 * its own, with the same clientId on every attempt, so a resend is never a second message. The pending copy goes
 * once the stored one is here: among the `live` ones the socket brought, or the `loaded` ones of the loader, which
 * runs again after the fetcher's answer.
 */
export function useSends(loaded: Message[], live: Message[], viewerId: string) {
  const submit = useSubmit();
  const [sends, setSends] = useState<Message[]>([]);
  /** Messages not even posted, by clientId: the browser was offline (the page's revalidation would fail too). */
  const [unsent, setUnsent] = useState<Record<string, string>>({});

  useEffect(() => {
    const stored = new Set([...loaded, ...live].flatMap((m) => (m.sender.id === viewerId && m.clientId ? [m.clientId] : [])));
    setSends((current) =>
      current.some((m) => stored.has(m.clientId ?? '')) ? current.filter((m) => !stored.has(m.clientId ?? '')) : current,
    );
  }, [loaded, live, viewerId]);

  function post(message: Message) {
    const clientId = message.clientId ?? '';
    if (!navigator.onLine) {
      setUnsent((current) => ({ ...current, [clientId]: NOT_SENT }));
      return;
    }
    setUnsent(({ [clientId]: _, ...rest }) => rest);
    const data = { intent: 'send', text: message.text, clientId, stay: 'true' };
    submit(data, { method: 'post', navigate: false, fetcherKey: sendKey(clientId) });
  }

  const fetchers = useFetchers();
  const autoResent = useRef(new Set<string>());
  /** A message whose post failed: never sent (offline), or lost on the way. */
  const failed = (message: Message) => {
    const clientId = message.clientId ?? '';
    if (unsent[clientId]) return true;
    const fetcher = fetchers.find((f) => f.key === sendKey(clientId));
    return fetcher?.state === 'idle' && (fetcher.data as SubmissionResult<string[]> | undefined)?.error?.['']?.[0] === NOT_SENT;
  };

  return {
    sends,
    unsent,
    send(message: Message) {
      setSends((current) => [...current, message]);
      post(message);
    },
    retry: post,
    /**
     * The connection is back (the browser is online, the socket connected again): each message that failed goes
     * again by itself, once, with its clientId, so the api keeps a single copy. After that, Retry is the fan's.
     */
    resendFailed() {
      for (const message of sends.filter(failed)) {
        const clientId = message.clientId ?? '';
        if (autoResent.current.has(clientId)) continue;
        autoResent.current.add(clientId);
        post(message);
      }
    },
  };
}
