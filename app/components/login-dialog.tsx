import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import { useFetcher } from '@remix-run/react';
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { isLoginSuccess, LoginForm, type LoginActionData } from './login-form';

/** How far (px) the drawer must be dragged down before letting go closes it. */
const DRAG_CLOSE_THRESHOLD = 100;

export interface LoginDialogProps {
  open: boolean;
  onClose: () => void;
  artist?: string | null;
  /** Runs after a successful log-in; by default the page reloads, now with the session cookie. */
  onSuccess?: () => void;
}

const reloadPage = () => window.location.reload();

/**
 * The log-in dialog: a centred dialog from 768 px up, a bottom drawer below that which can be
 * dragged shut by its handle. Escape, the backdrop and the close button close it too. The caller owns the
 * open state. The form posts to the /login action through a fetcher, so the page underneath stays put.
 */
export function LoginDialog({ open, onClose, artist, onSuccess = reloadPage }: LoginDialogProps) {
  const fetcher = useFetcher<LoginActionData>();
  const succeeded = fetcher.state === 'idle' && isLoginSuccess(fetcher.data);
  useEffect(() => {
    if (succeeded) onSuccess();
  }, [succeeded, onSuccess]);

  const drag = useDragToClose(onClose);
  const resetDrag = drag.reset;
  // Each opening starts with the panel in place, however the last one ended.
  useEffect(() => resetDrag(), [open, resetDrag]);

  return (
    <Dialog open={open} onClose={onClose} className="fixed inset-0 z-50">
      <DialogBackdrop
        transition
        className="fixed inset-0 bg-black/70 backdrop-blur-sm transition-opacity duration-200 ease-out data-[closed]:opacity-0"
      />
      <div className="fixed inset-0 flex items-end justify-center md:items-center md:p-4">
        <DialogPanel
          transition
          data-testid="login-dialog-panel"
          style={drag.offset ? { transform: `translateY(${drag.offset}px)`, transition: 'none' } : undefined}
          className="max-h-[92dvh] w-full overflow-y-auto rounded-t-3xl bg-navy-light px-5 pb-8 shadow-2xl ring-1 ring-white/10 transition duration-200 ease-out data-[closed]:translate-y-full md:max-w-md md:rounded-2xl md:px-8 md:pb-8 md:pt-8 md:data-[closed]:translate-y-4 md:data-[closed]:opacity-0"
        >
          <div
            aria-hidden="true"
            data-testid="drawer-handle"
            className="-mx-5 flex cursor-grab touch-none justify-center py-3 active:cursor-grabbing md:hidden"
            {...drag.handlers}
          >
            <span className="h-1.5 w-12 rounded-full bg-white/30" />
          </div>
          <div className="mb-6 flex items-start justify-between gap-4">
            <DialogTitle as="h2" className="text-xl font-bold text-white md:text-2xl">
              Log in to your account
            </DialogTitle>
            <button
              type="button"
              onClick={onClose}
              className="-mr-2 -mt-1 rounded-full p-2 text-white/70 hover:bg-white/10 hover:text-white focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
            >
              <span className="sr-only">Close</span>
              <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="h-5 w-5">
                <path d="M4.3 4.3a1 1 0 0 1 1.4 0L10 8.6l4.3-4.3a1 1 0 1 1 1.4 1.4L11.4 10l4.3 4.3a1 1 0 0 1-1.4 1.4L10 11.4l-4.3 4.3a1 1 0 0 1-1.4-1.4L8.6 10 4.3 5.7a1 1 0 0 1 0-1.4Z" />
              </svg>
            </button>
          </div>
          <LoginForm
            id="login-dialog"
            fetcher={fetcher}
            lastResult={fetcher.data}
            pending={fetcher.state !== 'idle'}
            artist={artist}
            hidden={{ intent: 'dialog' }}
          />
        </DialogPanel>
      </div>
    </Dialog>
  );
}

/** Dragging the drawer's handle moves the panel down with the pointer; letting go far enough closes it. */
function useDragToClose(onClose: () => void) {
  const [offset, setOffset] = useState(0);
  const start = useRef<number | null>(null);
  const reset = useRef(() => {
    start.current = null;
    setOffset(0);
  }).current;

  const end = (event: PointerEvent<HTMLElement>) => {
    if (start.current === null) return;
    const distance = event.clientY - start.current;
    start.current = null;
    setOffset(0);
    if (distance > DRAG_CLOSE_THRESHOLD) onClose();
  };

  return {
    offset,
    reset,
    handlers: {
      onPointerDown(event: PointerEvent<HTMLElement>) {
        start.current = event.clientY;
        event.currentTarget.setPointerCapture?.(event.pointerId);
      },
      onPointerMove(event: PointerEvent<HTMLElement>) {
        if (start.current !== null) setOffset(Math.max(0, event.clientY - start.current));
      },
      onPointerUp: end,
      onPointerCancel: end,
    },
  };
}
