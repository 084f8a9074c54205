import { useFetcher } from '@remix-run/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Message } from '~/utils/messages';
import type { clientAction } from './route';
import { NOT_DELETED, replyError } from './sends';

/**
 * Deleting the viewer's messages through a fetcher: the message goes at once; if it is refused, it comes back with the
 * reason. `hide` is for the messages the socket says were deleted.
 */
export function useDeletion() {
  const deletion = useFetcher<typeof clientAction>();
  const [deleted, setDeleted] = useState<ReadonlySet<string>>(new Set());
  const [offline, setOffline] = useState(false);
  const hide = useCallback((id: string) => setDeleted((current) => new Set(current).add(id)), []);

  const refused = deletion.state === 'idle' && deletion.data?.status === 'error' ? deletion.data : undefined;
  useEffect(() => {
    const id = refused?.initialValue?.messageId;
    if (typeof id !== 'string') return;
    setDeleted((current) => {
      const next = new Set(current);
      next.delete(id);
      return next;
    });
  }, [refused]);

  function remove(message: Message) {
    // Offline, the post would fail, and so would the page's revalidation after it: the message stays, with why.
    setOffline(!navigator.onLine);
    if (!navigator.onLine) return;
    hide(message.id);
    deletion.submit({ intent: 'delete', messageId: message.id, stay: 'true' }, { method: 'post' });
  }

  return { deleted, hide, remove, deleteError: offline ? NOT_DELETED : replyError(refused) };
}

/** Marks the open conversation read when a message arrives in it, at most once per burst of messages. */
export function useReadMarker() {
  const { submit } = useFetcher();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => submit({ intent: 'read' }, { method: 'post' }), 300);
  }, [submit]);
}

/** Keeps the newest message in view: on arrival, and whenever a new one comes in while the reader is near the end. */
export function useScrollToLatest(newestId: string | undefined) {
  const first = useRef(true);
  useEffect(() => {
    const end = document.getElementById('latest');
    if (!end) return;
    const nearEnd = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 400;
    if (first.current || nearEnd) end.scrollIntoView({ block: 'end' });
    first.current = false;
  }, [newestId]);
}
