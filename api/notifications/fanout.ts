import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import { tag } from '../cache/tags.js';
import { CONTENT_TYPE_LABELS, type ContentType } from '#contract/content-types';
import type { EmailChoice } from '#contract/notifications';
import { NotificationEvent } from '#contract/realtime';
import type { ApiContext } from '../context.js';
import { one, type Queryable } from '../db/client.js';
import type { RunningJob } from '../jobs/queue.js';
import { queues } from '../jobs/queues.js';
import { absoluteImage, findSender } from '../mail/jobs.js';
import type { Mail } from '../mail/mailer.js';
import { renderMail } from '../mail/render.js';
import * as templates from '../mail/templates.js';
import type { PushEndpointPolicy } from './push-endpoint.js';
import { createPushSender, deletePushSubscription, pushTarget, type PushSubscriptionRow, type VapidKeys } from './push.js';
import { itemPath, notificationSelect, PREFERENCE_COLUMNS, serializeNotification, unreadCounts, type NotificationRow } from './queries.js';
import { unsubscribeToken } from './unsubscribe.js';

/**
 * "The item became visible to fans" is one event, and everything a fan is told hangs on it:
 *
 *   content.visible (at the item's publish time) ─▶ notify.batch (fans 1–500) ─▶ notify.batch (501–1000) ─▶ …
 *
 * Each batch records a notification per fan (the in-app bell, and the ledger of what was delivered), sends the
 * mail of fans who chose a mail per item and the pushes of fans who allowed them, and hands the next fans to the
 * next job first, so the batches of a large club run side by side on every api node. No transaction is held
 * across batches, and a batch run again after a crash skips whoever was already told.
 */

export interface NotificationServices extends ApiContext {
  /** Sends a realtime event to the fan's open connections. */
  emit(userId: string, event: string, payload: unknown): void;
  vapid: VapidKeys;
  /** Which push endpoints the api takes and sends to (push-endpoint.ts). */
  pushPolicy: PushEndpointPolicy;
  unsubscribeSecret: Buffer;
}

/**
 * Asks for the announcement of an item that fans can see now or will at its publish time; called in the
 * transaction that saves it. Editing the time asks again (a new key); the job of a time that no longer holds, of
 * an item made a draft or deleted, finds nothing to do.
 */
export function announceWhenVisible(
  ctx: Pick<ApiContext, 'jobs'>,
  tx: Queryable,
  item: { id: string; state: string; publishAt: Date; notifiedAt: Date | null; mediaPending?: boolean },
  /** The file the item waited for (api/media/processing.ts): its own key, as the save's was spent while it waited. */
  readyMediaId?: string,
) {
  // An item waiting for its file is asked for again when the file is ready.
  if (item.state === 'draft' || item.notifiedAt || item.mediaPending) return;
  const publishAt = new Date(item.publishAt);
  return ctx.jobs.send(
    queues.contentVisible,
    { itemId: item.id, publishAt: publishAt.toISOString() },
    { key: `visible:${item.id}:${publishAt.toISOString()}${readyMediaId ? `:${readyMediaId}` : ''}`, startAfter: publishAt, tx },
  );
}

/**
 * content.visible: marks the item announced (once) and starts the fan-out. The job of a time moved later finds the
 * item not yet visible, and the job of a time moved earlier finds it announced: either does nothing. So does the
 * job of an item whose new file is still processing: processing asks again when the file is ready.
 */
export async function announce(s: NotificationServices, data: { itemId: string; publishAt: string }) {
  await s.db.transaction(async (tx) => {
    const item = await one<{ id: string }>(
      tx,
      `UPDATE content_items SET notified_at = now()
        WHERE id = $1 AND state <> 'draft' AND notified_at IS NULL AND publish_at <= now() AND NOT media_pending
        RETURNING id`,
      [data.itemId],
    );
    if (item) await s.jobs.send(queues.notifyBatch, { itemId: item.id, after: '' }, { key: `notify:${item.id}:`, tx });
  });
}

interface ItemForMail {
  id: string;
  artistId: string;
  title: string;
  type: ContentType;
  content: string;
  mediaKind: NotificationRow['mediaKind'];
  artistUsername: string;
}

