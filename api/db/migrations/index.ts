import { sql as accounts } from './0001_accounts.js';
import { sql as messages } from './0002_messages.js';
import { sql as content } from './0003_content.js';
import { sql as payments } from './0004_payments.js';
import { sql as mediaDisplaySize } from './0005_media_display_size.js';
import { sql as notifications } from './0006_notifications.js';
import { sql as pendingPayments } from './0007_pending_payments.js';
import { sql as money } from './0008_money.js';
import { sql as mediaProcessing } from './0009_media_processing.js';
import { sql as listening } from './0010_listening.js';
import { sql as way } from './0011_way.js';
import { sql as pollClosing } from './0012_poll_closing.js';
import { sql as presaleOrder } from './0013_presale_order.js';
import { sql as subscribersOrder } from './0014_subscribers_order.js';
import { sql as giftPeriods } from './0015_gift_periods.js';
import { sql as jobNodes } from './0016_job_nodes.js';
import { sql as mediaProcessingRuns } from './0017_media_processing_runs.js';
import { sql as moderation } from './0018_moderation.js';

/** Every migration in the order it is applied. Never edit one that has shipped: add the next. */
export const migrations: { id: string; sql: string }[] = [
  { id: '0001_accounts', sql: accounts },
  { id: '0002_messages', sql: messages },
  { id: '0003_content', sql: content },
  { id: '0004_payments', sql: payments },
  { id: '0005_media_display_size', sql: mediaDisplaySize },
  { id: '0006_notifications', sql: notifications },
  { id: '0007_pending_payments', sql: pendingPayments },
  { id: '0008_money', sql: money },
  { id: '0009_media_processing', sql: mediaProcessing },
  { id: '0010_listening', sql: listening },
  { id: '0011_way', sql: way },
  { id: '0012_poll_closing', sql: pollClosing },
  { id: '0013_presale_order', sql: presaleOrder },
  { id: '0014_subscribers_order', sql: subscribersOrder },
  { id: '0015_gift_periods', sql: giftPeriods },
  { id: '0016_job_nodes', sql: jobNodes },
  { id: '0017_media_processing_runs', sql: mediaProcessingRuns },
  { id: '0018_moderation', sql: moderation },
];
