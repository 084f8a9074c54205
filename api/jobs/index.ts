import type { ContentServices } from '../content/services.js';
import type { ApiContext } from '../context.js';
import { handBackDeadRuns, mediaWorker } from '../media/processing.js';
import { mailWorker } from '../mail/jobs.js';
import { announce, createFanout, journalDir, replayJournals, type NotificationServices } from '../notifications/fanout.js';
import type { PaymentGateway } from '../payments/gateway.js';
import { remindUpcomingRenewals, renewDueSubscriptions, type RenewalCharger } from '../payments/renewals.js';
import { expirePendingPayments } from '../payments/service.js';
import { convertTrials, remindTrialsEnding } from '../payments/trials.js';
import { queues } from './queues.js';

/**
 * Every queue's worker on this node (the queues themselves are declared in ./queues.ts, each with its payload, its
 * retries and its schedule).
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

  jobs.define(queues.mail, mailWorker(ctx));
  jobs.define(queues.contentVisible, (data) => announce(notifications, data));
  jobs.define(queues.mediaProcess, mediaWorker(content), { timeoutSeconds: ctx.config.media.jobTimeoutSeconds });
  jobs.define(queues.notifyBatch, fanout.batch);
  jobs.define(queues.notifyDigest, fanout.startDigest);
  jobs.define(queues.notifyDigestBatch, fanout.digestBatch);
  jobs.define(queues.renewalsSweep, async () => {
    const now = ctx.now();
    const money = { ...ctx, feePercent: ctx.config.platformFeePercent };
    const renewals = await renewDueSubscriptions(money, testGateway, now);
    const reminded = await remindUpcomingRenewals(ctx, now);
    const trials = await convertTrials(money, testGateway, now);
    const trialReminders = await remindTrialsEnding(ctx, now);
    if (renewals.due || reminded || trials.due || trialReminders)
      ctx.log.info({ ...renewals, reminded, trials, trialReminders }, 'renewals: swept');
  });
  jobs.define(queues.paymentsExpire, () => expirePendingPayments(ctx.db, gateway));
}
