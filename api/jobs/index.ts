import type { ContentServices } from '../content/services.js';
import type { ApiContext } from '../context.js';
import { handBackDeadRuns, MEDIA_QUEUE, MEDIA_RETRY_LIMIT, mediaWorker } from '../media/processing.js';
import { MAIL_QUEUE, mailWorker } from '../mail/jobs.js';
import {
  announce,
  BATCH_QUEUE,
  createFanout,
  DIGEST_BATCH_QUEUE,
  DIGEST_QUEUE,
  journalDir,
  replayJournals,
  VISIBLE_QUEUE,
  type NotificationServices,
} from '../notifications/fanout.js';
import type { PaymentGateway } from '../payments/gateway.js';
import { remindUpcomingRenewals, renewDueSubscriptions, type RenewalCharger } from '../payments/renewals.js';
import { expirePendingPayments } from '../payments/service.js';
import { convertTrials, remindTrialsEnding } from '../payments/trials.js';

export const RENEWALS_QUEUE = 'renewals.sweep';
export const PENDING_PAYMENTS_QUEUE = 'payments.expire';

/**
 * Every queue the api works, with what runs its jobs, how often it is retried and how many of its jobs one api
 * node runs at once (times JOB_CONCURRENCY). A fan-out sends mail over SMTP and pushes, mostly waiting on the
 * network: two batches at once keep a few thousand mails a minute going while the event loop stays free for pages.
 */
export function defineJobs(
  ctx: ApiContext,
  notifications: NotificationServices,
  testGateway: RenewalCharger | null,
  gateway: PaymentGateway,
  content: ContentServices,
) {
  const { jobs } = ctx;
  const fanout = createFanout(notifications);
  // What a dead node's fan-out sent and had not yet recorded is recorded before its batches run again.
  jobs.onRecover((_dead, isLiveNode) => replayJournals(ctx.db, journalDir(ctx.config), isLiveNode));
  // A dead node's transcodes are retried at once, not after the media timeout; one that kept killing it fails its file.
  jobs.onRecover(handBackDeadRuns(content));

  // An SMTP outage: retried after about 30 s, 1, 2, 4 … minutes: ten tries cover about eight hours.
  jobs.define(MAIL_QUEUE, mailWorker(ctx), { retryLimit: 10, retryDelay: 30, concurrency: 2 });
  jobs.define<{ itemId: string; publishAt: string }>(VISIBLE_QUEUE, (data) => announce(notifications, data), {
    retryLimit: 10,
    retryDelay: 10,
  });
  // One transcode at a time per node, whatever JOB_CONCURRENCY (ffmpeg uses the cores; it runs at nice 19), with a
  // timeout of its own: a 4 GB video takes long, and a run taken again after it is harmless (processing.ts).
  jobs.define(MEDIA_QUEUE, mediaWorker(content), {
    retryLimit: MEDIA_RETRY_LIMIT,
    retryDelay: 10,
    concurrency: 1,
    fixedConcurrency: true,
    timeoutSeconds: ctx.config.media.jobTimeoutSeconds,
  });
  jobs.define(BATCH_QUEUE, fanout.batch, { retryLimit: 10, retryDelay: 10, concurrency: 2 });
  jobs.define(DIGEST_QUEUE, fanout.startDigest, { retryLimit: 5, retryDelay: 60 });
  jobs.define(DIGEST_BATCH_QUEUE, fanout.digestBatch, { retryLimit: 10, retryDelay: 30 });
  jobs.define(
    RENEWALS_QUEUE,
    async () => {
      const now = ctx.now();
      const money = { ...ctx, feePercent: ctx.config.platformFeePercent };
      const renewals = await renewDueSubscriptions(money, testGateway, now);
      const reminded = await remindUpcomingRenewals(ctx, now);
      const trials = await convertTrials(money, testGateway, now);
      const trialReminders = await remindTrialsEnding(ctx, now);
      if (renewals.due || reminded || trials.due || trialReminders)
        ctx.log.info({ ...renewals, reminded, trials, trialReminders }, 'renewals: swept');
    },
    { retryLimit: 3, retryDelay: 60 },
  );

  // Payments left waiting for authentication past their time: called off, their promo codes freed, abandoned at the
  // gateway. (A payment starting or a code being checked expires them too, so a code's limit is exact there.)
  jobs.define(PENDING_PAYMENTS_QUEUE, () => expirePendingPayments(ctx.db, gateway), { retryLimit: 3, retryDelay: 60 });

  // Recurring work, once across every api node: renewals hourly, pending payments every 5 minutes, the digest at 08:00 UTC.
  jobs.every(RENEWALS_QUEUE, '7 * * * *');
  jobs.every(PENDING_PAYMENTS_QUEUE, '*/5 * * * *');
  jobs.every(DIGEST_QUEUE, '0 8 * * *');
}
