import { z } from 'zod';
import { id, instant, MailJobSchema } from '../mail/kinds.js';
import type { QueueOptions } from './queue.js';

/**
 * A queue, declared once: its name in pg-boss, what its jobs carry (checked when a job is sent and again when it
 * runs), how it is retried, and when it runs by itself. A sender and its worker both name the queue by this
 * object, so the compiler holds them to the same payload, and a reader follows a job from `send` to its worker by
 * the declaration's name.
 */
export interface Queue<T> {
  name: string;
  payload: z.ZodType<T>;
  options: Partial<QueueOptions>;
  /** A cron expression (UTC): the queue runs once across all api nodes at each of its ticks. */
  every?: string;
}

export function defineQueue<T>(name: string, payload: z.ZodType<T>, options: Partial<QueueOptions> = {}, every?: string): Queue<T> {
  return { name, payload, options, every };
}

const nothing = z.object({});

/** Attempts after the first before a file is marked failed (a crash or a storage error, not an unreadable file). */
export const MEDIA_RETRY_LIMIT = 2;

/**
 * Every queue the api works (api/jobs/index.ts gives each its one worker). A fan-out sends mail over SMTP and
 * pushes, mostly waiting on the network: two batches at once keep a few thousand mails a minute going while the
 * event loop stays free for pages.
 */
export const queues = {
  /** A mail to render and send (api/mail/jobs.ts). An SMTP outage: retried after about 30 s, 1, 2, 4 … minutes: ten tries cover about eight hours. */
  mail: defineQueue('mail', MailJobSchema, { retryLimit: 10, retryDelay: 30, concurrency: 2 }),
  /** An item fans can see now or at its publish time, to announce (api/notifications/fanout.ts). */
  contentVisible: defineQueue('content.visible', z.object({ itemId: id, publishAt: instant }), { retryLimit: 10, retryDelay: 10 }),
  /**
   * An upload to transcode (api/media/processing.ts). One at a time per node, whatever JOB_CONCURRENCY (ffmpeg uses
   * the cores; it runs at nice 19), with a timeout of its own (MEDIA_JOB_TIMEOUT_SECONDS): a 4 GB video takes long,
   * and a run taken again after it is harmless.
   */
  mediaProcess: defineQueue('media.process', z.object({ mediaId: id }), {
    retryLimit: MEDIA_RETRY_LIMIT,
    retryDelay: 10,
    concurrency: 1,
    fixedConcurrency: true,
  }),
  /** The next fans of an item's announcement, after the fan `after` (api/notifications/fanout.ts). */
  notifyBatch: defineQueue('notify.batch', z.object({ itemId: id, after: z.string() }), { retryLimit: 10, retryDelay: 10, concurrency: 2 }),
  /** The day's digests, started at 08:00 UTC. */
  notifyDigest: defineQueue('notify.digest', nothing, { retryLimit: 5, retryDelay: 60 }, '0 8 * * *'),
  /** The next fans and artists of a day's digests, after the pair (afterUser, afterArtist). */
  notifyDigestBatch: defineQueue('notify.digest-batch', z.object({ cutoff: instant, afterUser: z.string(), afterArtist: z.string() }), {
    retryLimit: 10,
    retryDelay: 30,
  }),
  /** Renewals, renewal and trial reminders, trials that end (api/payments/renewals.ts, trials.ts): hourly. */
  renewalsSweep: defineQueue('renewals.sweep', nothing, { retryLimit: 3, retryDelay: 60 }, '7 * * * *'),
  /**
   * Payments left waiting for authentication past their time: called off, their promo codes freed, abandoned at
   * the gateway (a payment starting or a code being checked expires them too, so a code's limit is exact there).
   */
  paymentsExpire: defineQueue('payments.expire', nothing, { retryLimit: 3, retryDelay: 60 }, '*/5 * * * *'),
};
