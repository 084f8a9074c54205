import { z } from 'zod';
import { notFound } from '../http.js';
import { JOB_STATES, type JobQueue, type JobsSummary } from './queue.js';

/** What `npm run cli -- jobs` asks for: a list by state, or dead letters sent round again. */
export const JobsCommandSchema = z.union([
  z.object({
    action: z.literal('list'),
    state: z.enum(JOB_STATES, { error: `state must be one of ${JOB_STATES.join(', ')}` }).optional(),
    limit: z.coerce.number().int().min(1).max(1000).default(50),
  }),
  z.object({ action: z.literal('retry'), id: z.string().uuid({ error: 'A job id is a UUID (see `jobs --state failed`).' }) }),
  z.object({ action: z.literal('retry-failed') }),
]);

export type JobsCommand = z.output<typeof JobsCommandSchema>;

export type JobsAnswer = { summary: JobsSummary } | { retried: string[] };

export async function runJobsCommand(jobs: JobQueue, command: JobsCommand): Promise<JobsAnswer> {
  if (command.action === 'list') return { summary: await jobs.list(command.state, command.limit) };
  if (command.action === 'retry-failed') return { retried: await jobs.retry({ failed: true }) };
  const retried = await jobs.retry({ id: command.id });
  if (!retried.length) throw notFound(`No failed job ${command.id}: only a failed job can be retried.`);
  return { retried };
}
