import { useEffect, useRef } from 'react';
import { subscribe } from './realtime.client';

/**
 * Runs `handler` for each `event` the realtime connection delivers while the component is mounted. The latest
 * handler is always the one called, so it may read current state without re-subscribing on every render.
 * `connect` fires on the first connection and on every reconnect (the socket's own event).
 */
export function useRealtimeEvent<T>(event: string, handler: (payload: T) => void) {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => subscribe(event, ((payload: T) => latest.current(payload)) as never), [event]);
}
