import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { exited, startApiProcess, until } from '../helpers/process';
import type { Db } from '../../api/db/client';
import { call, clientAddress, describeEachDatabase, FAN_PASSWORD, openTestDb, TEST_DATABASE_URL, uniqueName } from '../helpers/api';
import { startSmtp, type TestSmtp } from '../helpers/notify';

/**
 * The job queue under a crash: the api process is killed with SIGKILL while a new post's fan-out is
 * sending mail, in the middle of a batch; after a restart every fan is told exactly once: one mail accepted by the
 * SMTP server each, one in-app notification each. The api runs as its own process, as `npm start` runs it
 * (server/index.ts, SERVE=api), on PGlite in a data directory and on PostgreSQL.
 *
 * Where the kill lands is made certain rather than left to chance: after a few mails the SMTP server stops
 * answering (it takes each mail and holds its reply), so every worker is waiting on a mail the server has not
 * accepted when the process dies. A mail is delivered when the server accepts it (RFC 5321); those held were not.
 */

const ARTIST = { email: 'juniper@stagedoor.test', password: 'Stagedoor-artist-2026!', username: 'juniperlane' };
const FANS = 16;
const POST_TITLE = 'Surprise show tonight';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Where each database keeps its data (and the queue its jobs) between the two processes. */
async function storage(
  database: 'PGlite' | 'PostgreSQL',
  smtp: TestSmtp,
  settings: Record<string, string> = {},
): Promise<{ env: Record<string, string>; jobs(): Promise<string>; db?: Db }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-jobs-faults-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  // Batches of 4 fans, two at a time, four mails at once each; a job whose process died is taken again after 3 s.
  const env = {
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    NOTIFY_BATCH_SIZE: '4',
    JOB_TIMEOUT_SECONDS: '3',
    JOB_POLL_SECONDS: '0.5',
    ...settings,
  };
  // PGlite lives inside the api's process: its queue cannot be read from here.
  if (database === 'PGlite') return { env, jobs: async () => 'jobs: not readable on PGlite' };
  const { db, schema, drop } = await openTestDb('PostgreSQL');
  cleanups.push(async () => {
    await db.query(`DROP SCHEMA IF EXISTS "${schema}_jobs" CASCADE`);
    await drop();
  });
  const url = new URL(TEST_DATABASE_URL!);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    env: { ...env, DATABASE_URL: url.toString(), JOBS_SCHEMA: `${schema}_jobs` },
    db,
    async jobs() {
      const rows = await db
        .query<{ name: string; state: string; count: number; error: string | null }>(
          `SELECT name, state::text AS state, count(*)::int AS count, min(output->>'message') AS error
             FROM "${schema}_jobs".job WHERE name NOT LIKE '\\_\\_%' GROUP BY 1, 2 ORDER BY min(created_on)`,
        )
        .catch((error: Error) => [{ name: 'not readable', state: error.message, count: 1, error: null }]);
      const list = rows.map(
        (row) => `${row.name} ${row.state}${row.count > 1 ? ` ×${row.count}` : ''}${row.error ? ` (${row.error})` : ''}`,
      );
      return `jobs: ${list.join(', ') || 'none'}`;
    },
  };
}

