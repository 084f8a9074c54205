/**
 * Offline listening (docs/listening.md "Offline"): what a saved track is and where it lives. Shared by the
 * pages (the "Save for offline" button, the offline page) and the service worker; nothing here touches the network.
 *
 * A saved track is two entries of one named Cache: its audio under a stable address of this site
 * (`/offline/audio/<item id>`, which only the service worker answers, Range requests included) and what the offline
 * page shows of it (`/offline/tracks/<item id>`, JSON). The signed link the audio came from expires; the key does not.
 */

import { OFFLINE_CHECK_LIMIT } from '#contract/offline';

export const OFFLINE_CACHE = 'stagedoor-offline';
/** The page listing the saved tracks; the service worker also answers any page it cannot load with it. */
export const OFFLINE_PAGE = '/offline';
/** The web tier's answer to "which of these items may the signed-in fan still open?". */
export const OFFLINE_CHECK = '/offline/check';
/** At most this many items are asked about in one request (more is refused). */
export const CHECK_LIMIT = OFFLINE_CHECK_LIMIT;
/** The worker asks the api at most this often as the fan opens pages; the offline page has it ask at once. */
export const CHECK_INTERVAL_MS = 60_000;

/**
 * Who the saved tracks are for (`{ userId }`, JSON): the fan who saved the last one, or whom the last check found signed
 * in. The offline page lists, and the worker plays, only that fan's tracks; with nobody known, none.
 */
export const OWNER_KEY = '/offline/owner';

const AUDIO_PREFIX = '/offline/audio/';
const TRACK_PREFIX = '/offline/tracks/';

export const audioKey = (itemId: string) => `${AUDIO_PREFIX}${encodeURIComponent(itemId)}`;
export const trackKey = (itemId: string) => `${TRACK_PREFIX}${encodeURIComponent(itemId)}`;
/** The item id of an audio key (`/offline/audio/<id>`), or undefined for any other address. */
export const itemOfAudioKey = (pathname: string) =>
  pathname.startsWith(AUDIO_PREFIX) && pathname.length > AUDIO_PREFIX.length
    ? decodeURIComponent(pathname.slice(AUDIO_PREFIX.length))
    : undefined;
export const isAudioKey = (pathname: string) => pathname.startsWith(AUDIO_PREFIX) && pathname.length > AUDIO_PREFIX.length;
export const isTrackKey = (pathname: string) => pathname.startsWith(TRACK_PREFIX) && pathname.length > TRACK_PREFIX.length;

/** What the offline page knows of a saved track. */
export interface SavedTrack {
  itemId: string;
  title: string;
  artistName: string;
  /** The item's page (online). */
  href: string;
  /** The fan who saved it: another fan signing in on this browser does not inherit it. */
  userId: string;
  /** ISO time. */
  savedAt: string;
  /** Bytes of audio. */
  size: number;
}

/** A stored entry read back, or null for anything that is not one (an older shape, a damaged entry). */
export function readSavedTrack(value: unknown): SavedTrack | null {
  if (!value || typeof value !== 'object') return null;
  const entry = value as Record<string, unknown>;
  const strings = ['itemId', 'title', 'artistName', 'href', 'userId', 'savedAt'] as const;
  if (!strings.every((key) => typeof entry[key] === 'string' && entry[key] !== '')) return null;
  if (typeof entry.size !== 'number' || !Number.isFinite(entry.size) || entry.size < 0) return null;
  return {
    itemId: entry.itemId as string,
    title: entry.title as string,
    artistName: entry.artistName as string,
    href: entry.href as string,
    userId: entry.userId as string,
    savedAt: entry.savedAt as string,
    size: entry.size,
  };
}

/** The owner entry read back: a user id, or null for nobody (no entry, or one of another shape). */
export function readOwner(value: unknown): string | null {
  const userId = value && typeof value === 'object' ? (value as Record<string, unknown>).userId : undefined;
  return typeof userId === 'string' && userId !== '' ? userId : null;
}

/**
 * The saved tracks this browser may list and play: only those saved by the fan it last knew signed in. Another fan's
 * (left by a session that ended without the browser clearing them) are never shown nor played, only deleted.
 */
export function tracksOf(saved: SavedTrack[], owner: string | null) {
  return owner === null ? [] : saved.filter((track) => track.userId === owner);
}

/**
 * Whether a request may change who is signed in: logging out (any form), or the posts that sign someone in (the
 * log-in form, registering on an artist's page, opening a gift with a new account). Until the next check says who
 * it is, no saved track is anyone's.
 */
export function changesSession(method: string, pathname: string) {
  if (pathname === '/logout') return true;
  if (method !== 'POST') return false;
  return pathname === '/login' || /^\/[^/]+\/subscribe\/register\/?$/.test(pathname) || /^\/gift\/[^/]+\/?$/.test(pathname);
}

/** The web tier's answer on OFFLINE_CHECK: who is signed in (null for nobody) and which of the asked items they may open. */
export interface OfflineCheck {
  userId: string | null;
  playable: string[];
}

export function readOfflineCheck(value: unknown): OfflineCheck | null {
  if (!value || typeof value !== 'object') return null;
  const { userId, playable } = value as Record<string, unknown>;
  if (!(userId === null || typeof userId === 'string')) return null;
  if (!Array.isArray(playable) || !playable.every((id) => typeof id === 'string')) return null;
  return { userId, playable };
}

/**
 * The saved items to delete, given the web tier's answer about `asked` (the ids it was asked about): all of them for
 * a signed-out browser, those of another fan, and those the fan can no longer open (membership ended for an item not
 * theirs to keep, a refund, a dispute, the item deleted). An item that was not asked about stays until it is.
 */
export function tracksToRemove(saved: SavedTrack[], asked: string[], answer: OfflineCheck): string[] {
  const playable = new Set(answer.playable);
  const wasAsked = new Set(asked);
  return saved
    .filter((track) => {
      if (answer.userId === null || track.userId !== answer.userId) return true;
      return wasAsked.has(track.itemId) && !playable.has(track.itemId);
    })
    .map((track) => track.itemId);
}

/** The ids to ask about, CHECK_LIMIT to a request. */
export function checkBatches(saved: SavedTrack[]) {
  const ids = saved.map((track) => track.itemId);
  const batches: string[][] = [];
  for (let start = 0; start < ids.length; start += CHECK_LIMIT) batches.push(ids.slice(start, start + CHECK_LIMIT));
  return batches;
}

/** Whether a page load's request to check should reach the api now. */
export function checkIsDue(lastCheckedAt: number | undefined, now: number, force: boolean) {
  return force || lastCheckedAt === undefined || now - lastCheckedAt >= CHECK_INTERVAL_MS;
}

/** "4.2 MB", for the offline page. */
export function formatSize(bytes: number) {
  if (bytes < 1_000_000) return `${Math.max(1, Math.round(bytes / 1000))} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
