import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { resolveMediaTools } from '../../api/media/ffmpeg';
import { call, clientAddress, describeEachDatabase, FAN_PASSWORD, openTestDb, TEST_DATABASE_URL, uniqueName } from '../helpers/api';
import { exited, startApiProcess, until } from '../helpers/process';

/**
 * Media processing under a crash (issue 20): the api is killed with SIGKILL while ffmpeg transcodes a video's HLS
 * ladder; after a restart the job is taken again and finishes once: the file is marked ready once, its item is
 * announced once, and the orphaned ffmpeg stops rather than transcoding on. The api runs as `npm start` runs it
 * (server/index.ts, SERVE=api), on PGlite in a data directory and on PostgreSQL.
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

describeEachDatabase('media processing under SIGKILL', (database) => {
  it('a kill in the middle of a transcode: after a restart the job finishes once', { timeout: 240_000 }, async () => {
    const env = await storage(database.name);
    const clip = path.join(env.DATA_DIR, 'clip.mp4');
    await promisify(execFile)(tools.ffmpeg, [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=1280x720:rate=25:duration=20'],
      ...[
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=330:duration=20',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-c:a',
        'aac',
        '-shortest',
        clip,
      ],
    ]);
    const first = await startApiProcess(env, cleanups, 'info');
    const artistToken = (
      await call<{ token: string }>(first.url, 'POST', '/auth/login', {
        body: { username: ARTIST.email, password: ARTIST.password, remember: true },
      })
    ).body.data.token;
    const artist = await call<{ _id: string }>(first.url, 'GET', `/performers/${ARTIST.username}`, { token: artistToken });
    const username = uniqueName('crash');
    const headers = { 'x-forwarded-for': clientAddress() };
    const fan = (
      await call<{ token: string }>(first.url, 'POST', '/auth/users/register', {
        body: { username, email: `${username}@example.com`, password: FAN_PASSWORD },
        headers,
      })
    ).body.data.token;
    await call(first.url, 'POST', '/payment/subscribe/performers', {
      token: fan,
      headers,
      body: { type: 'free', performerId: artist.body.data._id },
    });

    const form = new FormData();
    form.append('file', new Blob([fs.readFileSync(clip)], { type: 'video/mp4' }), 'clip.mp4');
    const uploaded = await fetch(`${first.url}/media?kind=video`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${artistToken}` },
    });
    expect(uploaded.status).toBe(201);
    const media = ((await uploaded.json()) as { data: { _id: string } }).data;
    const posted = await call(first.url, 'POST', '/content', {
      token: artistToken,
      body: { title: 'Tour video', content: 'from the road', tags: 'tourDiary', mediaId: media._id },
    });
    expect(posted.status).toBe(201);

    // The ladder is being encoded: kill the api there.
    const encoder = await until(
      'ffmpeg to encode the HLS ladder',
      async () => ffmpegChildren(first.child.pid!).find((p) => p.args.includes(' hls ')),
      60_000,
      first.output,
    );
    first.child.kill('SIGKILL');
    await exited(first.child);
    // Its ffmpeg, orphaned, stops at its next progress line instead of transcoding on for nobody.
    await until('the orphaned ffmpeg to stop', async () => (alive(encoder.pid) ? undefined : true), 15_000);

    const second = await startApiProcess(env, cleanups, 'info');
    const item = await until(
      'the item to be processed and shown to fans',
      async () => {
        const read = await call(second.url, 'GET', `/content/${posted.body.data._id}`, { token: fan });
        return read.status === 200 ? read.body.data : undefined;
      },
      180_000,
      second.output,
    );
    expect(item.media.status).toBe('ready');
    expect(Math.abs(item.media.duration - 20)).toBeLessThan(0.1);
    // Long enough for a job taken twice to have finished twice.
    await until(
      'the fan to be told',
      async () => ((await call(second.url, 'GET', '/notifications', { token: fan })).body.data.total > 0 ? true : undefined),
      30_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const processed = (first.output() + second.output()).split('\n').filter((line) => line.includes('"media: processed"'));
    expect(processed).toHaveLength(1);
    const bell = await call(second.url, 'GET', '/notifications', { token: fan });
    expect(bell.body.data.total).toBe(1);
    expect(bell.body.data.data[0].item.title).toBe('Tour video');
    second.child.kill('SIGTERM');
    await exited(second.child);
    expect(second.child.exitCode, second.output()).toBe(0);
  });
});
