import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireViewer } from '../auth/viewer.js';
import { tag } from '../cache/tags.js';
import { paging } from '../content/params.js';
import { one } from '../db/client.js';
import { ApiError, badRequest, notFound, ok, parse, unprocessable } from '../http.js';
import type { NotificationServices } from './fanout.js';
import { EMAIL_CHOICES, type NotificationPreferences as Preferences } from '#contract/notifications';
import { NotificationEvent } from '#contract/realtime';
import {
  cachedUnreadCount,
  listNotifications,
  notifyingArtists,
  PREFERENCE_COLUMNS,
  serializeNotification,
  unreadCount,
} from './queries.js';
import { pushEndpointProblem } from './push-endpoint.js';
import { unsubscribePage } from './unsubscribe-page.js';
import { readUnsubscribeToken } from './unsubscribe.js';

const ListQuery = z.object(paging);

const PreferencesBody = z
  .object({
    email: z.enum(EMAIL_CHOICES, { error: 'Email must be "each", "digest" or "none".' }).optional(),
    push: z.boolean({ error: 'push must be true or false.' }).optional(),
    inApp: z.boolean({ error: 'inApp must be true or false.' }).optional(),
  })
  .strict();

const PushSubscriptionBody = z.object({
  endpoint: z.url({ protocol: /^https$/, error: 'endpoint must be the https URL of a push service.' }).max(2000),
  keys: z.object(
    {
      p256dh: z
        .string({ error: 'keys.p256dh is required.' })
        .regex(/^[A-Za-z0-9_-]{80,100}=*$/, 'keys.p256dh must be a P-256 public key in base64url.'),
      auth: z
        .string({ error: 'keys.auth is required.' })
        .regex(/^[A-Za-z0-9_-]{16,24}=*$/, 'keys.auth must be a 16-byte secret in base64url.'),
    },
    { error: 'keys (p256dh and auth) are required.' },
  ),
});

const EndpointBody = z.object({ endpoint: z.string({ error: 'endpoint is required.' }).min(1).max(2000) });

/** Browsers a fan may take pushes in at once. */
export const PUSH_SUBSCRIPTIONS_PER_FAN = 10;

const ENDPOINT_TAKEN =
  'This push subscription is registered to another account. Turn notifications off in this browser while signed in to that account, then try again.';

const UNSUBSCRIBE_INVALID = 'This unsubscribe link is not valid. Change your notification settings on your account page instead.';

/**
 * Notifications (docs/notifications.md): the fan's in-app list and unread count, per-artist choices, push
 * subscriptions, and the one-click unsubscribe link of notification mail, which works without logging in.
 */
