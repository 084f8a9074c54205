import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import PgBoss from 'pg-boss';
import { one, type Db, type Queryable } from '../db/client.js';
import { currentRequestId, runAs } from '../request-context.js';
import type { Queue } from './queues.js';

/**
 * Background work on pg-boss (docs/decisions/010-job-queue.md): jobs live in our own database, in pg-boss's schema
 * (JOBS_SCHEMA), on PGlite as on PostgreSQL, and every api node works the same queue (FOR UPDATE SKIP LOCKED).
 * A job that fails is retried with backoff; one that has run out of retries stays `failed` (the dead letters,
 * `npm run cli -- jobs`). One whose process died (SIGKILL) is handed back as soon as a node knows that process is
 * dead (below, "Dead nodes"); failing that, pg-boss's supervisor fails it once its timeout has passed, and it is
 * retried. Handlers are therefore written to be run again: each records what it has done.
 */

export interface QueueOptions {
  /** Attempts after the first. */
  retryLimit: number;
  /** Seconds before the first retry; doubled each time (with jitter) when retryBackoff. */
  retryDelay: number;
  retryBackoff: boolean;
  /** Jobs of this queue one api node runs at once (0: this node only sends). */
  concurrency: number;
  /** The concurrency holds whatever JOB_CONCURRENCY says (a transcode uses every core it is given). */
  fixedConcurrency: boolean;
  /** A job still active after this long is taken as lost (default: the queue settings' timeoutSeconds). */
  timeoutSeconds?: number;
}

export interface SendOptions {
  /**
   * An idempotency key: a job is sent once per key, ever (job_keys). The send that finds the key taken answers
   * null and sends nothing.
   */
  key?: string;
  /** Not before this time (a scheduled post's publish time). */
  startAfter?: Date;
  /** Sends as part of this transaction: the job exists exactly when the write that asked for it has committed. */
  tx?: Queryable;
}

export interface RunningJob {
  id: string;
  /** How many times this job has been retried before this run. */
  retryCount: number;
}

export type JobHandler<T> = (data: T, job: RunningJob) => Promise<void>;

export type JobState = 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';
export const JOB_STATES: JobState[] = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'];

export interface JobRow {
  id: string;
  queue: string;
  state: JobState;
  retryCount: number;
  retryLimit: number;
  key: string | null;
  startAfter: string;
  createdAt: string;
  completedAt: string | null;
  /** The last error, for a job that failed or is waiting to be retried. */
  error: string | null;
}

export interface JobsSummary {
  counts: { queue: string; state: JobState; count: number }[];
  jobs: JobRow[];
}

export interface JobQueueSettings {
  db: Db;
  /** pg-boss's schema. */
  schema: string;
  /** How often an idle worker asks for work. */
  pollSeconds: number;
  /** A job still active after this long is taken as lost (its process died) and retried. */
  timeoutSeconds: number;
  /** Scales every queue's concurrency (JOB_CONCURRENCY); 0 runs no workers on this node. */
  concurrency: number;
  onError(error: Error): void;
  /** Told what was handed back from dead nodes. */
  onRecovered?(summary: { nodes: number; jobs: { id: string; queue: string }[] }): void;
  /** Told of every run once its handler has settled, in the job's context (its log lines carry its request id). */
  onRun?(run: { queue: string; id: string; ms: number; error?: unknown }): void;
}

/**
 * Where a job's payload keeps what is about the job rather than its work: the id of the request that sent it. Taken
 * off before the handler sees the payload.
 */
const JOB_META = '_meta';
type JobMeta = { requestId?: string };

/** The payload as the queue's declaration reads it, or an error that names the queue and what is wrong. */
function payloadOf<T>(queue: Queue<T>, data: unknown): T {
  const parsed = queue.payload.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new Error(`A job of ${queue.name} that its declaration refuses: ${issue.path.join('.') || 'the payload'}: ${issue.message}`);
}

/** What a node does with the work of dead nodes before their jobs run again (a fan-out's journal of sends). */
export type RecoveryHook = (deadNodeIds: string[], isLiveNode: (nodeId: string) => boolean) => Promise<void>;

/**
 * The nodes of this process that are working jobs now: a node starting in the same process (tests start several)
 * finds their pid alive too, and this tells them apart from the earlier processes that had the same pid.
 */
const liveInProcess = new Set<string>();

/** Whether a process of this host is running (signal 0 checks without sending anything). */
function pidAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** pg-boss's database adapter over our Db: PGlite takes one statement with parameters, or several without. */
function executor(db: Queryable & { exec?: Db['exec'] }) {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      if (values.length || !db.exec) return { rows: await db.query(text, values) };
      return { rows: await db.exec(text) };
    },
  };
}

