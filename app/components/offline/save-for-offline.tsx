import { useRouteLoaderData } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { audioKey, OFFLINE_CACHE, OFFLINE_PAGE, readSavedTrack, trackKey } from '~/offline/saved';
import type { loader as rootLoader } from '~/root';
import type { Track } from '../player/bridge';

type Status = 'hidden' | 'unsaved' | 'saving' | 'saved' | 'removing';

/** The saving itself loads when the fan presses the button, not with the page. */
const loadStore = () => import('~/offline/store');

/** Whether this fan has saved every one of the tracks (another fan's copy, left in this browser, is not theirs). */
async function allSaved(tracks: Track[], userId: string) {
  const cache = await caches.open(OFFLINE_CACHE);
  const found = await Promise.all(
    tracks.map(async (track) => {
      const saved = readSavedTrack(await (await cache.match(trackKey(track.itemId)))?.json().catch(() => null));
      return saved?.userId === userId && Boolean(await cache.match(audioKey(track.itemId)));
    }),
  );
  return found.every(Boolean);
}

/**
 * "Save for offline" (docs/listening.md "Offline") on a track's page or a collection: keeps the audio in this browser
 * for the offline page. A progressive enhancement: it shows only once JavaScript runs in a browser with a service
 * worker and Cache Storage, and never in lite mode (which runs no script). The service worker deletes what the fan
 * can no longer open.
 */
export function SaveForOffline({ tracks, className = '' }: { tracks: Track[]; className?: string }) {
  const root = useRouteLoaderData<typeof rootLoader>('root');
  const userId = root?.user?.id;
  const [status, setStatus] = useState<Status>('hidden');
  const [error, setError] = useState('');
  const ids = tracks.map((track) => track.itemId).join(' ');

  useEffect(() => {
    if (!userId || root?.lite || !tracks.length || !('caches' in window && 'serviceWorker' in navigator)) return;
    let live = true;
    allSaved(tracks, userId).then(
      (saved) => live && setStatus(saved ? 'saved' : 'unsaved'),
      () => live && setStatus('hidden'),
    );
    return () => {
      live = false;
    };
    // The tracks' ids say when to look again; a new array of the same tracks does not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ids, userId, root?.lite]);

  if (status === 'hidden' || !userId) return null;
  const several = tracks.length > 1;

  const save = async () => {
    setError('');
    setStatus('saving');
    try {
      const { saveTrack } = await loadStore();
      for (const track of tracks) await saveTrack(track, userId);
      setStatus('saved');
    } catch (failure) {
      setStatus('unsaved');
      setError(failure instanceof Error && failure.name === 'SaveError' ? failure.message : 'This could not be saved. Please try again.');
    }
  };

  const remove = async () => {
    setError('');
    setStatus('removing');
    const { removeTrack } = await loadStore();
    await Promise.all(tracks.map((track) => removeTrack(track.itemId)));
    setStatus('unsaved');
  };

  const button =
    'inline-flex items-center gap-2 rounded-full border border-white/40 px-4 py-2 text-base font-semibold text-white hover:border-accent hover:text-accent focus:outline-none focus-visible:ring-2 focus-visible:ring-accent focus-visible:ring-offset-2 focus-visible:ring-offset-navy disabled:opacity-70';
  return (
    <div className={className}>
      <div className="flex flex-wrap items-center gap-3">
        {status === 'saved' || status === 'removing' ? (
          <>
            <p className="inline-flex items-center gap-2 text-base font-semibold text-accent">
              <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="h-5 w-5">
                <path d="M8 13.2 4.8 10l-1.4 1.4L8 16l9-9-1.4-1.4z" />
              </svg>
              Saved for offline
            </p>
            {/* A plain link: the offline page is not one of the app's routes but a page the worker keeps. */}
            <a href={OFFLINE_PAGE} className="text-base font-semibold text-white underline underline-offset-4 hover:text-accent">
              Saved tracks
            </a>
            <button type="button" onClick={() => void remove()} disabled={status === 'removing'} className={button}>
              Remove from offline
            </button>
          </>
        ) : (
          <button
            type="button"
            onClick={() => void save()}
            disabled={status === 'saving'}
            aria-busy={status === 'saving' || undefined}
            className={button}
          >
            <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="h-5 w-5">
              <path d="M9 3h2v8.2l2.6-2.6 1.4 1.4-5 5-5-5 1.4-1.4L9 11.2zM4 15h12v2H4z" />
            </svg>
            {status === 'saving' ? 'Saving…' : several ? `Save for offline (${tracks.length} tracks)` : 'Save for offline'}
          </button>
        )}
      </div>
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}
