import { controls, currentItemId, currentPosition, playQueue } from '../player/bridge';
import type { Track } from '../player/bridge';

/**
 * Where an item's player stands and how to move it, for the comment form ("Now") and the "1:23" links: the player
 * in the layout when it holds the item (or the item page offers its track to it), else the page's own media element
 * (a video), which carries `data-item-player` with the item's id.
 */

const pageTracks = new Map<string, Track>();

/** The item page offers its track: a "1:23" link then starts the player in the layout there. */
export function offerTrack(track: Track) {
  pageTracks.set(track.itemId, track);
  return () => {
    if (pageTracks.get(track.itemId) === track) pageTracks.delete(track.itemId);
  };
}

function elementOf(itemId: string) {
  return document.querySelector<HTMLMediaElement>(`[data-item-player="${CSS.escape(itemId)}"]`);
}

/** The playhead in seconds, or null when the item is neither in the player nor on the page. */
export function currentPlayhead(itemId: string): number | null {
  if (currentItemId() === itemId) return currentPosition();
  const element = elementOf(itemId);
  return element ? element.currentTime : null;
}

/** Moves the item's player to a moment and plays from there; false when there is no player for it here. */
export function seekTo(itemId: string, seconds: number): boolean {
  const player = controls();
  if (player && currentItemId() === itemId) {
    player.seek(seconds);
    if (!player.isPlaying()) player.toggle();
    return true;
  }
  const track = pageTracks.get(itemId);
  if (track) {
    void playQueue([track], 0, seconds);
    return true;
  }
  const element = elementOf(itemId);
  if (!element) return false;
  element.currentTime = seconds;
  void element.play().catch(() => undefined);
  element.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  return true;
}
