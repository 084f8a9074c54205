import { useEffect, useState } from 'react';
import type { PushOutcome, PushSwitch as PushSwitchComponent } from './push-switch';

type Status = 'checking' | 'unsupported' | 'blocked' | 'off' | 'on';

/** The work of turning push on or off loads when the fan presses the button, not with the artist's page. */
const loadSwitch = () => import('./push-switch');

/**
 * "Get notified in this browser" (docs/notifications.md "What the fan sees"): turns web push on or off for
 * this browser (push-switch.tsx does the work). Push needs JavaScript, so nothing shows until it runs, nor in a
 * browser without the Push API. Which artists may push is the fan's choice on each account page; this says only
 * whether this browser takes pushes.
 */
export function PushOptIn({ className = '' }: { className?: string }) {
  const [status, setStatus] = useState<Status>('checking');
  const [turning, setTurning] = useState<{ turn: 'on' | 'off'; Switch: typeof PushSwitchComponent | typeof Waiting } | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    if (!('serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window)) return setStatus('unsupported');
    if (Notification.permission === 'denied') return setStatus('blocked');
    let live = true;
    navigator.serviceWorker
      .getRegistration('/')
      .then((registration) => registration?.pushManager.getSubscription())
      .then(
        (subscription) => live && setStatus(subscription ? 'on' : 'off'),
        () => live && setStatus('off'),
      );
    return () => {
      live = false;
    };
  }, []);

  const press = (turn: 'on' | 'off') => {
    setError('');
    setTurning({ turn, Switch: Waiting });
    loadSwitch().then(
      ({ PushSwitch }) => setTurning({ turn, Switch: PushSwitch }),
      () => settle({ error: 'Please check your connection and try again.' }),
    );
  };

  const settle = (outcome: PushOutcome) => {
    setTurning(null);
    if (outcome.status) setStatus(outcome.status);
    else setError(outcome.error);
  };

  if (status === 'checking' || status === 'unsupported') return null;
  const on = status === 'on';
  return (
    <div className={className}>
      {status === 'blocked' ? (
        <p className="text-sm text-white/75">Notifications are blocked for this site in your browser settings.</p>
      ) : (
        <button
          type="button"
          onClick={() => press(on ? 'off' : 'on')}
          disabled={turning !== null}
          aria-busy={turning !== null || undefined}
          className="rounded-full border border-white/40 px-4 py-2.5 text-base font-semibold text-white hover:border-accent hover:text-accent focus:outline-none focus-visible:ring-2 focus-visible:ring-accent disabled:opacity-70"
        >
          {on ? 'Stop notifications in this browser' : 'Get notified in this browser'}
        </button>
      )}
      {turning ? <turning.Switch turn={turning.turn} onSettled={settle} /> : null}
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** While the switch's code is on its way. */
function Waiting() {
  return null;
}