/** New fans, each subscribed (free) to the seeded artist, a few at a time. */
async function newFans(url: string, artistId: string, count: number, prefix: string) {
  const fans: { email: string; token: string }[] = [];
  const one = async () => {
    const username = uniqueName(prefix);
    const email = `${username}@example.com`;
    const headers = { 'x-forwarded-for': clientAddress() };
    const registered = await call<{ token: string }>(url, 'POST', '/auth/users/register', {
      body: { username, email, password: FAN_PASSWORD },
      headers,
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    const token = registered.body.data.token;
    const subscribed = await call(url, 'POST', '/payment/subscribe/performers', {
      token,
      headers,
      body: { type: 'free', performerId: artistId },
    });
    expect(subscribed.status).toBe(200);
    fans.push({ email, token });
  };
  for (let i = 0; i < count; i += 4) await Promise.all(Array.from({ length: Math.min(4, count - i) }, one));
  return fans;
}

/** Resolves once `value()` has not changed for `quietMs`. */
async function quiet(value: () => number, quietMs: number, timeoutMs: number, seen: () => Promise<string>) {
  let last = value();
  let since = Date.now();
  await until(
    'the fan-out to stand still',
    async () => {
      const now = value();
      if (now !== last) [last, since] = [now, Date.now()];
      return Date.now() - since >= quietMs || undefined;
    },
    timeoutMs,
    seen,
  );
}

describeEachDatabase('the job queue under SIGKILL', (database) => {
  it('a kill in the middle of a fan-out batch: after a restart every fan is told exactly once', { timeout: 180_000 }, async () => {
    const smtp = await startSmtp();
    cleanups.push(() => smtp.close());
    const { env, jobs } = await storage(database.name, smtp);
    const first = await startApiProcess(env, cleanups);
    let running = first;

    const artistLogin = await call<{ token: string }>(first.url, 'POST', '/auth/login', {
      body: { username: ARTIST.email, password: ARTIST.password, remember: true },
    });
    const artistToken = artistLogin.body.data.token;
    const artist = await call<{ _id: string }>(first.url, 'GET', `/performers/${ARTIST.username}`, { token: artistToken });
    const fans: { email: string; token: string }[] = [];
    for (let i = 0; i < FANS; i++) {
      const username = uniqueName('crash');
      const email = `${username}@example.com`;
      const headers = { 'x-forwarded-for': clientAddress() };
      const registered = await call<{ token: string }>(first.url, 'POST', '/auth/users/register', {
        body: { username, email, password: FAN_PASSWORD },
        headers,
      });
      const token = registered.body.data.token;
      expect(
        (
          await call(first.url, 'POST', '/payment/subscribe/performers', {
            token,
            headers,
            body: { type: 'free', performerId: artist.body.data._id },
          })
        ).status,
      ).toBe(200);
      fans.push({ email, token });
    }
    const postMails = (email: string) => smtp.to(email).filter((mail) => mail.parsed.subject?.endsWith(POST_TITLE));
    const told = () => fans.reduce((sum, fan) => sum + postMails(fan.email).length, 0);
    // What a timeout says, on the error's first line (CI keeps that line of a failure): the mails, the queue and the
    // api's last words.
    const seen = async () => {
      const said = running.output().trim().split('\n').slice(-3).join(' ⏎ ').slice(-600);
      return `told ${told()} of ${FANS}, ${smtp.mails.length} mails in all, ${smtp.held()} held; ${await jobs()}; the api said: ${said || 'nothing'}`;
    };
    // Each fan's welcome mail first, so the queue is quiet when the post goes out.
    await until('the welcome mails', async () => fans.every((fan) => smtp.to(fan.email).length === 1) || undefined, 60_000, seen);

    // The test's SMTP server stops answering after the fifth mail of the post to these fans: the workers are then stuck
    // mid-batch however fast the queue goes (asking from here, all sixteen could be out before the hold). The demo's
    // own members are told too, in an order of their ids: counting their mails, the hold could come before five of
    // these fans were told (CI saw it once).
    const ours = new Set(fans.map((fan) => fan.email));
    smtp.holdAfter(5, (mail) => ours.has(mail.to) && (mail.parsed.subject?.endsWith(POST_TITLE) ?? false));
    const posted = await call(first.url, 'POST', '/content', {
      token: artistToken,
      body: { title: POST_TITLE, content: '<p>Doors at eight.</p>', tags: 'announcement' },
    });
    expect(posted.status).toBe(201);
    await until('the first mails of the fan-out', async () => told() >= 5 || undefined, 60_000, seen);
    // Every worker now waits on a held mail; what was accepted before has been recorded.
    let held = -1;
    await until(
      'the workers to block on held mails',
      async () => {
        const now = smtp.held();
        const settled = now > 0 && now === held;
        held = now;
        await new Promise((resolve) => setTimeout(resolve, 400));
        return settled || undefined;
      },
      60_000,
      seen,
    );
    const before = told();
    expect(before).toBeLessThan(FANS);
    first.child.kill('SIGKILL');
    await exited(first.child);
    smtp.release();

    const second = await startApiProcess(env, cleanups);
    running = second;
    await until('every fan to be told', async () => told() >= FANS || undefined, 120_000, seen);
    // Long enough for any job taken twice to have sent twice (its lease, the supervisor, a retry).
    await new Promise((resolve) => setTimeout(resolve, 8000));
    for (const fan of fans) {
      expect(postMails(fan.email), fan.email).toHaveLength(1);
      const bell = await call<{ total: number; data: { item: { title: string } }[] }>(second.url, 'GET', '/notifications', {
        token: fan.token,
      });
      expect(bell.body.data.total).toBe(1);
      expect(bell.body.data.data[0].item.title).toBe(POST_TITLE);
    }
    second.child.kill('SIGTERM');
    await exited(second.child);
    expect(second.child.exitCode, second.output()).toBe(0);
  });

  it(
    'SIGKILL during a fan-out to 150 fans, some mails accepted and not yet recorded: after a restart every fan is mailed exactly once, within seconds',
    { timeout: 400_000 },
    async () => {
      const FAN_OUT = 150;
      const TITLE = 'Second show added';
      const smtp = await startSmtp();
      cleanups.push(() => smtp.close());
      // pg-boss's own expiry as it is by default (five minutes): only the restart can make this prompt.
      const store = await storage(database.name, smtp, { NOTIFY_BATCH_SIZE: '50', JOB_TIMEOUT_SECONDS: '300' });
      const first = await startApiProcess(store.env, cleanups);
      let running = first;
      const artistToken = (
        await call<{ token: string }>(first.url, 'POST', '/auth/login', {
          body: { username: ARTIST.email, password: ARTIST.password, remember: true },
        })
      ).body.data.token;
      const artistId = (await call<{ _id: string }>(first.url, 'GET', `/performers/${ARTIST.username}`, { token: artistToken })).body.data
        ._id;
      const fans = await newFans(first.url, artistId, FAN_OUT, 'fanout');
      const ours = new Set(fans.map((fan) => fan.email));
      const postMails = (email: string) => smtp.to(email).filter((mail) => mail.parsed.subject?.endsWith(TITLE));
      const told = () => fans.reduce((sum, fan) => sum + postMails(fan.email).length, 0);
      const seen = async () => {
        const said = running.output().trim().split('\n').slice(-3).join(' ⏎ ').slice(-600);
        return `told ${told()} of ${FAN_OUT}, ${smtp.held()} held; ${await store.jobs()}; the api said: ${said || 'nothing'}`;
      };
      await until('the welcome mails', async () => fans.every((fan) => smtp.to(fan.email).length === 1) || undefined, 120_000, seen);

      // Where the kill lands is made certain. On PostgreSQL the ledger's table is locked from here once 20 fans are
      // mailed: the SMTP server accepts each lane's next mail, and the lane then waits on its record, so when the
      // process dies every lane holds a mail accepted and not recorded. (PGlite is inside the api's process and
      // cannot be locked from here: its SMTP server stops answering after 40 mails instead, as above.)
      const isOurPost = (mail: { to: string; parsed: { subject?: string } }) =>
        ours.has(mail.to) && (mail.parsed.subject?.endsWith(TITLE) ?? false);
      if (database.name === 'PGlite') smtp.holdAfter(40, isOurPost);
      const posted = await call(first.url, 'POST', '/content', {
        token: artistToken,
        body: { title: TITLE, content: '<p>Same venue, the night after.</p>', tags: 'announcement' },
      });
      expect(posted.status).toBe(201);
      let unlock: (() => Promise<void>) | undefined;
      if (store.db) {
        const db = store.db;
        await until('the first mails of the fan-out', async () => told() >= 20 || undefined, 60_000, seen);
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        let locked!: (pid: number) => void;
        const holder = new Promise<number>((resolve) => (locked = resolve));
        const transaction = db.transaction(async (tx) => {
          await tx.query('LOCK TABLE notifications IN EXCLUSIVE MODE');
          const [{ pid }] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
          locked(pid);
          await released;
        });
        const pid = await holder;
        unlock = async () => {
          // The dead process's statements still wait on the lock; they must not land once it is let go.
          await db.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [pid]);
          await until(
            "the dead api's statements to be gone",
            async () =>
              (await db.query('SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [pid])).length === 0 || undefined,
            10_000,
          );
          release();
          await transaction;
        };
      }
      await quiet(told, 2000, 60_000, seen);
      const before = told();
      expect(before).toBeGreaterThan(0);
      expect(before).toBeLessThan(FAN_OUT);
      if (store.db) {
        const [{ recorded }] = await store.db.query<{ recorded: number }>(
          `SELECT count(*)::int AS recorded FROM notifications n JOIN content_items c ON c.id = n.item_id
            WHERE c.title = $1 AND n.emailed_at IS NOT NULL`,
          [TITLE],
        );
        // The case this is about: mail the SMTP server accepted that the ledger does not have.
        expect(recorded).toBeLessThan(before);
      }
      first.child.kill('SIGKILL');
      await exited(first.child);
      if (unlock) await unlock();
      smtp.release();

      const second = await startApiProcess(store.env, cleanups);
      running = second;
      const restarted = Date.now();
      await until('every fan to be mailed', async () => told() >= FAN_OUT || undefined, 45_000, seen);
      expect(Date.now() - restarted).toBeLessThan(45_000);
      // Long enough for a batch taken twice to have sent twice.
      await new Promise((resolve) => setTimeout(resolve, 6000));
      const twice = fans.filter((fan) => postMails(fan.email).length !== 1).map((fan) => `${fan.email}: ${postMails(fan.email).length}`);
      expect(twice, `fans not mailed exactly once (${before} mailed before the kill)`).toEqual([]);
      second.child.kill('SIGTERM');
      await exited(second.child);
      expect(second.child.exitCode, second.output()).toBe(0);
    },
  );
});
