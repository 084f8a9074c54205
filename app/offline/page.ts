import { CHECK_MESSAGE } from './message';
import { audioKey, formatSize, OFFLINE_CACHE, type SavedTrack } from './saved';
import { offlineSupported, ownTracks, removeTrack } from './store';

/**
 * The offline page's script (public/offline.html, bundled to /offline.js by scripts/build-server.mjs): it lists the
 * tracks saved in this browser and plays them, with or without a network. Online it first has the service worker
 * check that the fan can still open each of them, so a track they lost access to is gone before it is listed.
 * Plain DOM, no framework: the page must work from the worker's cache alone.
 */

const list = document.getElementById('saved') as HTMLUListElement;
const status = document.getElementById('status') as HTMLParagraphElement;
const empty = document.getElementById('empty') as HTMLParagraphElement;

const CHECK_WAIT_MS = 10_000;

async function checkWithWorker() {
  const worker = navigator.serviceWorker.controller ?? (await navigator.serviceWorker.getRegistration('/'))?.active;
  if (!worker || !navigator.onLine) return;
  await new Promise<void>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    // A worker that does not answer (an older one) must not keep the list from showing.
    setTimeout(resolve, CHECK_WAIT_MS);
    worker.postMessage({ type: CHECK_MESSAGE, force: true }, [channel.port2]);
  });
}

/** The audio's address: the worker answers it (Range requests included); before it controls the page, the file itself. */
async function audioSource(track: SavedTrack) {
  if (navigator.serviceWorker.controller) return audioKey(track.itemId);
  const response = await (await caches.open(OFFLINE_CACHE)).match(audioKey(track.itemId));
  return response ? URL.createObjectURL(await response.blob()) : '';
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

async function render() {
  const tracks = await ownTracks();
  list.replaceChildren();
  empty.hidden = tracks.length > 0;
  for (const track of tracks) {
    const audio = element('audio', { controls: true, preload: 'none', className: 'player' });
    audio.setAttribute('aria-label', `Play ${track.title}`);
    audio.src = await audioSource(track);
    const remove = element('button', { type: 'button', className: 'remove' }, 'Remove');
    remove.setAttribute('aria-label', `Remove “${track.title}” from this browser`);
    remove.addEventListener('click', () => {
      audio.pause();
      void removeTrack(track.itemId).then(render);
    });
    const title = navigator.onLine ? element('a', { href: track.href }, track.title) : track.title;
    list.append(
      element(
        'li',
        { className: 'track' },
        element('h2', {}, title),
        element('p', { className: 'meta' }, `${track.artistName} · ${formatSize(track.size)}`),
        audio,
        remove,
      ),
    );
  }
}

function showStatus() {
  status.textContent = navigator.onLine
    ? 'These tracks are saved in this browser: they play here without a connection.'
    : 'You’re offline. Your saved tracks still play.';
}

async function start() {
  showStatus();
  if (!offlineSupported()) {
    status.textContent = 'This browser cannot keep tracks for offline listening.';
    return;
  }
  await checkWithWorker().catch(() => undefined);
  await render();
  document.body.dataset.ready = 'true';
}

window.addEventListener('online', () => {
  showStatus();
  void checkWithWorker().then(render);
});
window.addEventListener('offline', showStatus);
void start();
