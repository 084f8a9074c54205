/**
 * Notifications as web and api agree on them (docs/notifications.md): a fan's per-artist choices, a notification as
 * the list and the socket send it (the bell's events are in realtime.ts), and what a push carries to the service worker.
 */

/** How a fan hears about an artist's new posts by mail: a mail per post, a daily digest, or none. */
export const EMAIL_CHOICES = ['each', 'digest', 'none'] as const;
export type EmailChoice = (typeof EMAIL_CHOICES)[number];

export interface NotificationPreferences {
  email: EmailChoice;
  push: boolean;
  inApp: boolean;
}

/** Notifications per page of the web's /notifications. */
export const NOTIFICATIONS_PAGE_SIZE = 20;

export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = { email: 'each', push: true, inApp: true };

export interface NotificationResponse {
  _id: string;
  type: 'new_item';
  performer: { _id: string; username: string; name: string; avatar: string };
  item: { _id: string; title: string; type: string; typeLabel: string };
  /** The web path that shows the item, and the same as an absolute URL. */
  path: string;
  url: string;
  read: boolean;
  createdAt: string;
}

/** What a web push carries (JSON): the service worker shows it and opens url on a click. */
export interface PushPayload {
  title: string;
  body: string;
  url: string;
  icon: string | null;
  /** One notification per item: a push sent again replaces the one shown. */
  tag: string;
}
