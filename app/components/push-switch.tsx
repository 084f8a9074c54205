import { useFetcher } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import type { loader as pushKeyLoader, PushActionData } from '~/routes/_auth.notifications_.push';
import { subscribeBrowser, unsubscribeBrowser } from '~/utils/push.client';

const PUSH_ROUTE = '/notifications/push';

export type PushOutcome = { status: 'on' | 'off' | 'blocked'; error?: undefined } | { status?: undefined; error: string };

/**
 * The work behind the push button, loaded when the fan presses it (push-opt-in.tsx): turning on asks for permission,
 * reads the api's VAPID key through the /notifications/push loader, subscribes this browser and hands the
 * subscription to that route's action; turning off unsubscribes and tells the action. Meanwhile it tells a screen
 * reader what is happening (the button only goes busy).
 */
export function PushSwitch({ turn, onSettled }: { turn: 'on' | 'off'; onSettled: (outcome: PushOutcome) => void }) {
  const keyFetcher = useFetcher<typeof pushKeyLoader>();
  const saveFetcher = useFetcher<PushActionData>();
  const { load } = keyFetcher;
  const { submit } = saveFetcher;
  const settled = useRef(onSettled);
  settled.current = onSettled;
  const asked = useRef(false);

  useEffect(() => {
    const save = (fields: Record<string, string>) => {
      asked.current = true;
      submit(fields, { method: 'post', action: PUSH_ROUTE });
    };
    if (turn === 'off') {
      unsubscribeBrowser().then(
        (endpoint) => (endpoint ? save({ intent: 'unsubscribe', endpoint }) : settled.current({ status: 'off' })),
        () => settled.current({ error: 'This browser could not turn notifications off. Please try again.' }),
      );
      return;
    }
    void Notification.requestPermission().then((permission) => {
      if (permission === 'denied') return settled.current({ status: 'blocked' });
      if (permission !== 'granted') return settled.current({ error: 'Allow notifications when your browser asks, to get them here.' });
      load(PUSH_ROUTE);
    });
    // Once per press: the component is mounted for one turn and then unmounted.
  }, [turn, load, submit]);

  const key = keyFetcher.state === 'idle' ? keyFetcher.data?.publicKey : undefined;
  useEffect(() => {
    if (!key) return;
    subscribeBrowser(key).then(
      (subscription) => {
        asked.current = true;
        submit({ intent: 'subscribe', ...subscription }, { method: 'post', action: PUSH_ROUTE });
      },
      () => settled.current({ error: 'This browser could not turn notifications on. Please try again later.' }),
    );
  }, [key, submit]);

  const answer = saveFetcher.state === 'idle' ? saveFetcher.data : undefined;
  useEffect(() => {
    if (!answer || !asked.current) return;
    settled.current(answer.ok ? { status: turn } : { error: answer.error });
  }, [answer, turn]);

  return (
    <span role="status" className="sr-only">
      {turn === 'on' ? 'Turning on notifications in this browser…' : 'Turning off notifications in this browser…'}
    </span>
  );
}
