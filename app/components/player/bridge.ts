import { useSyncExternalStore } from 'react';

/**
 * The pages' handle on the player in the layout: small enough for every page, it loads the player itself
 * (engine.ts, and the mini-player) only when a fan first presses play, after the page is interactive. The state lives
 * outside React, so it survives every client-side navigation: the audio keeps playing while the fan browses.
 */

/** A track the player in the layout plays (an item's audio), as the pages hand it over. */
export interface Track {
  itemId: string;
  title: string;
  artistName: string;
  /** The item's page, for the mini-player's title link. */
  href: string;
  /** The signed link of the audio. */
  src: string;
  /** The item's picture (its thumbnail), for the mini-player and the lock screen. */
  artwork: string | null;
}

/** What the pages and the mini-player see of the player. */
export interface PlayerState {
  queue: Track[];
  index: number;
  playing: boolean;
  /** Seconds. */
  position: number;
  /** Seconds; 0 until the browser knows it. */
  duration: number;
}

export const IDLE: PlayerState = { queue: [], index: -1, playing: false, position: 0, duration: 0 };

/** The track of an item with audio (null for any other item). */
export function trackOf(
  item: {
    _id: string;
    title: string;
    performer: { name: string };
    media: { kind: string; url: string } | null;
    thumbnail: { url: string; thumbnailUrl: string | null } | null;
  },
  href: string,
): Track | null {
  if (item.media?.kind !== 'audio') return null;
  return {
    itemId: item._id,
    title: item.title,
    artistName: item.performer.name,
    href,
    src: item.media.url,
    artwork: item.thumbnail ? (item.thumbnail.thumbnailUrl ?? item.thumbnail.url) : null,
  };
}

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
