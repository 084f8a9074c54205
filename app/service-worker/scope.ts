/**
 * The little of the service worker's global scope our code uses. The app is type-checked against the DOM library,
 * which has no ServiceWorkerGlobalScope; naming what we use keeps the worker's code checked, and lets the unit tests
 * hand it a stand-in.
 */

export interface WaitingEvent {
  waitUntil(work: Promise<unknown>): void;
}

export interface PushEventLike extends WaitingEvent {
  data: { json(): unknown; text(): string } | null;
}

export interface NotificationClickLike extends WaitingEvent {
  notification: { close(): void; data?: { url?: unknown } };
}

export interface MessageEventLike extends WaitingEvent {
  data: unknown;
  ports: readonly { postMessage(message: unknown): void }[];
}

export interface FetchEventLike extends WaitingEvent {
  request: Request;
}

export interface WindowClientLike {
  url: string;
  focus(): Promise<unknown>;
}

export interface WorkerScope {
  location: { origin: string };
  registration: {
    showNotification(title: string, options: Record<string, unknown>): Promise<void>;
    navigationPreload?: { enable(): Promise<void> };
  };
  clients: {
    claim(): Promise<void>;
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly WindowClientLike[]>;
    openWindow(url: string): Promise<unknown>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', handler: (event: WaitingEvent) => void): void;
  addEventListener(type: 'push', handler: (event: PushEventLike) => void): void;
  addEventListener(type: 'notificationclick', handler: (event: NotificationClickLike) => void): void;
  addEventListener(type: 'message', handler: (event: MessageEventLike) => void): void;
  addEventListener(type: 'fetch', handler: (event: FetchEventLike) => void): void;
}
