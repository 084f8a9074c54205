import { audioKey, OFFLINE_CACHE, OWNER_KEY, readOwner, readSavedTrack, trackKey, tracksOf, isTrackKey, type SavedTrack } from './saved';

/**
 * The saved tracks in this browser's Cache Storage (see saved.ts), as the pages read and write them. The service worker
 * deletes entries on its own checks (app/service-worker/offline.ts).
 */

/** A track to save, as the item and collection pages have it (player/bridge.ts). */
export interface TrackToSave {
  itemId: string;
  title: string;
  artistName: string;
  href: string;
  /** The signed link of the audio: fetched once, then kept under the item's stable key. */
  src: string;
}

export class SaveError extends Error {
  constructor(readonly reason: 'network' | 'full') {
    super(reason === 'full' ? 'There is no room left in this browser to save it.' : 'Please check your connection and try again.');
    this.name = 'SaveError';
  }
}

export const offlineSupported = () => typeof window !== 'undefined' && 'caches' in window && 'serviceWorker' in navigator;

export async function savedTracks(cache?: Cache): Promise<SavedTrack[]> {
  const store = cache ?? (await caches.open(OFFLINE_CACHE));
  const keys = (await store.keys()).filter((request) => isTrackKey(new URL(request.url).pathname));
  const tracks = await Promise.all(
    keys.map(async (request) => readSavedTrack(await (await store.match(request))?.json().catch(() => null))),
  );
  return tracks.filter((track): track is SavedTrack => track !== null).sort((a, b) => b.savedAt.localeCompare(a.savedAt));
}

/** The saved tracks the offline page lists: those of the fan this browser last knew signed in (saved.ts tracksOf). */
export async function ownTracks(): Promise<SavedTrack[]> {
  const cache = await caches.open(OFFLINE_CACHE);
  const owner = readOwner(await (await cache.match(OWNER_KEY))?.json().catch(() => null));
  return tracksOf(await savedTracks(cache), owner);
}

export async function isSaved(itemId: string) {
  const cache = await caches.open(OFFLINE_CACHE);
  return Boolean((await cache.match(trackKey(itemId))) && (await cache.match(audioKey(itemId))));
}

/** Downloads the audio and keeps it with what the offline page shows; the audio first, so a listed track always plays. */
export async function saveTrack(track: TrackToSave, userId: string) {
  let audio: Blob;
  try {
    const response = await fetch(track.src, { mode: 'cors', credentials: 'omit' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    audio = await response.blob();
  } catch {
    throw new SaveError('network');
  }
  const cache = await caches.open(OFFLINE_CACHE);
  const saved: SavedTrack = {
    itemId: track.itemId,
    title: track.title,
    artistName: track.artistName,
    href: track.href,
    userId,
    savedAt: new Date().toISOString(),
    size: audio.size,
  };
  try {
    // Only our own headers: the api's (Vary: Origin, its cache rules) would keep the media element's request from matching.
    await cache.put(
      audioKey(track.itemId),
      new Response(audio, { headers: { 'Content-Type': audio.type || 'audio/mp4', 'Content-Length': String(audio.size) } }),
    );
    await cache.put(trackKey(track.itemId), Response.json(saved));
    // The fan saving is the one signed in: theirs are the tracks to show (another fan's, if any, are hidden).
    await cache.put(OWNER_KEY, Response.json({ userId }));
  } catch (error) {
    await removeTrack(track.itemId);
    throw error instanceof DOMException && error.name === 'QuotaExceededError' ? new SaveError('full') : error;
  }
  // Asked once a fan saves something: the browser then keeps the tracks when it runs short of space.
  await navigator.storage?.persist?.().catch(() => false);
  return saved;
}

export async function removeTrack(itemId: string) {
  const cache = await caches.open(OFFLINE_CACHE);
  await Promise.all([cache.delete(trackKey(itemId)), cache.delete(audioKey(itemId))]);
}
