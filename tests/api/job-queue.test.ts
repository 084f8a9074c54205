import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { createJobQueue, type JobQueue } from '../../api/jobs/queue';
import { defineQueue, queues, type Queue } from '../../api/jobs/queues';
import { openTestDb, startTestApi } from '../helpers/api';

/**
 * A backlog drains at the handler's speed, not one job per worker per polling interval: pg-boss waits out the
 * interval after every fetch, so with one worker polling every 2 s, eight mails took 16 s and a password reset
 * waited behind them. The real queue on PGlite, one worker.
 */
let cleanup: (() => Promise<void>) | undefined;
const empty = (name: string) => defineQueue(name, z.object({}));
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

it('a worker that has just done a job asks for the next at once, so eight jobs do not take eight polls', async () => {
  const { db, drop } = await openTestDb('PGlite');
  const errors: Error[] = [];
  const jobs: JobQueue = createJobQueue({
    db,
    schema: 'pgboss',
    pollSeconds: 2,
    timeoutSeconds: 60,
    concurrency: 1,
    onError: (e) => errors.push(e),
  });
  cleanup = async () => {
    await jobs.stop();
    await drop();
  };
  const done: number[] = [];
  const drain = defineQueue('drain', z.object({ n: z.number() }));
  jobs.define(drain, async ({ n }) => {
    done.push(n);
  });
  await jobs.start();
  for (let n = 1; n <= 8; n++) await jobs.send(drain, { n });

  const started = Date.now();
  await jobs.work();
  await expect.poll(() => done.length, { timeout: 15_000, interval: 50 }).toBe(8);
  const took = Date.now() - started;

  expect(done.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  // Eight polls would be 14 s at least; asking again after each job, the eight go in about one poll's time.
  expect(took).toBeLessThan(6000);
  expect(errors).toEqual([]);
}, 30_000);

it('stop() waits for the job it has just done to be marked done, so the database can be closed or dropped after it', async () => {
  const { db, drop } = await openTestDb('PGlite');
  // pg-boss marks a job completed without waiting for that statement; here it is slow, as on a busy database.
  const slow: typeof db = Object.create(db);
  slow.query = async (text: string, values?: unknown[]) => {
    if (/'completed'/.test(text)) await new Promise((resolve) => setTimeout(resolve, 1500));
    return db.query(text, values);
  };
  const jobs = createJobQueue({ db: slow, schema: 'pgboss', pollSeconds: 2, timeoutSeconds: 60, concurrency: 1, onError: () => undefined });
  cleanup = drop;
  let ran = false;
  const once = empty('once');
  jobs.define(once, async () => {
    ran = true;
  });
  await jobs.start();
  await jobs.send(once, {});
  await jobs.work();
  await expect.poll(() => ran, { timeout: 10_000, interval: 20 }).toBe(true);

  await jobs.stop();
  const [row] = await db.query<{ state: string }>("SELECT state::text FROM pgboss.job WHERE name = 'once'");
  expect(row.state).toBe('completed');
}, 30_000);

/** A queue on a fresh PGlite database (dropped after the test) whose errors go nowhere, and a way to run one job. */
async function quietQueue() {
  const { db, drop } = await openTestDb('PGlite');
  const jobs = createJobQueue({ db, schema: 'pgboss', pollSeconds: 2, timeoutSeconds: 60, concurrency: 1, onError: () => undefined });
  cleanup = drop;
  /** Starts the queue with one job of `queue` to do (its handler defined before). */
  const runOne = async (queue: Queue<object>) => {
    await jobs.start();
    await jobs.send(queue, {});
    await jobs.work();
  };
  return { db, jobs, runOne };
}

it('stop() waits for a handler under way, even one past its timeout, and for what that handler writes', async () => {
  const { db, jobs, runOne } = await quietQueue();
  let started = false;
  let finish: () => void = () => undefined;
  // As the media job does when the api stops: its work ends, and it hands the file to a new job on its way out.
  const long = empty('long');
  const handedOn = empty('after');
  jobs.define(
    long,
    async () => {
      started = true;
      await new Promise<void>((resolve) => (finish = resolve));
      await new Promise((resolve) => setTimeout(resolve, 300));
      await jobs.send(handedOn, {});
    },
    { timeoutSeconds: 1 },
  );
  jobs.define(handedOn, async () => undefined);
  await runOne(long);
  await expect.poll(() => started, { timeout: 10_000, interval: 20 }).toBe(true);
  // Past its timeout, pg-boss's own graceful stop no longer waits for it (it returned at once, the handler running on).
  await new Promise((resolve) => setTimeout(resolve, 1500));

  setTimeout(() => finish(), 500);
  await jobs.stop();
  // What the handler wrote on its way out is there (past its timeout, the job itself has been taken as lost: retry).
  const [after] = await db.query<{ state: string }>("SELECT state::text FROM pgboss.job WHERE name = 'after'");
  expect(after?.state).toBe('created');
}, 30_000);

it('stop() gives up on a handler that never ends once its time is up, and does not hold the stop open', async () => {
  const { jobs, runOne } = await quietQueue();
  let started = false;
  // A handler stuck for good, as on a connection that never answers.
  const stuck = empty('stuck');
  jobs.define(stuck, async () => {
    started = true;
    await new Promise<never>(() => undefined);
  });
  await runOne(stuck);
  await expect.poll(() => started, { timeout: 10_000, interval: 20 }).toBe(true);

  const stopping = Date.now();
  await jobs.stop(1500);
  const took = Date.now() - stopping;
  expect(took).toBeGreaterThanOrEqual(1400);
  expect(took).toBeLessThan(4000);
}, 30_000);

it('every queue declared has exactly one worker on an api node, and no queue is worked that is not declared', async () => {
  const t = await startTestApi();
  cleanup = () => t.close();
  const declared = Object.values(queues).map((queue) => queue.name);
  expect(new Set(declared).size).toBe(declared.length);
  expect([...t.api.ctx.jobs.queueNames()].sort()).toEqual([...declared].sort());
  // A second worker for a queue is refused.
  expect(() => t.api.ctx.jobs.define(queues.mail, async () => undefined)).toThrow('The queue mail has a worker already.');
});

it('a payload its declaration refuses is thrown at the sender and nothing is sent; one already in the table fails its job', async () => {
  const { db, jobs } = await quietQueue();
  const handled: unknown[] = [];
  // Retries allowed, so the test shows they are not used: the payload would not fit on a retry either.
  const drain = defineQueue('drain', z.object({ n: z.number() }), { retryLimit: 5, retryDelay: 1 });
  jobs.define(drain, async (data) => {
    handled.push(data);
  });
  await jobs.start();
  await expect(jobs.send(drain, { n: 'three' } as never)).rejects.toThrow(
    'A job of drain that its declaration refuses: n: Invalid input: expected number, received string',
  );
  expect(await db.query("SELECT id FROM pgboss.job WHERE name = 'drain'")).toEqual([]);
  // Every mail the api sends is checked the same way: a mail of no kind never reaches the queue.
  await expect(jobs.send(queues.mail, { kind: 'postcard' } as never)).rejects.toThrow('A job of mail that its declaration refuses: kind');

  // A job written under an older declaration of the queue (an earlier release's payload) fails at once, not run.
  const older = defineQueue('drain', z.object({ count: z.number() }));
  await jobs.send(older, { count: 3 });
  await jobs.work();
  await expect
    .poll(async () => (await db.query<{ state: string }>("SELECT state::text FROM pgboss.job WHERE name = 'drain'"))[0]?.state, {
      timeout: 10_000,
      interval: 50,
    })
    .toBe('failed');
  const [failed] = await db.query<{ message: string; tries: number }>(
    "SELECT output->>'message' AS message, retry_count AS tries FROM pgboss.job WHERE name = 'drain'",
  );
  expect(failed.message).toContain('A job of drain that its declaration refuses: n');
  expect(failed.tries).toBe(0);
  expect(handled).toEqual([]);
  await jobs.stop();
}, 30_000);