async function loadItem(db: Queryable, itemId: string) {
  return one<ItemForMail>(
    db,
    `SELECT c.id, c.artist_id AS "artistId", c.title, c.type, c.content, m.kind AS "mediaKind", u.username AS "artistUsername"
       FROM content_items c JOIN users u ON u.id = c.artist_id LEFT JOIN media m ON m.id = c.media_id
      WHERE c.id = $1 AND c.state <> 'draft'`,
    [itemId],
  );
}

/** The caption as a line of text for a mail or a push (the caption is sanitised HTML). */
function excerpt(html: string, max = 160) {
  // Blocks part words; inline markup (bold, links) does not.
  const text = html
    .replace(/<\/?(p|br|div|li|ul|ol|h[1-6]|blockquote)\b[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/** Stands in the rendered mail for each fan's own unsubscribe token (letters only: HTML and text keep it as it is). */
const TOKEN_SLOT = 'UNSUBSCRIBETOKENSLOT';

export function unsubscribeUrl(s: Pick<NotificationServices, 'config'>, token: string) {
  return `${s.config.publicApiUrl}/notifications/unsubscribe?token=${token}`;
}

/** RFC 8058 one-click unsubscribe: the link a mail client POSTs to, with no login. */
function unsubscribeHeaders(url: string) {
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

function withToken(mail: Mail, to: string, token: string, messageId: string): Mail {
  const put = (text: string) => text.split(TOKEN_SLOT).join(token);
  return {
    ...mail,
    to,
    messageId,
    html: mail.html && put(mail.html),
    text: put(mail.text),
    headers: Object.fromEntries(Object.entries(mail.headers ?? {}).map(([name, value]) => [name, put(value)])),
  };
}

interface Recipient {
  userId: string;
  email: EmailChoice;
  push: boolean;
  inApp: boolean;
}

interface Claimed {
  id: string;
  userId: string;
  address: string;
  email: EmailChoice;
  push: boolean;
  emailedAt: Date | null;
  pushedAt: Date | null;
}

/**
 * How many fans of one batch are told at once. Sending a mail is mostly waiting (the SMTP server's answers, and
 * an event loop busy serving pages delays each of them), so the lanes are what make a fan-out fast, not the CPU.
 * Two batches run at once (api/jobs/index.ts): their lanes together match the SMTP pool's connections
 * (api/mail/mailer.ts), so a mail never waits in nodemailer's queue, to be put together in a burst with the others
 * queued when connections free up.
 */
const DELIVERY_LANES = 16;

/**
 * Mails whose work (the fan's token put in, the MIME message put together and written) may start in one turn of
 * the event loop. Many SMTP answers arrive together; without this, each would start its lane's next mail in the
 * same turn, tens of milliseconds of work in one piece while the pages wait behind it.
 */
const MAILS_PER_TURN = 4;

/** Lets at most `perTurn` callers through per turn of the event loop; the others go in the next turns, in order. */
function turnGate(perTurn: number) {
  const waiting: (() => void)[] = [];
  let scheduled = false;
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    // An immediate queued while immediates run waits for the next turn: pages' I/O is taken in between.
    setImmediate(() => {
      scheduled = false;
      for (const go of waiting.splice(0, perTurn)) go();
      if (waiting.length) schedule();
    });
  };
  return () =>
    new Promise<void>((go) => {
      waiting.push(go);
      schedule();
    });
}

type LedgerColumn = 'emailed_at' | 'pushed_at';

/**
 * Where this node notes each delivery the moment it is made (DATA_DIR/deliveries/<node id>.log), before the ledger
 * has it. The ledger's write is a round trip to the database, and a process killed in that round trip used to leave
 * mail the SMTP server had accepted unrecorded: the batch's next run mailed those fans again. A line written here
 * is in the kernel as soon as the write returns, in the same turn as the SMTP server's answer, so it outlives the
 * process (not the machine: it is not synced to disk). The next node to start on this DATA_DIR writes a dead node's
 * lines into the ledger before its jobs run again (replayJournals). Emptied whenever the ledger has every line.
 */
function deliveryJournal(dir: string, nodeId: string) {
  let fd: number | undefined;
  return {
    write(id: string, column: LedgerColumn) {
      if (fd === undefined) {
        fs.mkdirSync(dir, { recursive: true });
        fd = fs.openSync(path.join(dir, `${nodeId}.log`), 'a', 0o600);
      }
      fs.writeSync(fd, `${column} ${id}\n`);
    },
    clear() {
      if (fd !== undefined) fs.ftruncateSync(fd, 0);
    },
  };
}

/** The lines of the journals of nodes that are no longer running, written into the ledger; the files removed. */
export async function replayJournals(db: Queryable, dir: string, isLiveNode: (nodeId: string) => boolean) {
  let names: string[];
  try {
    names = (await fsp.readdir(dir)).filter((name) => name.endsWith('.log'));
  } catch {
    return;
  }
  for (const name of names) {
    if (isLiveNode(name.slice(0, -'.log'.length))) continue;
    const file = path.join(dir, name);
    const lines = (await fsp.readFile(file, 'utf8')).split('\n');
    const ids = (column: LedgerColumn) =>
      lines.filter((line) => line.startsWith(`${column} `)).map((line) => line.slice(column.length + 1));
    const [emailed, pushed] = [ids('emailed_at'), ids('pushed_at')];
    if (emailed.length || pushed.length)
      await db.query(
        `UPDATE notifications SET emailed_at = CASE WHEN id = ANY($1::text[]) THEN coalesce(emailed_at, now()) ELSE emailed_at END,
                                  pushed_at = CASE WHEN id = ANY($2::text[]) THEN coalesce(pushed_at, now()) ELSE pushed_at END
          WHERE id = ANY($1::text[]) OR id = ANY($2::text[])`,
        [emailed, pushed],
      );
    await fsp.rm(file, { force: true });
  }
}

/** Where the delivery journals of the api nodes using this DATA_DIR are. */
export const journalDir = (config: Pick<ApiContext['config'], 'dataDir'>) => path.join(config.dataDir, 'deliveries');

/**
 * What was delivered, written in groups (a group commit): a lane that has sent a fan's mail waits until it is
 * recorded before it takes the next fan, as it did when each fan had an UPDATE of its own, but the lanes that
 * finish while one write is under way share the next one. So a batch of 500 costs a few dozen statements instead
 * of 500 round trips, each of which waited for a database connection the pages were using. Each delivery is noted
 * in the journal first, in the same turn as the send's answer: a crash before the write lands loses nothing.
 */
function deliveryLedger(db: Queryable, journal: ReturnType<typeof deliveryJournal>) {
  const pending: { id: string; column: LedgerColumn; done: () => void; failed: (error: unknown) => void }[] = [];
  // Sent (and in the journal) but not yet in the ledger: never sent again by this process, whatever the ledger says.
  const unrecorded = new Set<string>();
  let writing = false;

  async function flush() {
    writing = true;
    try {
      while (pending.length) {
        const group = pending.splice(0);
        const ids = (column: LedgerColumn) => group.filter((entry) => entry.column === column).map((entry) => entry.id);
        try {
          await db.query(
            `UPDATE notifications SET emailed_at = CASE WHEN id = ANY($1::text[]) THEN now() ELSE emailed_at END,
                                      pushed_at = CASE WHEN id = ANY($2::text[]) THEN now() ELSE pushed_at END
              WHERE id = ANY($1::text[]) OR id = ANY($2::text[])`,
            [ids('emailed_at'), ids('pushed_at')],
          );
          for (const entry of group) {
            unrecorded.delete(`${entry.column} ${entry.id}`);
            entry.done();
          }
        } catch (error) {
          for (const entry of group) entry.failed(error);
        }
      }
    } finally {
      writing = false;
      if (!unrecorded.size) journal.clear();
    }
  }

  return {
    /** Whether this process sent it already (its record failed): the retry records it without sending again. */
    sent: (id: string, column: LedgerColumn) => unrecorded.has(`${column} ${id}`),
    record: (id: string, column: LedgerColumn) =>
      new Promise<void>((done, failed) => {
        journal.write(id, column);
        unrecorded.add(`${column} ${id}`);
        pending.push({ id, column, done, failed });
        if (!writing) void flush();
      }),
  };
}

export function createFanout(s: NotificationServices) {
  // A new-post mail is the same for every fan but for the unsubscribe token: rendered once per item and node.
  const rendered = new LRUCache<string, Promise<Mail>>({ max: 50 });
  const ledger = deliveryLedger(s.db, deliveryJournal(journalDir(s.config), s.jobs.nodeId));
  const mailTurn = turnGate(MAILS_PER_TURN);
  const sendPush = createPushSender(s.vapid, s.pushPolicy);

  function postMail(item: ItemForMail, sender: templates.Template['sender']) {
    let mail = rendered.get(item.id);
    if (!mail) {
      const url = unsubscribeUrl(s, TOKEN_SLOT);
      const post = {
        title: item.title,
        typeLabel: CONTENT_TYPE_LABELS[item.type],
        excerpt: excerpt(item.content),
        url: `${s.config.publicWebUrl}${itemPath(item.artistUsername, item.id, item.mediaKind)}`,
      };
      const template = templates.newPost({
        artist: sender,
        post,
        unsubscribeUrl: url,
        preferencesUrl: `${s.config.publicWebUrl}/${item.artistUsername}/account`,
      });
      mail = renderMail('', template, { headers: unsubscribeHeaders(url) });
      mail.catch(() => rendered.delete(item.id));
      rendered.set(item.id, mail);
    }
    return mail;
  }

  async function deliver(item: ItemForMail, sender: templates.Template['sender'], fan: Claimed, pushes: PushSubscriptionRow[]) {
    if (fan.email === 'each' && !fan.emailedAt) {
      if (!ledger.sent(fan.id, 'emailed_at')) {
        await mailTurn();
        const mail = withToken(
          await postMail(item, sender),
          fan.address,
          unsubscribeToken(s.unsubscribeSecret, fan.userId, item.artistId),
          `<notification-${fan.id}@stagedoor.mail>`,
        );
        await s.mailer.send(mail);
      }
      // In the journal before anything else runs: nothing may come between the SMTP server's answer and this.
      await ledger.record(fan.id, 'emailed_at');
    }
    if (fan.push && !fan.pushedAt) {
      if (!ledger.sent(fan.id, 'pushed_at')) {
        const payload = {
          title: `${sender.name}: ${item.title}`,
          body: excerpt(item.content, 120) || `New ${CONTENT_TYPE_LABELS[item.type].toLowerCase()}`,
          url: `${s.config.publicWebUrl}${itemPath(item.artistUsername, item.id, item.mediaKind)}`,
          icon: sender.imageUrl ?? null,
          tag: `item-${item.id}`,
        };
        // Every browser of the fan is tried; a failure is said at warn (the push service's host, never the endpoint's
        // path or keys) and fails the fan's delivery afterwards, so the batch's retry tries again.
        let failed: unknown;
        for (const subscription of pushes) {
          const about = { ...pushTarget(subscription), userId: fan.userId, itemId: item.id };
          try {
            const outcome = await sendPush(subscription, payload);
            s.metrics.pushed(outcome);
            if (outcome === 'gone') await deletePushSubscription(s.db, subscription.id);
            // Not retried: the address will not be tried until its name resolves to a public one again.
            if (outcome === 'refused') s.log.warn(about, 'push: not sent, the endpoint no longer resolves to a public address');
          } catch (error) {
            s.metrics.pushed('error');
            const { message, statusCode } = error as { message?: string; statusCode?: number };
            s.log.warn({ ...about, error: message, statusCode }, 'push: delivery failed');
            failed ??= error;
          }
        }
        if (failed) throw failed;
      }
      await ledger.record(fan.id, 'pushed_at');
    }
  }

  /** notify.batch: the next fans of an item after `after` (user ids in order). */
  async function batch(data: { itemId: string; after: string }, job: RunningJob) {
    const { db, config } = s;
    const item = await loadItem(db, data.itemId);
    if (!item) return;
    const recipients = await db.query<Recipient>(
      `SELECT s.user_id AS "userId", ${PREFERENCE_COLUMNS}
         FROM subscriptions s JOIN users u ON u.id = s.user_id AND u.status = 'active'
         LEFT JOIN notification_preferences np ON np.user_id = s.user_id AND np.artist_id = s.artist_id
        WHERE s.artist_id = $1 AND s.status = 'active' AND s.expires_at > now() AND s.user_id > $2
        ORDER BY s.user_id LIMIT $3`,
      [item.artistId, data.after, config.notifyBatchSize],
    );
    if (!recipients.length) return;
    if (recipients.length === config.notifyBatchSize) {
      const last = recipients[recipients.length - 1].userId;
      await s.jobs.send(queues.notifyBatch, { itemId: item.id, after: last }, { key: `notify:${item.id}:${last}` });
    }
    const created = await db.query<{ id: string; userId: string }>(
      `INSERT INTO notifications (user_id, artist_id, item_id, in_app, email, push)
       SELECT r.user_id, $2, $3, r.in_app, r.email, r.push
         FROM unnest($1::text[], $4::boolean[], $5::text[], $6::boolean[]) AS r (user_id, in_app, email, push)
       ON CONFLICT (user_id, item_id) DO NOTHING
       RETURNING id, user_id AS "userId"`,
      [
        recipients.map((r) => r.userId),
        item.artistId,
        item.id,
        recipients.map((r) => r.inApp),
        recipients.map((r) => r.email),
        recipients.map((r) => r.push),
      ],
    );
    if (created.length) await s.cache.invalidate(...created.map((row) => tag.notifications(row.userId)));
    await tellInApp(created.map((row) => row.id));

    // This batch's deliveries, taken on by this run and named by its job: the job's next run (its process died, and
    // the queue handed it back) takes them over at once; another job only once their time is up.
    const claimed = await db.query<Claimed>(
      `UPDATE notifications n SET claimed_at = now(), claimed_by = $4 FROM users u
        WHERE u.id = n.user_id AND n.item_id = $1 AND n.user_id = ANY($2::text[])
          AND ((n.email = 'each' AND n.emailed_at IS NULL) OR (n.push AND n.pushed_at IS NULL))
          AND (n.claimed_at IS NULL OR n.claimed_by = $4 OR n.claimed_at < now() - make_interval(secs => $3))
        RETURNING n.id, n.user_id AS "userId", u.email AS address, n.email, n.push, n.emailed_at AS "emailedAt", n.pushed_at AS "pushedAt"`,
      [item.id, recipients.map((r) => r.userId), config.jobs.timeoutSeconds, job.id],
    );
    if (!claimed.length) return;
    const pushUsers = claimed.filter((fan) => fan.push && !fan.pushedAt).map((fan) => fan.userId);
    const subscriptions = pushUsers.length
      ? await db.query<PushSubscriptionRow & { userId: string }>(
          'SELECT id, user_id AS "userId", endpoint, p256dh, auth FROM push_subscriptions WHERE user_id = ANY($1::text[])',
          [pushUsers],
        )
      : [];
    const pushesOf = new Map<string, PushSubscriptionRow[]>();
    for (const sub of subscriptions) pushesOf.set(sub.userId, [...(pushesOf.get(sub.userId) ?? []), sub]);
    const from = await findSender(db, config, item.artistId);
    const sender = from?.sender ?? { name: item.artistUsername, imageUrl: null };
    const failures: unknown[] = [];
    let next = 0;
    const lane = async () => {
      while (next < claimed.length) {
        const fan = claimed[next++];
        try {
          await deliver(item, sender, fan, pushesOf.get(fan.userId) ?? []);
        } catch (error) {
          failures.push(error);
        }
      }
    };
    await Promise.all(Array.from({ length: DELIVERY_LANES }, lane));
    // Whoever was told is recorded; the retry tells the rest (their claims let go first, so it need not wait).
    if (failures.length) {
      await db.query(
        'UPDATE notifications SET claimed_at = NULL, claimed_by = NULL WHERE id = ANY($1::text[]) AND (emailed_at IS NULL OR (push AND pushed_at IS NULL))',
        [claimed.map((fan) => fan.id)],
      );
      throw new Error(`${failures.length} of ${claimed.length} fans could not be told yet: ${(failures[0] as Error).message}`);
    }
  }

  /** The bell: each fan's new notification and unread total, live on their open connections. */
  async function tellInApp(ids: string[]) {
    if (!ids.length) return;
    const rows = await s.db.query<NotificationRow & { userId: string }>(
      `${notificationSelect('n.user_id AS "userId"')} WHERE n.id = ANY($1::text[]) AND n.in_app`,
      [ids],
    );
    if (!rows.length) return;
    const totals = await unreadCounts(
      s.db,
      rows.map((row) => row.userId),
    );
    for (const row of rows) {
      s.emit(row.userId, NotificationEvent.created, { notification: serializeNotification(row, s.config) });
      s.emit(row.userId, NotificationEvent.unreadTotal, { total: totals.get(row.userId) ?? 0 });
    }
  }

  /** notify.digest (daily): starts the day's digests of what was posted since the last. */
  async function startDigest() {
    const cutoff = s.now().toISOString();
    await s.jobs.send(queues.notifyDigestBatch, { cutoff, afterUser: '', afterArtist: '' }, { key: `digest:${cutoff}:` });
  }

  /** notify.digest-batch: one mail per fan and artist, for the fans who chose a daily digest. */
  async function digestBatch(data: { cutoff: string; afterUser: string; afterArtist: string }) {
    const { db } = s;
    const pairs = await db.query<{ userId: string; artistId: string }>(
      `SELECT DISTINCT user_id AS "userId", artist_id AS "artistId" FROM notifications
        WHERE email = 'digest' AND emailed_at IS NULL AND created_at <= $1 AND (user_id, artist_id) > ($2, $3)
        ORDER BY 1, 2 LIMIT $4`,
      [data.cutoff, data.afterUser, data.afterArtist, DIGEST_BATCH_SIZE],
    );
    if (pairs.length === DIGEST_BATCH_SIZE) {
      const last = pairs[pairs.length - 1];
      await s.jobs.send(
        queues.notifyDigestBatch,
        { cutoff: data.cutoff, afterUser: last.userId, afterArtist: last.artistId },
        { key: `digest:${data.cutoff}:${last.userId}:${last.artistId}` },
      );
    }
    for (const pair of pairs) await digestOne(pair.userId, pair.artistId, data.cutoff);
  }

  async function digestOne(userId: string, artistId: string, cutoff: string) {
    const { db, config } = s;
    const fan = await one<{ address: string; email: EmailChoice; subscribed: boolean }>(
      db,
      `SELECT u.email AS address, coalesce(np.email, 'each') AS email,
              EXISTS (SELECT 1 FROM subscriptions s WHERE s.user_id = u.id AND s.artist_id = $2 AND s.status = 'active' AND s.expires_at > now()) AS subscribed
         FROM users u LEFT JOIN notification_preferences np ON np.user_id = u.id AND np.artist_id = $2
        WHERE u.id = $1 AND u.status = 'active'`,
      [userId, artistId],
    );
    const items = await db.query<NotificationRow & { notificationId: string; content: string }>(
      `${notificationSelect('n.id AS "notificationId", c.content')}
        WHERE n.user_id = $1 AND n.artist_id = $2 AND n.email = 'digest' AND n.emailed_at IS NULL AND n.created_at <= $3
          AND c.state <> 'draft' AND (n.claimed_at IS NULL OR n.claimed_at < now() - make_interval(secs => $4))
        ORDER BY n.created_at`,
      [userId, artistId, cutoff, config.jobs.timeoutSeconds],
    );
    const ids = items.map((item) => item.notificationId);
    if (!ids.length) return;
    // A fan who has since left, or chosen otherwise, is not mailed: what was pending is settled all the same.
    if (fan?.subscribed && fan.email === 'digest') {
      await db.query('UPDATE notifications SET claimed_at = now() WHERE id = ANY($1::text[])', [ids]);
      const from = await findSender(db, config, artistId);
      const sender = from?.sender ?? { name: items[0].artistName, imageUrl: absoluteImage(config, items[0].artistAvatar) };
      const url = unsubscribeUrl(s, unsubscribeToken(s.unsubscribeSecret, userId, artistId));
      const posts = items.map((item) => ({
        title: item.itemTitle,
        typeLabel: CONTENT_TYPE_LABELS[item.itemType],
        excerpt: excerpt(item.content, 120),
        url: `${config.publicWebUrl}${itemPath(item.artistUsername, item.itemId, item.mediaKind)}`,
      }));
      const template = templates.digest({
        artist: sender,
        posts,
        unsubscribeUrl: url,
        preferencesUrl: `${config.publicWebUrl}/${items[0].artistUsername}/account`,
      });
      await s.mailer.send(
        await renderMail(fan.address, template, { headers: unsubscribeHeaders(url), messageId: `<digest-${ids[0]}@stagedoor.mail>` }),
      );
    }
    await db.query('UPDATE notifications SET emailed_at = now() WHERE id = ANY($1::text[])', [ids]);
  }

  return { batch, startDigest, digestBatch };
}

/** Fans and artists mailed per digest job. */
const DIGEST_BATCH_SIZE = 200;