export function notificationRoutes(app: FastifyInstance, s: NotificationServices) {
  const { db, config } = s;

  const tellUnread = async (userId: string) => {
    await s.cache.invalidate(tag.notifications(userId));
    const total = await unreadCount(db, userId);
    s.emit(userId, NotificationEvent.unreadTotal, { total });
    return total;
  };

  /**
   * A page of the fan's notifications, kept in the read cache until one is added or read (the fan's tag), or an
   * artist they hear from changes an item or their name (its content and user tags); the unread total is the bell's.
   */
  app.get('/notifications', async (request) => {
    const viewer = await requireViewer(s, request);
    const query = parse(ListQuery, request.query);
    const [page, unread] = await Promise.all([
      s.cache.read(`notifications:${viewer.id}:${query.offset}:${query.limit}`, async () => {
        const [{ rows, total }, artistIds] = await Promise.all([
          listNotifications(db, viewer.id, query.offset, query.limit),
          notifyingArtists(db, viewer.id),
        ]);
        return {
          value: { data: rows.map((row) => serializeNotification(row, config)), total },
          tags: [tag.notifications(viewer.id), ...artistIds.flatMap((artistId) => [tag.content(artistId), tag.user(artistId)])],
        };
      }),
      cachedUnreadCount(s, viewer.id),
    ]);
    return ok({ ...page, unread });
  });

  app.get('/notifications/unread-count', async (request) => {
    const viewer = await requireViewer(s, request);
    return ok({ total: await cachedUnreadCount(s, viewer.id) });
  });

  app.post('/notifications/read-all', async (request) => {
    const viewer = await requireViewer(s, request);
    await db.query('UPDATE notifications SET read_at = now() WHERE user_id = $1 AND in_app AND read_at IS NULL', [viewer.id]);
    return ok({ success: true, unread: await tellUnread(viewer.id) });
  });

  app.post<{ Params: { id: string } }>('/notifications/:id/read', async (request) => {
    const viewer = await requireViewer(s, request);
    const row = /^[0-9a-f-]{36}$/i.test(request.params.id)
      ? await one(
          db,
          'UPDATE notifications SET read_at = coalesce(read_at, now()) WHERE id = $1 AND user_id = $2 AND in_app RETURNING id',
          [request.params.id, viewer.id],
        )
      : undefined;
    if (!row) throw notFound('Notification not found');
    return ok({ success: true, unread: await tellUnread(viewer.id) });
  });

  /** The fan's choices for every artist they are subscribed to (the account page's form). */
  app.get('/notifications/preferences', async (request) => {
    const viewer = await requireViewer(s, request);
    const rows = await db.query<Preferences & { id: string; username: string; name: string; avatar: string }>(
      `SELECT u.id, u.username, u.name, u.avatar, ${PREFERENCE_COLUMNS}
         FROM subscriptions sub JOIN users u ON u.id = sub.artist_id
         LEFT JOIN notification_preferences np ON np.user_id = sub.user_id AND np.artist_id = sub.artist_id
        WHERE sub.user_id = $1 AND sub.status = 'active' AND sub.expires_at > now()
        ORDER BY lower(u.name), u.id`,
      [viewer.id],
    );
    return ok({
      data: rows.map((row) => ({
        performerId: row.id,
        performer: { _id: row.id, username: row.username, name: row.name, avatar: row.avatar },
        email: row.email,
        push: row.push,
        inApp: row.inApp,
      })),
    });
  });

  app.get<{ Params: { performerId: string } }>('/notifications/preferences/:performerId', async (request) => {
    const viewer = await requireViewer(s, request);
    const { artistId, ...choices } = await artistWithPreferences(viewer.id, request.params.performerId);
    return ok({ performerId: artistId, ...choices });
  });

  /** Changes some of the fan's choices for one artist; the others keep their values. */
  app.put<{ Params: { performerId: string } }>('/notifications/preferences/:performerId', async (request) => {
    const viewer = await requireViewer(s, request);
    const body = parse(PreferencesBody, request.body);
    const { artistId, ...current } = await artistWithPreferences(viewer.id, request.params.performerId);
    const next = { ...current, ...body };
    await savePreferences(viewer.id, artistId, next);
    return ok({ performerId: artistId, ...next });
  });

  /** What the browser needs to subscribe (PushManager.subscribe's applicationServerKey). */
  app.get('/notifications/push/key', async () => ok({ publicKey: s.vapid.publicKey }));

  /**
   * Registers the browser's PushSubscription (its toJSON()). Only a public push service is taken (422 otherwise,
   * push-endpoint.ts). The same endpoint again from the same fan replaces its keys and counts as new; an endpoint
   * another account registered stays theirs (409). A fan keeps at most PUSH_SUBSCRIPTIONS_PER_FAN browsers: a new
   * one past that replaces the one registered longest ago, which has most likely stopped taking pushes.
   */
  app.post('/notifications/push/subscriptions', async (request, reply) => {
    const viewer = await requireViewer(s, request);
    const body = parse(PushSubscriptionBody, request.body);
    const problem = await pushEndpointProblem(body.endpoint, s.pushPolicy);
    if (problem) throw unprocessable(problem, { endpoint: [problem] });
    const taken = await db.transaction(async (tx) => {
      // One registration of the fan's at a time, so two at once cannot both keep an eleventh.
      await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [viewer.id]);
      const mine = await one(
        tx,
        `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth) VALUES ($1, $2, $3, $4)
         ON CONFLICT (endpoint) DO UPDATE SET p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, created_at = now()
          WHERE push_subscriptions.user_id = EXCLUDED.user_id
         RETURNING id`,
        [viewer.id, body.endpoint, body.keys.p256dh, body.keys.auth],
      );
      if (!mine) return false;
      await tx.query(
        `DELETE FROM push_subscriptions WHERE user_id = $1 AND id NOT IN (
           SELECT id FROM push_subscriptions WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2)`,
        [viewer.id, PUSH_SUBSCRIPTIONS_PER_FAN],
      );
      return true;
    });
    if (!taken) throw new ApiError(409, ENDPOINT_TAKEN, { endpoint: [ENDPOINT_TAKEN] });
    return reply.status(201).send(ok({ success: true }));
  });

  /** Forgets a push subscription of the viewer's (the browser unsubscribed, or the fan turned push off there). */
  app.delete('/notifications/push/subscriptions', async (request) => {
    const viewer = await requireViewer(s, request);
    const { endpoint } = parse(EndpointBody, request.body ?? request.query);
    const rows = await db.query('DELETE FROM push_subscriptions WHERE endpoint = $1 AND user_id = $2 RETURNING id', [endpoint, viewer.id]);
    if (!rows.length) throw notFound('This push subscription is not registered.');
    return ok({ success: true });
  });

  // The one-click unsubscribe link (RFC 8058). GET shows what it will do, POST does it; a mail client POSTs
  // `List-Unsubscribe=One-Click` as a form. HTML for a person in a browser, JSON for an api client.
  app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    scope.get<{ Querystring: { token?: string } }>('/notifications/unsubscribe', async (request, reply) => {
      const target = await unsubscribeTarget(request.query.token);
      return answer(request, reply, { ...target, done: false, token: request.query.token! });
    });
    scope.post<{ Querystring: { token?: string }; Body: Record<string, string> | undefined }>(
      '/notifications/unsubscribe',
      async (request, reply) => {
        const token = request.query.token ?? (typeof request.body?.token === 'string' ? request.body.token : undefined);
        const target = await unsubscribeTarget(token);
        await savePreferences(target.userId, target.artistId, { ...(await preferences(target.userId, target.artistId)), email: 'none' });
        return answer(request, reply, { ...target, done: true, token: token! });
      },
    );
  });

  async function unsubscribeTarget(token: string | undefined) {
    const named = readUnsubscribeToken(s.unsubscribeSecret, token);
    const row = named
      ? await one<{ email: string; artistName: string; artistUsername: string }>(
          db,
          `SELECT f.email, a.name AS "artistName", a.username AS "artistUsername" FROM users f, users a WHERE f.id = $1 AND a.id = $2`,
          [named.userId, named.artistId],
        )
      : undefined;
    if (!named || !row) throw new ApiError(400, UNSUBSCRIBE_INVALID, { token: [UNSUBSCRIBE_INVALID] });
    return { ...named, ...row };
  }

  function answer(
    request: FastifyRequest,
    reply: FastifyReply,
    state: { email: string; artistName: string; artistUsername: string; done: boolean; token: string },
  ) {
    reply.header('Cache-Control', 'no-store');
    const data = { email: state.email, performer: { username: state.artistUsername, name: state.artistName }, unsubscribed: state.done };
    if (!wantsHtml(request)) return ok(data);
    return reply.type('text/html; charset=utf-8').send(
      unsubscribePage({
        ...state,
        action: `${config.publicApiUrl}/notifications/unsubscribe?token=${encodeURIComponent(state.token)}`,
        accountUrl: `${config.publicWebUrl}/${state.artistUsername}/account`,
      }),
    );
  }

  /** The artist (404 when there is none) with the fan's choices for them, in one query. */
  async function artistWithPreferences(userId: string, performerId: string) {
    const row = /^[\w-]{1,100}$/.test(performerId)
      ? await one<Preferences & { artistId: string }>(
          db,
          `SELECT a.user_id AS "artistId", ${PREFERENCE_COLUMNS} FROM artist_profiles a
             LEFT JOIN notification_preferences np ON np.user_id = $1 AND np.artist_id = a.user_id
            WHERE a.user_id = $2`,
          [userId, performerId],
        )
      : undefined;
    if (!row) throw notFound('Artist not found');
    return row;
  }

  async function preferences(userId: string, artistId: string): Promise<Preferences> {
    const row = await one<Preferences>(
      db,
      `SELECT ${PREFERENCE_COLUMNS} FROM (SELECT 1) one
         LEFT JOIN notification_preferences np ON np.user_id = $1 AND np.artist_id = $2`,
      [userId, artistId],
    );
    return row!;
  }

  async function savePreferences(userId: string, artistId: string, next: Preferences) {
    if (!EMAIL_CHOICES.includes(next.email)) throw badRequest('Unknown email choice.');
    await db.query(
      `INSERT INTO notification_preferences (user_id, artist_id, email, push, in_app) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id, artist_id) DO UPDATE SET email = EXCLUDED.email, push = EXCLUDED.push, in_app = EXCLUDED.in_app, updated_at = now()`,
      [userId, artistId, next.email, next.push, next.inApp],
    );
  }
}

/** A browser following the link (or posting the page's form) gets a page; a client asking for JSON gets JSON. */
function wantsHtml(request: FastifyRequest) {
  const accept = request.headers.accept ?? '';
  return (
    accept.includes('text/html') ||
    (request.headers['content-type']?.startsWith('application/x-www-form-urlencoded') === true && !accept.includes('application/json'))
  );
}