export function createJobQueue(settings: JobQueueSettings) {
  const { db, schema } = settings;
  // What stop() waits for: the handlers under way and pg-boss's own statements. pg-boss marks a job done without
  // waiting for it (a statement still under way when its worker stops), and its graceful stop was seen not to wait for
  // a handler (an api stopped mid-transcode exited within seconds, its handler still running); so the database is
  // never closed or dropped under either.
  const pending = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>) => {
    pending.add(work);
    work.then(
      () => pending.delete(work),
      () => pending.delete(work),
    );
    return work;
  };
  const own = executor(db);
  const boss = new PgBoss({
    db: {
      executeSql: (text: string, values?: unknown[]) => track(own.executeSql(text, values)),
    },
    schema,
    // Lost jobs are found by the supervisor: it looks at least as often as a job may run.
    maintenanceIntervalSeconds: Math.max(1, Math.min(60, settings.timeoutSeconds)),
    // Dead letters stay listed for two weeks before pg-boss archives them.
    archiveFailedAfterSeconds: 14 * 24 * 3600,
  });
  boss.on('error', settings.onError);

  // Each queue's handler takes its own data; the map holds them by name, as pg-boss hands data over (JSON).
  const queues = new Map<string, { queue: Queue<unknown>; options: QueueOptions; handler: JobHandler<unknown> }>();
  const recurring: { name: string; cron: string }[] = [];
  const recoveryHooks: RecoveryHook[] = [];
  const nodeId = randomUUID();
  let started = false;
  let working = false;

  /**
   * Dead nodes. A node that works jobs is a row of job_nodes (its host and pid) and each job it runs a row of
   * job_runs while its handler runs. Before this node's workers start, every node known to be dead has its work
   * handed back at once: on the embedded database every earlier node (one process holds it), on PostgreSQL the
   * nodes of this host whose process is gone (or whose pid is this process's: it was an earlier process). The
   * hooks go first (a fan-out's journal of what it sent is written into the ledger), then their active jobs are
   * made due now, as a retry (each counts against its retries, so a job that kills its process does not loop
   * forever). A node on another host that died and does not come back is left to pg-boss's expiry.
   */
  async function recoverDeadNodes() {
    // The embedded database is one process's (api/db/lock.ts): every node it has known before this one is dead.
    const embedded = db.kind === 'pglite';
    const nodes = await db.query<{ id: string; host: string; pid: number }>('SELECT id, host, pid FROM job_nodes');
    const dead = nodes
      .filter((node) => {
        if (liveInProcess.has(node.id)) return false;
        if (embedded) return true;
        return node.host === os.hostname() && (node.pid === process.pid || !pidAlive(node.pid));
      })
      .map((node) => node.id);
    const live = new Set(nodes.map((node) => node.id).filter((id) => !dead.includes(id)));
    for (const hook of recoveryHooks) await hook(dead, (id) => live.has(id) || liveInProcess.has(id));
    // On the embedded database an active job no node of this process runs is a dead process's, whether or not its
    // run was recorded (the process can die between taking a job and recording it).
    const jobs = await db.query<{ id: string; queue: string }>(
      `UPDATE ${schema}.job
          SET state = (CASE WHEN retry_count < retry_limit THEN 'retry' ELSE 'failed' END)::${schema}.job_state,
              start_after = now(),
              completed_on = CASE WHEN retry_count < retry_limit THEN NULL ELSE now() END,
              output = jsonb_build_object('message', 'its api process died')
        WHERE state = 'active'
          AND (id::text IN (SELECT job_id FROM job_runs WHERE node_id = ANY($1::text[]))
               OR ($2 AND id::text NOT IN (SELECT job_id FROM job_runs WHERE node_id = ANY($3::text[]))))
        RETURNING id::text, name AS queue`,
      [dead, embedded, [...liveInProcess]],
    );
    if (dead.length) {
      await db.query('DELETE FROM job_runs WHERE node_id = ANY($1::text[])', [dead]);
      await db.query('DELETE FROM job_nodes WHERE id = ANY($1::text[])', [dead]);
    }
    if (dead.length || jobs.length) settings.onRecovered?.({ nodes: dead.length, jobs });
  }

  const queue = {
    /** This node's id (job_nodes): what its journals and claims are named by. */
    nodeId,

    /** Work to do for dead nodes before their jobs are handed back (before work()). */
    onRecover(hook: RecoveryHook) {
      recoveryHooks.push(hook);
    },

    /**
     * Gives a queue (./queues.ts) its worker on this node (before start), with settings of this node's where they
     * depend on its configuration. A queue has one worker: a second is a mistake, refused.
     */
    define<T extends object>(queue: Queue<T>, handler: JobHandler<T>, settings: Partial<QueueOptions> = {}) {
      if (queues.has(queue.name)) throw new Error(`The queue ${queue.name} has a worker already.`);
      queues.set(queue.name, {
        queue: queue as Queue<unknown>,
        handler: handler as JobHandler<unknown>,
        options: {
          retryLimit: 5,
          retryDelay: 30,
          retryBackoff: true,
          concurrency: 1,
          fixedConcurrency: false,
          ...queue.options,
          ...settings,
        },
      });
      if (queue.every) recurring.push({ name: queue.name, cron: queue.every });
    },

    /** The queues declared, for the metrics: a queue with no jobs yet still shows, at zero. */
    queueNames() {
      return [...queues.keys()];
    },

    /** Creates pg-boss's schema and the queues; afterwards jobs can be sent. */
    async start() {
      if (started) return;
      await boss.start();
      for (const [name, { options }] of queues) {
        const spec = {
          name,
          retryLimit: options.retryLimit,
          retryDelay: options.retryDelay,
          retryBackoff: options.retryBackoff,
          expireInSeconds: options.timeoutSeconds ?? settings.timeoutSeconds,
        };
        // createQueue keeps an existing queue as it is: a changed setting is applied by updateQueue.
        await boss.createQueue(name, spec);
        await boss.updateQueue(name, spec);
      }
      for (const { name, cron } of recurring) await boss.schedule(name, cron, {}, { tz: 'UTC' });
      started = true;
    },

    /** Hands back the jobs of dead nodes, then starts this node's workers. */
    async work() {
      if (working) return;
      await recoverDeadNodes();
      if (settings.concurrency === 0) return;
      working = true;
      await db.query('INSERT INTO job_nodes (id, host, pid) VALUES ($1, $2, $3)', [nodeId, os.hostname(), process.pid]);
      liveInProcess.add(nodeId);
      for (const [name, { queue: declared, options, handler }] of queues) {
        const workers = options.fixedConcurrency
          ? options.concurrency
          : Math.max(1, Math.round(options.concurrency * settings.concurrency));
        for (let i = 0; i < workers; i++) {
          // pg-boss waits out the polling interval after every fetch, even one that found a job: one job per worker
          // per interval (a mail a second with two workers polling every 2 s), so a password reset waited behind a
          // queue of receipts. A worker that has just done a job asks again at once; an empty queue is polled as before.
          const worker: { id?: string } = {};
          worker.id = await boss.work<object>(
            name,
            { pollingIntervalSeconds: settings.pollSeconds, batchSize: 1, includeMetadata: true },
            async ([job]) => {
              await track(
                db.query(
                  `INSERT INTO job_runs (job_id, queue, node_id) VALUES ($1, $2, $3)
                   ON CONFLICT (job_id) DO UPDATE SET node_id = EXCLUDED.node_id, started_at = now()`,
                  [job.id, name, nodeId],
                ),
              );
              const { [JOB_META]: meta, ...raw } = job.data as { [JOB_META]?: JobMeta };
              let data: unknown;
              try {
                data = payloadOf(declared, raw);
              } catch (error) {
                // Its payload will not fit on a later try either: the job fails now (a dead letter, with the message
                // that says why), rather than after every retry its queue allows.
                await track(db.query(`UPDATE ${schema}.job SET retry_limit = retry_count WHERE id = $1::uuid`, [job.id]));
                throw error;
              }
              // A job sent by no request (a sweep, a retry sent by a job) still has an id its lines can be found by.
              const started = performance.now();
              try {
                await runAs({ requestId: meta?.requestId ?? job.id }, async () => {
                  try {
                    await track(handler(data, { id: job.id, retryCount: job.retryCount }));
                    settings.onRun?.({ queue: name, id: job.id, ms: performance.now() - started });
                  } catch (error) {
                    settings.onRun?.({ queue: name, id: job.id, ms: performance.now() - started, error });
                    throw error;
                  }
                });
              } finally {
                // A row left behind (the database away for a moment) names a job that is no longer active: harmless.
                await track(db.query('DELETE FROM job_runs WHERE job_id = $1 AND node_id = $2', [job.id, nodeId])).catch(() => {});
              }
              if (worker.id) boss.notifyWorker(worker.id);
            },
          );
        }
      }
    },

    /** Sends a job to the queue; a payload its declaration refuses is a mistake of the sender's, thrown here. */
    async send<T extends object>(queue: Queue<T>, data: T, options: SendOptions = {}): Promise<string | null> {
      const { name } = queue;
      const checked = payloadOf(queue, data);
      const insert = async (tx: Queryable) => {
        if (options.key) {
          const fresh = await one(tx, 'INSERT INTO job_keys (key, queue) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING RETURNING key', [
            options.key,
            name,
          ]);
          if (!fresh) return null;
        }
        const requestId = currentRequestId();
        const payload = requestId ? { ...checked, [JOB_META]: { requestId } satisfies JobMeta } : checked;
        const id = await boss.send(name, payload, {
          db: executor(tx),
          startAfter: options.startAfter,
          singletonKey: options.key,
        });
        if (options.key) await tx.query('UPDATE job_keys SET job_id = $2 WHERE key = $1', [options.key, id]);
        return id;
      };
      if (options.tx) return insert(options.tx);
      return options.key ? db.transaction(insert) : insert(db);
    },

    /**
     * A job whose process is known to have died: failed now, if it is still active, rather than once its timeout has
     * passed, and so retried as any failure is. Answers the job's state after (`failed` when it had no retry left).
     */
    async failLost({ name }: Queue<object>, id: string, message: string): Promise<JobState | undefined> {
      if ((await boss.getJobById(name, id))?.state === 'active') await boss.fail(name, id, { message });
      return (await boss.getJobById(name, id))?.state as JobState | undefined;
    },

    /** Jobs by state, newest first (the operator's view: `npm run cli -- jobs`). */
    async list(state?: JobState, limit = 50): Promise<JobsSummary> {
      const counts = await db.query<{ queue: string; state: JobState; count: number }>(
        `SELECT name AS queue, state::text AS state, count(*)::int AS count FROM ${schema}.job GROUP BY 1, 2 ORDER BY 1, 2`,
      );
      const jobs = await db.query<JobRow>(
        `SELECT id::text, name AS queue, state::text AS state, retry_count AS "retryCount", retry_limit AS "retryLimit",
                singleton_key AS key, start_after AS "startAfter", created_on AS "createdAt", completed_on AS "completedAt",
                CASE WHEN state IN ('failed', 'retry') THEN coalesce(output->>'message', output::text) END AS error
           FROM ${schema}.job WHERE ($1::text IS NULL OR state::text = $1)
          ORDER BY created_on DESC LIMIT $2`,
        [state ?? null, limit],
      );
      return {
        counts,
        jobs: jobs.map((job) => ({
          ...job,
          startAfter: iso(job.startAfter),
          createdAt: iso(job.createdAt),
          completedAt: job.completedAt && iso(job.completedAt),
        })),
      };
    },

    /** Sends failed jobs (the dead letters) round again: one by id, or all of them. Answers the ids retried. */
    async retry(which: { id: string } | { failed: true }): Promise<string[]> {
      const rows = await db.query<{ id: string; name: string }>(
        `SELECT id::text, name FROM ${schema}.job WHERE state = 'failed' AND ($1::text IS NULL OR id::text = $1)`,
        ['id' in which ? which.id : null],
      );
      const byQueue = new Map<string, string[]>();
      for (const row of rows) byQueue.set(row.name, [...(byQueue.get(row.name) ?? []), row.id]);
      for (const [name, ids] of byQueue) await boss.retry(name, ids);
      return rows.map((row) => row.id);
    },

    /**
     * Stops taking jobs and waits up to timeoutMs in all for the ones under way to finish: a handler or a statement
     * that never settles (a hung connection) must not hold the process's stop open.
     */
    async stop(timeoutMs = 8000) {
      if (!started) return;
      started = false;
      const wasWorking = working;
      working = false;
      const drained = (async () => {
        await boss.stop({ graceful: true, timeout: timeoutMs, close: false, wait: true });
        while (pending.size) await Promise.allSettled([...pending]);
        // Stopped in order: nothing of this node's is left to hand back.
        if (wasWorking) {
          liveInProcess.delete(nodeId);
          await db.query('DELETE FROM job_nodes WHERE id = $1', [nodeId]);
        }
      })();
      drained.catch(() => {}); // past the deadline, its failure is nobody's to answer
      // The deadline's timer does not keep the process alive once the rest is done.
      await Promise.race([drained, delay(timeoutMs, undefined, { ref: false })]);
    },
  };
  return queue;
}

export type JobQueue = ReturnType<typeof createJobQueue>;

const iso = (value: unknown) => new Date(value as string).toISOString();
