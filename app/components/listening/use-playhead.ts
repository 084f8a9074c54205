import { useEffect, useState } from 'react';
import { usePlayer } from '../player/bridge';

/**
 * Where an item plays now (seconds), for the transcript's current line: the player in the layout when it holds the
 * item, else the page's own media element (a video, `data-item-player`); null when neither plays it.
 */
export function usePlayhead(itemId: string): number | null {
  const player = usePlayer();
  const [elementTime, setElementTime] = useState<number | null>(null);
  useEffect(() => {
    const element = document.querySelector<HTMLMediaElement>(`[data-item-player="${CSS.escape(itemId)}"]`);
    if (!element) return;
    const update = () => setElementTime(element.currentTime);
    element.addEventListener('timeupdate', update);
    return () => element.removeEventListener('timeupdate', update);
  }, [itemId]);
  if (player.queue[player.index]?.itemId === itemId) return player.position;
  return elementTime;
}
