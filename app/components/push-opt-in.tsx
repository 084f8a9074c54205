import { useFetcher } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import type { loader as pushKeyLoader, PushActionData } from '~/routes/_auth.notifications_.push';
import { currentSubscription, pushSupported, subscribeBrowser, unsubscribeBrowser } from '~/utils/push.client';

const PUSH_ROUTE = '/notifications/push';

type Status = 'checking' | 'unsupported' | 'blocked' | 'off' | 'on';

/**
 * "Get notified in this browser" (issue 18): registers the service worker, subscribes with the api's VAPID key (read
 * through the /notifications/push loader) and hands the subscription to that route's action; the same button turns
 * it off. Push needs JavaScript, so nothing shows until it runs, nor in a browser without the Push API. Which
 * artists may push is the fan's choice on each account page; this says only whether this browser takes pushes.
 */
export function PushOptIn({ className = '' }: { className?: string }) {
  const [status, setStatus] = useState<Status>('checking');
  const [working, setWorking] = useState(false);
  const [error, setError] = useState('');
  const keyFetcher = useFetcher<typeof pushKeyLoader>();
  const saveFetcher = useFetcher<PushActionData>();
  const { submit } = saveFetcher;
  /** What the browser did and is waiting for the api to record, with the answer it had before asking. */
  const pending = useRef<{ next: 'on' | 'off'; before: unknown } | null>(null);
  const awaitingKey = useRef(false);

  useEffect(() => {
    if (!pushSupported()) return setStatus('unsupported');
    if (Notification.permission === 'denied') return setStatus('blocked');
    let live = true;
    currentSubscription().then(
      (subscription) => live && setStatus(subscription ? 'on' : 'off'),
      () => live && setStatus('off'),
    );
    return () => {
      live = false;
    };
  }, []);

  const save = (next: 'on' | 'off', fields: Record<string, string>) => {
    pending.current = { next, before: saveFetcher.data };
    submit(fields, { method: 'post', action: PUSH_ROUTE });
  };

  const fail = (message: string) => {
    setWorking(false);
    setError(message);
  };

  // The key has come: subscribe this browser, then tell the api.
  const key = keyFetcher.state === 'idle' ? keyFetcher.data?.publicKey : undefined;
  useEffect(() => {
    if (!key || !awaitingKey.current) return;
    awaitingKey.current = false;
    subscribeBrowser(key).then(
      (subscription) => save('on', { intent: 'subscribe', ...subscription }),
      () => fail('This browser could not turn notifications on. Please try again later.'),
    );
    // save and fail only read refs and stable setters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  // The api has answered.
  const answer = saveFetcher.state === 'idle' ? saveFetcher.data : undefined;
  useEffect(() => {
    const asked = pending.current;
    if (!asked || !answer || answer === asked.before) return;
    pending.current = null;
    setWorking(false);
    if (answer.ok) {
      setStatus(asked.next);
      setError('');
    } else {
      setError(answer.error);
    }
  }, [answer]);

  const turnOn = async () => {
    setWorking(true);
    setError('');
    const permission = await Notification.requestPermission();
    if (permission === 'denied') {
      setWorking(false);
      return setStatus('blocked');
    }
    if (permission !== 'granted') return fail('Allow notifications when your browser asks, to get them here.');
    awaitingKey.current = true;
    keyFetcher.load(PUSH_ROUTE);
  };

  const turnOff = async () => {
    setWorking(true);
    setError('');
    try {
      const endpoint = await unsubscribeBrowser();
      if (endpoint) save('off', { intent: 'unsubscribe', endpoint });
      else {
        setWorking(false);
        setStatus('off');
      }
    } catch {
      fail('This browser could not turn notifications off. Please try again.');
    }
  };

  if (status === 'checking' || status === 'unsupported') return null;
  return (
    <div className={className}>
      {status === 'blocked' ? (
        <p className="text-sm text-white/75">Notifications are blocked for this site in your browser settings.</p>
      ) : (
        <button
          type="button"
          onClick={status === 'on' ? turnOff : turnOn}
          disabled={working}
          aria-busy={working || undefined}
          className="rounded-full border border-white/40 px-4 py-2.5 text-base font-semibold text-white hover:border-accent hover:text-accent focus:outline-none focus-visible:ring-2 focus-visible:ring-accent disabled:opacity-70"
        >
          {status === 'on' ? 'Stop notifications in this browser' : 'Get notified in this browser'}
        </button>
      )}
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}
