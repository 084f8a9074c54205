import type { PlayerState, Track } from './bridge';

/**
 * The player in the layout (loaded by bridge.ts on the first press of play): one audio element outside the page's
 * tree, a queue, the Media Session (lock screen, headset and keyboard media keys, with the artwork), and the place
 * where each track was left, remembered in this browser (localStorage) so a track opens where the fan stopped.
 */

/** bridge.ts's IDLE, written out: a value imported from the bridge would bring it (and React) into this chunk. */
const STOPPED: PlayerState = { queue: [], index: -1, playing: false, position: 0, duration: 0 };

const audio = new Audio();
audio.preload = 'metadata';
let state: PlayerState = STOPPED;
let publish: (state: PlayerState) => void = () => undefined;
let lastSaved = 0;

const POSITION_KEY = (itemId: string) => `stagedoor.position.${itemId}`;
/** Closer to either end than this, a track starts from the top next time. */
const EDGE_SECONDS = 5;

export function connect(listener: (state: PlayerState) => void) {
  publish = listener;
  listener(state);
}

function set(next: Partial<PlayerState>) {
  state = { ...state, ...next };
  publish(state);
}

const current = () => state.queue[state.index];

function remembered(itemId: string) {
  try {
    const value = Number(localStorage.getItem(POSITION_KEY(itemId)));
    return Number.isFinite(value) && value > 0 ? value : 0;
  } catch {
    return 0;
  }
}

function remember(track: Track | undefined, position: number, duration: number) {
  if (!track) return;
  try {
    if (position < EDGE_SECONDS || (duration && duration - position < EDGE_SECONDS)) localStorage.removeItem(POSITION_KEY(track.itemId));
    else localStorage.setItem(POSITION_KEY(track.itemId), String(Math.floor(position)));
  } catch {
    // A browser that keeps nothing (private mode, storage full) only forgets where the fan was.
  }
}

function load(index: number, at?: number) {
  const track = state.queue[index];
  if (!track) return;
  const start = at ?? remembered(track.itemId);
  set({ index, position: start, duration: 0 });
  audio.src = track.src;
  if (start) audio.currentTime = start;
  void audio.play().catch(() => set({ playing: false }));
  describe(track);
}

/** Where the track now playing was left, before another takes its place. */
const rememberCurrent = () => remember(current(), audio.currentTime, audio.duration || 0);

export function playQueue(queue: Track[], index: number, at?: number) {
  const same = current()?.itemId === queue[index]?.itemId;
  if (!same) rememberCurrent();
  state = { ...state, queue };
  if (same && at === undefined) {
    set({ index });
    void audio.play();
    return;
  }
  if (same && at !== undefined) {
    set({ index });
    seek(at);
    void audio.play();
    return;
  }
  load(index, at);
}

export const isPlaying = () => !audio.paused;

export function toggle() {
  if (!current()) return;
  if (audio.paused) void audio.play();
  else audio.pause();
}

export function seek(seconds: number) {
  const end = audio.duration || state.duration || Infinity;
  audio.currentTime = Math.max(0, Math.min(seconds, end));
  set({ position: audio.currentTime });
}

export const skip = (seconds: number) => seek(audio.currentTime + seconds);

export function next() {
  if (state.index + 1 >= state.queue.length) return;
  rememberCurrent();
  load(state.index + 1);
}

export function previous() {
  // As players do: back to the start of the track, unless it has just begun.
  if (audio.currentTime > 3 || state.index === 0) return seek(0);
  rememberCurrent();
  load(state.index - 1);
}

/** Stops and empties the player (the mini-player's close button). */
export function close() {
  rememberCurrent();
  audio.pause();
  audio.removeAttribute('src');
  audio.load();
  set(STOPPED);
  if ('mediaSession' in navigator) navigator.mediaSession.metadata = null;
}

audio.addEventListener('play', () => set({ playing: true }));
audio.addEventListener('pause', () => {
  set({ playing: false });
  rememberCurrent();
});
audio.addEventListener('loadedmetadata', () => set({ duration: audio.duration || 0 }));
audio.addEventListener('timeupdate', () => {
  set({ position: audio.currentTime });
  if (Date.now() - lastSaved > 5000) {
    lastSaved = Date.now();
    rememberCurrent();
  }
  if ('mediaSession' in navigator && audio.duration && 'setPositionState' in navigator.mediaSession) {
    navigator.mediaSession.setPositionState({
      duration: audio.duration,
      position: Math.min(audio.currentTime, audio.duration),
      playbackRate: 1,
    });
  }
});
audio.addEventListener('ended', () => {
  const track = current();
  if (track) {
    try {
      localStorage.removeItem(POSITION_KEY(track.itemId));
    } catch {
      // Nothing kept, nothing to forget.
    }
  }
  if (state.index + 1 < state.queue.length) load(state.index + 1);
  else set({ playing: false, position: 0 });
});

/** The lock screen's and the headset's view of the track, and their buttons. */
function describe(track: Track) {
  if (!('mediaSession' in navigator)) return;
  navigator.mediaSession.metadata = new MediaMetadata({
    title: track.title,
    artist: track.artistName,
    album: 'Stagedoor',
    artwork: track.artwork ? [{ src: track.artwork, sizes: '480x480' }] : [],
  });
}

if ('mediaSession' in navigator) {
  const session = navigator.mediaSession;
  const actions: [MediaSessionAction, MediaSessionActionHandler][] = [
    ['play', () => void audio.play()],
    ['pause', () => audio.pause()],
    ['previoustrack', previous],
    ['nexttrack', next],
    ['seekbackward', (details) => skip(-(details.seekOffset ?? 10))],
    ['seekforward', (details) => skip(details.seekOffset ?? 10)],
    ['seekto', (details) => details.seekTime !== undefined && seek(details.seekTime)],
  ];
  for (const [action, handler] of actions) {
    try {
      session.setActionHandler(action, handler);
    } catch {
      // A browser without this action leaves it to its own controls.
    }
  }
}
