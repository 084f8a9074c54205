/**
 * Where an item's player stands and how to move it, for the comment form ("at the playhead") and the "1:23" links.
 * The item page's own media element carries `data-item-player` with the item's id.
 */

function playerOf(itemId: string) {
  return document.querySelector<HTMLMediaElement>(`[data-item-player="${CSS.escape(itemId)}"]`);
}

/** The playhead in seconds, or null when the item's player is not on the page. */
export function currentPlayhead(itemId: string): number | null {
  const player = playerOf(itemId);
  return player ? player.currentTime : null;
}

/** Moves the item's player to a moment and plays from there; false when the player is not on the page. */
export function seekTo(itemId: string, seconds: number): boolean {
  const player = playerOf(itemId);
  if (!player) return false;
  player.currentTime = seconds;
  void player.play().catch(() => undefined);
  player.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  return true;
}
