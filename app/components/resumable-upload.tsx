import { useRouteLoaderData } from '@remix-run/react';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { formatBytes } from './forms';

type Phase =
  | { state: 'idle' }
  | { state: 'uploading'; name: string; sent: number; total: number }
  | { state: 'done'; name: string }
  | { state: 'failed'; message: string };

const INTERRUPTED = 'The upload was interrupted. Please try again.';

/**
 * A large audio or video file sent to the api as a resumable tus upload (docs/media.md) as soon as it is chosen: a
 * dropped connection is retried and goes on from the last byte the api has, with a progress bar and a cancel
 * button. Once the api has it, its id goes into the form's hidden field and the picker is emptied, so the form
 * sends the id, not the file again. Without JavaScript the picker stays a plain part of the multipart form.
 */
export function useResumableUpload(refs: { id: RefObject<HTMLInputElement>; name: RefObject<HTMLInputElement> }) {
  const token = useRouteLoaderData<{ token: string }>('routes/_auth')?.token;
  const [phase, setPhase] = useState<Phase>({ state: 'idle' });
  const current = useRef<{ abort: (terminate: boolean) => Promise<void> } | null>(null);
  useEffect(() => () => void current.current?.abort(false), []);

  async function start(input: HTMLInputElement, file: File | undefined) {
    await current.current?.abort(true);
    current.current = null;
    const endpoint = (window as unknown as { ENV?: { PUBLIC_API_URL?: string } }).ENV?.PUBLIC_API_URL;
    // The api holds a resumable upload to its kind's limit, so it must be told the kind; a file the browser cannot
    // type stays in the picker and goes with the form, where the api reads its kind from its content.
    const kind = file?.type.startsWith('video/') ? 'video' : file?.type.startsWith('audio/') ? 'audio' : undefined;
    if (!file || !kind || !token || !endpoint) return setPhase({ state: 'idle' });
    setPhase({ state: 'uploading', name: file.name, sent: 0, total: file.size });
    const { Upload } = await import('tus-js-client');
    const upload = new Upload(file, {
      endpoint: `${endpoint}/uploads`,
      headers: { Authorization: `Bearer ${token}` },
      metadata: { filename: file.name, kind },
      // A phone that loses its connection tries again for about a minute, each time from where the api got to.
      retryDelays: [0, 1000, 3000, 5000, 10_000, 20_000, 20_000],
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => setPhase({ state: 'uploading', name: file.name, sent, total }),
      onSuccess: ({ lastResponse }) => {
        const media = (JSON.parse(lastResponse.getBody() || '{}') as { data?: { _id: string } }).data;
        if (!media) return setPhase({ state: 'failed', message: INTERRUPTED });
        if (refs.id.current) refs.id.current.value = media._id;
        if (refs.name.current) refs.name.current.value = file.name;
        input.value = '';
        setPhase({ state: 'done', name: file.name });
      },
      onError: (error) => {
        const body = (error as { originalResponse?: { getBody(): string } | null }).originalResponse?.getBody();
        let message = INTERRUPTED;
        try {
          message = (JSON.parse(body ?? '') as { message?: string }).message ?? INTERRUPTED;
        } catch {
          // Not one of our answers (the connection is gone): the general message.
        }
        input.value = '';
        setPhase({ state: 'failed', message });
      },
    });
    current.current = upload;
    upload.start();
  }

  async function cancel(input: HTMLInputElement | null) {
    await current.current?.abort(true);
    current.current = null;
    if (input) input.value = '';
    setPhase({ state: 'idle' });
  }

  return { phase, start, cancel, enabled: Boolean(token) };
}

export function ResumableStatus({ phase, onCancel }: { phase: Phase; onCancel: () => void }) {
  if (phase.state === 'idle') return null;
  if (phase.state === 'failed')
    return (
      <p role="alert" className="mt-2 text-sm text-red-200">
        {phase.message}
      </p>
    );
  if (phase.state === 'done')
    return (
      <p role="status" className="mt-2 text-sm text-white/85">
        <span className="font-semibold text-accent">Uploaded:</span> {phase.name}. It is processed once you publish.
      </p>
    );
  const share = phase.total ? phase.sent / phase.total : 0;
  return (
    <div className="mt-2 flex flex-wrap items-center gap-3 text-sm text-white/80" role="status">
      <progress className="h-2 w-40 accent-accent" max={1} value={share} aria-label={`Uploading ${phase.name}`} />
      <span>
        Uploading {phase.name}: {Math.round(share * 100)} % of {formatBytes(phase.total)}
      </span>
      <button
        type="button"
        onClick={onCancel}
        className="rounded-full border border-white/30 px-3 py-1 font-semibold text-white hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
      >
        Cancel upload
      </button>
    </div>
  );
}
