import type { Queryable } from '../db/client.js';
import type { JobQueue } from '../jobs/queue.js';
import { queues } from '../jobs/queues.js';
import type { MailJob } from './kinds.js';

/**
 * Each mail is a job (the queue `mail`): the api records that it must be sent, in the transaction of the change it
 * is about where there is one, and a worker renders it from the database and sends it (./jobs.ts). An SMTP outage
 * is retried with backoff; a mail that still fails is a dead letter the operator can retry (`npm run cli -- jobs`).
 * The key makes it once-only (a receipt per payment, a reminder per renewal).
 */
export function queueMail(jobs: JobQueue, mail: MailJob, options: { key: string; tx?: Queryable }) {
  return jobs.send(queues.mail, mail, { key: `mail:${options.key}`, tx: options.tx });
}
