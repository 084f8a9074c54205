import { isHttpError, type ApiClient } from './api.server';
import { NOTIFICATIONS_PAGE_SIZE, type NotificationPreferences, type NotificationResponse } from '#contract/notifications';

/** The notification calls of docs/notifications.md, as the bell, the notifications page and the account page use them. */

/**
 * The top bar's counts, unread messages and notifications, in one call (GET /users/me/unread): the root asks on
 * every signed-in page. Zeros when the session is not valid (the page then treats the viewer as signed out).
 */
export async function fetchUnreadCounts(api: ApiClient) {
  try {
    const body = await api.get<{ data: { messages: number; notifications: number } }>('/users/me/unread', { handle: [401, 403] });
    return body.data;
  } catch (error) {
    if (isHttpError(error, 401, 403)) return { messages: 0, notifications: 0 };
    throw error;
  }
}

/** One page of the viewer's notifications, newest first, with how many there are and how many are unread. */
export async function listNotifications(api: ApiClient, offset: number) {
  const body = await api.get<{ data: { data: NotificationResponse[]; total: number; unread: number } }>('/notifications', {
    params: { offset, limit: NOTIFICATIONS_PAGE_SIZE },
  });
  return body.data;
}

/** Marks one read; false when it is not the viewer's (or no longer exists). */
export async function markNotificationRead(api: ApiClient, id: string) {
  try {
    await api.post(`/notifications/${encodeURIComponent(id)}/read`, undefined, { handle: [404] });
    return true;
  } catch (error) {
    if (isHttpError(error, 404)) return false;
    throw error;
  }
}

export async function markAllNotificationsRead(api: ApiClient) {
  await api.post('/notifications/read-all');
}

export async function fetchNotificationPreferences(api: ApiClient, artistId: string): Promise<NotificationPreferences> {
  const body = await api.get<{ data: NotificationPreferences & { performerId: string } }>(
    `/notifications/preferences/${encodeURIComponent(artistId)}`,
  );
  const { email, push, inApp } = body.data;
  return { email, push, inApp };
}

export async function saveNotificationPreferences(api: ApiClient, artistId: string, choices: NotificationPreferences) {
  await api.put(`/notifications/preferences/${encodeURIComponent(artistId)}`, choices, { handle: [400] });
}
