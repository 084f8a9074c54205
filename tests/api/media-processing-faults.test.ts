import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { resolveMediaTools } from '../../api/media/ffmpeg';
import { clearAbandonedWork, WORK_ROOT } from '../../api/media/processing';
import { call, clientAddress, describeEachDatabase, FAN_PASSWORD, openTestDb, TEST_DATABASE_URL, uniqueName } from '../helpers/api';
import { exited, startApiProcess, until, type ApiProcess } from '../helpers/process';

/**
 * Media processing under a stop and a crash: the api is stopped with SIGTERM, then killed with SIGKILL,
 * while ffmpeg transcodes a video's HLS ladder. A stopping api kills its ffmpeg and exits at once; the ffmpeg a killed
 * one leaves behind is ended by the next start; each time the job is taken again, and it finishes once: the file is
 * marked ready once and its item announced once. The api runs as `npm start` runs it (server/index.ts, SERVE=api),
 * on PGlite in a data directory and on PostgreSQL.
 */

const ARTIST = { email: 'juniper@stagedoor.test', password: 'Stagedoor-artist-2026!', username: 'juniperlane' };
const tools = resolveMediaTools({});

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** The ffmpeg processes whose parent is the given process, with their command lines (Linux's /proc). */
function ffmpegChildren(parent: number) {
  const found: { pid: number; args: string }[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = fs.readFileSync(`/proc/${name}/status`, 'utf8');
      if (!/^Name:\s*ffmpeg$/m.test(status) || Number(/^PPid:\s*(\d+)/m.exec(status)?.[1]) !== parent) continue;
      found.push({ pid: Number(name), args: fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ') });
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

function alive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function storage(database: 'PGlite' | 'PostgreSQL'): Promise<Record<string, string>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-media-faults-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  // A transcode whose process died is taken again 3 s after it was last seen working (and retried 10 s later).
  const env = { DATA_DIR: dataDir, MEDIA_JOB_TIMEOUT_SECONDS: '3', JOB_TIMEOUT_SECONDS: '3', JOB_POLL_SECONDS: '0.5' };
  if (database === 'PGlite') return env;
  const { db, schema, drop } = await openTestDb('PostgreSQL');
  cleanups.push(async () => {
    await db.query(`DROP SCHEMA IF EXISTS "${schema}_jobs" CASCADE`);
    await drop();
  });
  const url = new URL(TEST_DATABASE_URL!);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { ...env, DATABASE_URL: url.toString(), JOBS_SCHEMA: `${schema}_jobs` };
}

/** A 20 s 720p H.264/AAC MP4: its ladder takes long enough to be caught encoding. */
async function makeClip(dir: string) {
  const clip = path.join(dir, 'clip.mp4');
  await promisify(execFile)(tools.ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=1280x720:rate=25:duration=20'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=330:duration=20'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', clip],
  ]);
  return clip;
}

/** The demo artist posts the clip as a new item, with a subscribed fan waiting for it: the fan's token and the item. */
async function postVideo(api: ApiProcess, clip: string) {
  const artistToken = (
    await call<{ token: string }>(api.url, 'POST', '/auth/login', {
      body: { username: ARTIST.email, password: ARTIST.password, remember: true },
    })
  ).body.data.token;
  const artist = await call<{ _id: string }>(api.url, 'GET', `/performers/${ARTIST.username}`, { token: artistToken });
  const username = uniqueName('crash');
  const headers = { 'x-forwarded-for': clientAddress() };
  const fan = (
    await call<{ token: string }>(api.url, 'POST', '/auth/users/register', {
      body: { username, email: `${username}@example.com`, password: FAN_PASSWORD },
      headers,
    })
  ).body.data.token;
  await call(api.url, 'POST', '/payment/subscribe/performers', {
    token: fan,
    headers,
    body: { type: 'free', performerId: artist.body.data._id },
  });

  const form = new FormData();
  form.append('file', new Blob([fs.readFileSync(clip)], { type: 'video/mp4' }), 'clip.mp4');
  const uploaded = await fetch(`${api.url}/media?kind=video`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${artistToken}` },
  });
  expect(uploaded.status).toBe(201);
  const media = ((await uploaded.json()) as { data: { _id: string } }).data;
  const posted = await call(api.url, 'POST', '/content', {
    token: artistToken,
    body: { title: 'Tour video', content: 'from the road', tags: 'tourDiary', mediaId: media._id },
  });
  expect(posted.status).toBe(201);
  return { fan, itemId: posted.body.data._id as string };
}

/** The ffmpeg of an api encoding the HLS ladder, once it is. */
const ladder = (api: ApiProcess) => async () => ffmpegChildren(api.child.pid!).find((p) => p.args.includes(' hls '));

describeEachDatabase('media processing under SIGTERM and SIGKILL', (database) => {
  it(
    'a stop and a kill in the middle of a transcode: no ffmpeg outlives its api, and the job finishes once',
    { timeout: 300_000 },
    async () => {
      const env = await storage(database.name);
      const clip = await makeClip(env.DATA_DIR);
      const first = await startApiProcess(env, cleanups, 'info');
      const { fan, itemId } = await postVideo(first, clip);

      // Stopped as a container is (SIGTERM) while the ladder is encoded: the api stops at once, its ffmpeg with it (ffmpeg
      // ignores SIGPIPE: left alone it would encode on for nobody), rather than waiting out the jobs' 8 s grace.
      const stopped = await until('ffmpeg to encode the HLS ladder', ladder(first), 60_000, first.output);
      first.child.kill('SIGTERM');
      await until('the api to stop', async () => (first.child.exitCode === null ? undefined : true), 5000, first.output);
      expect(first.child.exitCode, first.output()).toBe(0);
      await until('its ffmpeg to be gone', async () => (alive(stopped.pid) ? undefined : true), 2000);
      expect(first.output()).toContain('media: processing stopped with the api, to be taken again');

      // Killed (SIGKILL) while the ladder is encoded again: the ffmpeg it leaves behind is ended by the next start.
      const second = await startApiProcess(env, cleanups, 'info');
      const orphaned = await until('ffmpeg to encode the HLS ladder again', ladder(second), 60_000, second.output);
      second.child.kill('SIGKILL');
      await exited(second.child);
      const third = await startApiProcess(env, cleanups, 'info');
      await until('the orphaned ffmpeg to be ended', async () => (alive(orphaned.pid) ? undefined : true), 10_000);

      const item = await until(
        'the item to be processed and shown to fans',
        async () => {
          const read = await call(third.url, 'GET', `/content/${itemId}`, { token: fan });
          return read.status === 200 ? read.body.data : undefined;
        },
        180_000,
        third.output,
      );
      expect(item.media.status).toBe('ready');
      expect(Math.abs(item.media.duration - 20)).toBeLessThan(0.1);
      // Long enough for a job taken twice to have finished twice.
      await until(
        'the fan to be told',
        async () => ((await call(third.url, 'GET', '/notifications', { token: fan })).body.data.total > 0 ? true : undefined),
        30_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 5000));
      const processed = [first, second, third]
        .flatMap((api) => api.output().split('\n'))
        .filter((line) => line.includes('"media: processed"'));
      expect(processed).toHaveLength(1);
      const bell = await call(third.url, 'GET', '/notifications', { token: fan });
      expect(bell.body.data.total).toBe(1);
      expect(bell.body.data.data[0].item.title).toBe('Tour video');
      third.child.kill('SIGTERM');
      await exited(third.child);
      expect(third.child.exitCode, third.output()).toBe(0);
    },
  );

  it(
    'a transcode whose api was killed (SIGKILL) is taken again as soon as the api restarts, not after MEDIA_JOB_TIMEOUT_SECONDS',
    { timeout: 300_000 },
    async () => {
      // The default timeout (3 hours): only the start's hand-back can take the job again within this test.
      const env: Record<string, string> = { ...(await storage(database.name)), MEDIA_JOB_TIMEOUT_SECONDS: '10800' };
      const clip = await makeClip(env.DATA_DIR);
      const first = await startApiProcess(env, cleanups, 'info');
      const { fan, itemId } = await postVideo(first, clip);
      const orphaned = await until('ffmpeg to encode the HLS ladder', ladder(first), 60_000, first.output);
      first.child.kill('SIGKILL');
      await exited(first.child);

      const second = await startApiProcess(env, cleanups, 'info');
      await until('the orphaned ffmpeg to be ended', async () => (alive(orphaned.pid) ? undefined : true), 10_000);
      const item = await until(
        'the item to be processed and shown to fans',
        async () => {
          const read = await call(second.url, 'GET', `/content/${itemId}`, { token: fan });
          return read.status === 200 ? read.body.data : undefined;
        },
        180_000,
        second.output,
      );
      expect(item.media.status).toBe('ready');
      expect(second.output()).toContain('media: processing handed back, its process died');
      expect(
        second
          .output()
          .split('\n')
          .filter((line) => line.includes('"media: processed"')),
      ).toHaveLength(1);
      second.child.kill('SIGTERM');
      await exited(second.child);
    },
  );
});

it("a start ends the ffmpeg a dead process left working in its folder, and leaves a live process's alone", async () => {
  // A process id nobody has now: one that has just ended.
  const gone = spawn(process.execPath, ['-e', '0']);
  await exited(gone);
  const folders = { dead: path.join(WORK_ROOT, `${gone.pid}-abandoned`), live: path.join(WORK_ROOT, `${process.pid}-working`) };
  const encoders = Object.fromEntries(
    Object.entries(folders).map(([which, folder]) => {
      fs.mkdirSync(folder, { recursive: true });
      const args = ['-nostdin', '-v', 'error', '-re', '-f', 'lavfi', '-i', 'sine=duration=120', '-y', path.join(folder, 'out.wav')];
      const child = spawn(tools.ffmpeg, args, { stdio: 'ignore' });
      cleanups.push(() => void child.kill('SIGKILL'));
      return [which, child];
    }),
  );
  // Running (a start elsewhere in the suite may end the dead one's first: the same claim).
  await Promise.all(Object.values(encoders).map((child) => new Promise((resolve) => child.once('spawn', resolve))));

  await clearAbandonedWork();
  await exited(encoders.dead);
  expect(encoders.dead.signalCode).toBe('SIGKILL');
  expect(fs.existsSync(folders.dead)).toBe(false);
  expect(encoders.live.exitCode).toBeNull();
  expect(fs.existsSync(folders.live)).toBe(true);
  encoders.live.kill('SIGKILL');
  fs.rmSync(folders.live, { recursive: true, force: true });
});
