import fs from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import type { Config } from '#contract/config';
import type { PushPayload } from '#contract/notifications';
import type { Queryable } from '../db/client.js';

/**
 * Web push (the `web-push` library): VAPID keys from config, or generated once into DATA_DIR/vapid.json. Several
 * api nodes must share one pair (set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY on each): a browser's subscription is
 * bound to the public key it was made with.
 */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

export function loadVapidKeys(config: Config, warn: (line: string) => void): VapidKeys {
  const { publicKey, privateKey, subject } = config.vapid;
  if (publicKey && privateKey) return { publicKey, privateKey, subject };
  const file = path.join(config.dataDir, 'vapid.json');
  try {
    const kept = JSON.parse(fs.readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
    return { ...kept, subject };
  } catch {
    const made = webpush.generateVAPIDKeys();
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(made, null, 2), { mode: 0o600 });
    if (config.databaseUrl)
      warn(
        `push: VAPID keys generated into ${file}; api nodes sharing this database need the same pair (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY)`,
      );
    return { ...made, subject };
  }
}

export interface PushSubscriptionRow {
  id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** Push messages wait at most a day at the push service: news older than that is in the app and the mail. */
const PUSH_TTL_SECONDS = 24 * 3600;

/**
 * Sends one push. Answers 'gone' when the push service says the subscription no longer exists (404 or 410): the
 * caller deletes it. Other failures throw, so the job is retried.
 */
export async function sendPush(keys: VapidKeys, subscription: PushSubscriptionRow, payload: PushPayload): Promise<'sent' | 'gone'> {
  try {
    await webpush.sendNotification(
      { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      JSON.stringify(payload),
      {
        vapidDetails: keys,
        TTL: PUSH_TTL_SECONDS,
        contentEncoding: 'aes128gcm',
        timeout: 10_000,
      },
    );
    return 'sent';
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 404 || status === 410) return 'gone';
    throw error;
  }
}

export async function deletePushSubscription(db: Queryable, id: string) {
  await db.query('DELETE FROM push_subscriptions WHERE id = $1', [id]);
}
