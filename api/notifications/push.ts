import fs from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import type { Config } from '#contract/config';
import type { PushPayload } from '#contract/notifications';
import type { Queryable } from '../db/client.js';
import { guardedPushAgent, RefusedPushEndpoint, refuseLiteral, type PushEndpointPolicy } from './push-endpoint.js';

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
 * Sends pushes through the guarded agent (push-endpoint.ts). A push answers 'gone' when the push service says the
 * subscription no longer exists (404 or 410): the caller deletes it; 'refused' when its endpoint is not (or no
 * longer) a public host: nothing was sent, no connection was opened. Other failures throw, so the job is retried.
 */
export function createPushSender(keys: VapidKeys, policy: PushEndpointPolicy) {
  // Made at the first push, so it takes the TLS options the global agent has by then.
  let agent: ReturnType<typeof guardedPushAgent> | undefined;
  return async function sendPush(subscription: PushSubscriptionRow, payload: PushPayload): Promise<'sent' | 'gone' | 'refused'> {
    try {
      refuseLiteral(subscription.endpoint, policy);
      agent ??= guardedPushAgent(policy);
      await webpush.sendNotification(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        JSON.stringify(payload),
        {
          vapidDetails: keys,
          TTL: PUSH_TTL_SECONDS,
          contentEncoding: 'aes128gcm',
          timeout: 10_000,
          agent,
        },
      );
      return 'sent';
    } catch (error) {
      if (error instanceof RefusedPushEndpoint) return 'refused';
      const status = (error as { statusCode?: number }).statusCode;
      if (status === 404 || status === 410) return 'gone';
      throw error;
    }
  };
}

export type PushSender = ReturnType<typeof createPushSender>;

/**
 * Where a push went, for a log line: the push service's host and the subscription's id, never the endpoint's path
 * (it is the subscription's address) nor its keys.
 */
export function pushTarget(subscription: Pick<PushSubscriptionRow, 'id' | 'endpoint'>) {
  let host = 'unknown';
  try {
    host = new URL(subscription.endpoint).host;
  } catch {
    // a stored endpoint was checked as a URL when it was registered
  }
  return { subscriptionId: subscription.id, pushHost: host };
}

export async function deletePushSubscription(db: Queryable, id: string) {
  await db.query('DELETE FROM push_subscriptions WHERE id = $1', [id]);
}
