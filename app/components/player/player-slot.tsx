import { lazy, Suspense } from 'react';
import { usePlayer } from './bridge';

const MiniPlayer = lazy(() => import('./mini-player'));

/**
 * Where the layout keeps the mini-player: nothing (and none of its code) until a fan first presses play, then the
 * mini-player, with room below the page so it never covers the footer.
 */
export function PlayerSlot() {
  const { queue } = usePlayer();
  if (!queue.length) return null;
  return (
    <>
      <div aria-hidden="true" className="h-24" />
      <Suspense fallback={null}>
        <MiniPlayer />
      </Suspense>
    </>
  );
}
