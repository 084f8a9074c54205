import type { Config } from '#contract/config';
import { CONTENT_TYPE_LABELS, itemViewForMedia, type ContentType } from '#contract/content-types';
import type { NotificationResponse } from '#contract/notifications';
import { tag } from '../cache/tags.js';
import type { Reads } from '../context.js';
import { one, type Queryable } from '../db/client.js';

/** The SQL of a fan's choices for an artist, defaults filled in; expects notification_preferences as np. */
export const PREFERENCE_COLUMNS = `coalesce(np.email, 'each') AS email, coalesce(np.push, true) AS push, coalesce(np.in_app, true) AS "inApp"`;

export async function unreadCount(db: Queryable, userId: string) {
  const row = await one<{ total: number }>(
    db,
    `SELECT count(*)::int AS total FROM notifications n JOIN content_items c ON c.id = n.item_id
      WHERE n.user_id = $1 AND n.in_app AND n.read_at IS NULL AND c.state <> 'draft'`,
    [userId],
  );
  return row?.total ?? 0;
}

/**
 * The bell's count as the read cache keeps it: the fan's unread total, and the artists whose items it counts (or
 * would, were one a draft again). An artist's content write can change the count (an item made a draft, published
 * again, deleted), so the cached answer carries those artists' content tags beside the fan's own.
 */
export async function unreadCountByArtist(db: Queryable, userId: string) {
  const rows = await db.query<{ artistId: string; total: number }>(
    `SELECT n.artist_id AS "artistId", (count(*) FILTER (WHERE c.state <> 'draft'))::int AS total
       FROM notifications n JOIN content_items c ON c.id = n.item_id
      WHERE n.user_id = $1 AND n.in_app AND n.read_at IS NULL GROUP BY n.artist_id`,
    [userId],
  );
  return { total: rows.reduce((sum, row) => sum + row.total, 0), artistIds: rows.map((row) => row.artistId) };
}

/** The bell's count, kept in the read cache: the web asks it on every signed-in page. */
export function cachedUnreadCount(ctx: Reads, userId: string) {
  return ctx.cache.read(`notifications-unread:${userId}`, async () => {
    const { total, artistIds } = await unreadCountByArtist(ctx.db, userId);
    return { value: total, tags: [tag.notifications(userId), ...artistIds.map((artistId) => tag.content(artistId))] };
  });
}

/** Unread totals of many fans at once (a fan-out batch tells each of them). */
export async function unreadCounts(db: Queryable, userIds: string[]) {
  const rows = await db.query<{ userId: string; total: number }>(
    `SELECT n.user_id AS "userId", count(*)::int AS total FROM notifications n JOIN content_items c ON c.id = n.item_id
      WHERE n.user_id = ANY($1::text[]) AND n.in_app AND n.read_at IS NULL AND c.state <> 'draft' GROUP BY n.user_id`,
    [userIds],
  );
  return new Map(rows.map((row) => [row.userId, row.total]));
}

export interface NotificationRow {
  id: string;
  createdAt: Date;
  readAt: Date | null;
  artistId: string;
  artistUsername: string;
  artistName: string;
  artistAvatar: string;
  itemId: string;
  itemTitle: string;
  itemType: ContentType;
  mediaKind: 'image' | 'audio' | 'video' | null;
}

/** Notifications with their artist and item; `extra` adds columns. The notification is alias n, the item c. */
export const notificationSelect = (extra = '') => `
  SELECT ${extra ? `${extra},` : ''} n.id, n.created_at AS "createdAt", n.read_at AS "readAt", n.artist_id AS "artistId",
         u.username AS "artistUsername", u.name AS "artistName", u.avatar AS "artistAvatar",
         c.id AS "itemId", c.title AS "itemTitle", c.type AS "itemType", m.kind AS "mediaKind"
    FROM notifications n JOIN content_items c ON c.id = n.item_id JOIN users u ON u.id = n.artist_id
    LEFT JOIN media m ON m.id = c.media_id`;

/** Where the web shows an item (its item page: /{artist}/vault/{id}?type=…&from=home). */
export function itemPath(artistUsername: string, itemId: string, mediaKind: NotificationRow['mediaKind']) {
  return `/${artistUsername}/vault/${encodeURIComponent(itemId)}?type=${itemViewForMedia(mediaKind)}&from=home`;
}

export function serializeNotification(row: NotificationRow, config: Config): NotificationResponse {
  const path = itemPath(row.artistUsername, row.itemId, row.mediaKind);
  return {
    _id: row.id,
    type: 'new_item',
    performer: { _id: row.artistId, username: row.artistUsername, name: row.artistName, avatar: row.artistAvatar },
    item: { _id: row.itemId, title: row.itemTitle, type: row.itemType, typeLabel: CONTENT_TYPE_LABELS[row.itemType] },
    /** The web path to open, and the same as an absolute URL (for a push or a mail). */
    path,
    url: `${config.publicWebUrl}${path}`,
    read: row.readAt !== null,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

/** The artists whose items the fan has notifications of: their writes can change the fan's list. */
export async function notifyingArtists(db: Queryable, userId: string) {
  const rows = await db.query<{ artistId: string }>(
    'SELECT DISTINCT artist_id AS "artistId" FROM notifications WHERE user_id = $1 AND in_app',
    [userId],
  );
  return rows.map((row) => row.artistId);
}

export async function listNotifications(db: Queryable, userId: string, offset: number, limit: number) {
  const [rows, count] = await Promise.all([
    db.query<NotificationRow>(
      `${notificationSelect()} WHERE n.user_id = $1 AND n.in_app AND c.state <> 'draft'
        ORDER BY n.created_at DESC, n.id DESC LIMIT $2 OFFSET $3`,
      [userId, limit, offset],
    ),
    one<{ total: number }>(
      db,
      `SELECT count(*)::int AS total FROM notifications n JOIN content_items c ON c.id = n.item_id
        WHERE n.user_id = $1 AND n.in_app AND c.state <> 'draft'`,
      [userId],
    ),
  ]);
  return { rows, total: count?.total ?? 0 };
}
