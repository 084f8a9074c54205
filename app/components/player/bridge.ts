import { useSyncExternalStore } from 'react';
import { IDLE, type PlayerState, type Track } from './track';

/**
 * The pages' handle on the player in the layout: small enough for every page, it loads the player itself
 * (engine.ts, and the mini-player) only when a fan first presses play, after the page is interactive. The state lives
 * outside React, so it survives every client-side navigation: the audio keeps playing while the fan browses.
 */

type Engine = typeof import('./engine');

let engine: Engine | undefined;
let loading: Promise<Engine> | undefined;
let state: PlayerState = IDLE;
const listeners = new Set<() => void>();

function loadEngine() {
  loading ??= import('./engine').then((loaded) => {
    engine = loaded;
    loaded.connect((next) => {
      state = next;
      for (const listener of listeners) listener();
    });
    return loaded;
  });
  return loading;
}

/** Plays a queue from one of its tracks (at a moment, else where the fan left that track). */
export function playQueue(queue: Track[], index = 0, at?: number) {
  return loadEngine().then((loaded) => loaded.playQueue(queue, index, at));
}

/** The player's state, for React components; IDLE until a fan has pressed play. */
export function usePlayer(): PlayerState {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => IDLE,
  );
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The loaded player's controls (undefined before the first play). */
export function controls() {
  return engine;
}

/** The item now in the player, if any. */
export const currentItemId = () => state.queue[state.index]?.itemId;

/** Where the player is in the item now in it (seconds). */
export const currentPosition = () => state.position;
