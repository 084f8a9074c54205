// Part 8: media (docs/media.md). The production build processes real uploads made here by ffmpeg, through
// its api and its media.process job (the pipeline fans' files go through, nice 19, one at a time), and takes a large
// upload over tus through a connection that is cut twice. Budgets:
//   - audio: a WAV of a few minutes transcoded at ≥ 20× real time (the job's own time, from its log line);
//   - video: a 60 s 1080p MP4's HLS ladder (360p, 720p, 1080p, poster, waveform) in ≤ 3× real time;
//   - the artist home's p99 while a video transcodes ≤ 2× its p99 idle (autocannon, the job's first minute);
//   - a 200 MB upload through tus (tus-js-client, retrying as the browser does) with the connection cut twice
//     completes, and the stored file's sha256 is the source's.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as tus from 'tus-js-client';
import { api, ARTIST, ARTIST_EMAILS, ARTIST_PASSWORD, BROWSE_CONNECTIONS, browseArtistHome, FAN, login, startApp } from './app.mjs';
import { sleep } from './lib.mjs';
import { ffmpeg } from './media-tools.mjs';

export const AUDIO_SECONDS = 180;
export const VIDEO_SECONDS = 60;
export const AUDIO_SPEED_BUDGET = 20;
export const VIDEO_TIME_BUDGET = 3;
export const MEDIA_P99_RATIO = 2;
export const TUS_BYTES = 200_000_000;
/** Where the proxy cuts the upload's connection: after this many bytes of the upload have passed it, in all. */
const CUTS_AT = [60_000_000, 140_000_000];
const IDLE_S = 10;
const DURING_S = 60;

const run = promisify(execFile);

/** The inputs, made with ffmpeg: a stereo 44.1 kHz WAV (a tone over pink noise), and a 1080p test picture with sound. */
async function makeInputs(dir) {
  const wav = path.join(dir, 'demo.wav');
  await run(ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=frequency=220:duration=${AUDIO_SECONDS}`],
    ...['-f', 'lavfi', '-i', `anoisesrc=color=pink:amplitude=0.2:duration=${AUDIO_SECONDS}`],
    ...['-filter_complex', '[0:a][1:a]amerge=inputs=2', '-ar', '44100', '-c:a', 'pcm_s16le', wav],
  ]);
  const mp4 = path.join(dir, 'phone-1080p.mp4');
  await run(ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=1920x1080:rate=30:duration=${VIDEO_SECONDS}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=330:duration=${VIDEO_SECONDS}`],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '160k', '-shortest', mp4],
  ]);
  // The tus upload: a WAV of white noise (no stretch of it repeats), 200 MB.
  const big = path.join(dir, 'long-take.wav');
  const seconds = Math.floor((TUS_BYTES - 44) / (48_000 * 2 * 2));
  await run(ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `anoisesrc=color=white:amplitude=0.3:seed=7:duration=${seconds}`],
    ...['-ac', '2', '-ar', '48000', '-c:a', 'pcm_s16le', big],
  ]);
  return { wav, mp4, big };
}

async function uploadFile(app, token, kind, file, type) {
  const form = new FormData();
  form.append('file', new Blob([fs.readFileSync(file)], { type }), path.basename(file));
  return api(app, 'POST', `/media?kind=${kind}`, { token, body: form });
}

/**
 * CPU seconds the app's finished child processes used (ffmpeg and ffprobe), from /proc/<pid>/stat (cutime + cstime,
 * in clock ticks of 1/100 s): what a transcode costs whatever else the machine runs.
 */
function childCpuSeconds(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // After the command: state is field 3; cutime and cstime are fields 16 and 17.
    return (Number(fields[16 - 3]) + Number(fields[17 - 3])) / 100;
  } catch {
    return null;
  }
}

/** The job's own time for a file, from its `media: processed` log line (the api logs JSON lines). */
function processedMs(app, mediaId) {
  for (const line of fs.readFileSync(app.log, 'utf8').split('\n')) {
    if (!line.includes('"media: processed"') || !line.includes(mediaId)) continue;
    try {
      return JSON.parse(line).ms;
    } catch {
      // a line cut by the log's end: read again later
    }
  }
  return undefined;
}

/**
 * Uploads a file through the api as the artist, puts it on a draft item (where the artist sees its status), and
 * waits for the job. Answers the media, the job's time (log) and the time from the upload's answer to `ready` seen
 * through the api (the job's time plus the queue's pick-up and our polling).
 */
async function processThroughApi(app, artistToken, { kind, file, type, whileWaiting }) {
  const cpuBefore = childCpuSeconds(app.pid);
  const media = await uploadFile(app, artistToken, kind, file, type);
  const uploaded = performance.now();
  const item = await api(app, 'POST', '/content', {
    token: artistToken,
    body: {
      title: `Bench ${kind} ${path.basename(file)}`,
      content: '<p>bench</p>',
      tags: kind === 'audio' ? 'demo' : 'videoMessage',
      mediaId: media._id,
      draft: true,
    },
  });
  const ready = (async () => {
    const deadline = Date.now() + 30 * 60_000;
    for (;;) {
      const read = await api(app, 'GET', `/content/${item._id}`, { token: artistToken });
      if (read.media?.status !== 'processing') return read.media;
      if (Date.now() > deadline) throw new Error(`${kind} ${media._id} still processing after 30 minutes`);
      await sleep(250);
    }
  })();
  const during = whileWaiting ? await whileWaiting(ready) : undefined;
  const done = await ready;
  const wallMs = performance.now() - uploaded;
  const cpuAfter = childCpuSeconds(app.pid);
  const cpuS = cpuBefore == null || cpuAfter == null ? null : cpuAfter - cpuBefore;
  if (done.status !== 'ready') throw new Error(`${kind} upload ${done.status}: ${done.failureReason}`);
  let jobMs;
  for (let i = 0; i < 20 && jobMs === undefined; i++) {
    jobMs = processedMs(app, media._id);
    if (jobMs === undefined) await sleep(250);
  }
  return { media: done, jobMs, wallMs, cpuS, during };
}

/**
 * A TCP proxy in front of the api that cuts the connection (both ways, at once) when the bytes sent through it
 * reach each of CUTS_AT while armed: a phone connection dropping twice mid-upload.
 */
function startCuttingProxy(port, target) {
  const state = { armed: false, sent: 0, cuts: 0, connections: 0 };
  const server = net.createServer((client) => {
    state.connections++;
    const upstream = net.connect(target, '127.0.0.1');
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk) => {
      if (state.armed) {
        state.sent += chunk.length;
        if (state.cuts < CUTS_AT.length && state.sent >= CUTS_AT[state.cuts]) {
          state.cuts++;
          return cut();
        }
      }
      if (!upstream.write(chunk)) {
        client.pause();
        upstream.once('drain', () => client.resume());
      }
    });
    upstream.on('data', (chunk) => client.write(chunk));
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
    client.on('error', cut);
    upstream.on('error', cut);
    client.on('close', cut);
    upstream.on('close', cut);
  });
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () => resolve({ state, close: () => new Promise((r) => server.close(r)) })),
  );
}

/** The tus upload as the browser's component makes it (app/components/resumable-upload.tsx): retries from the api's offset. */
function tusUpload(endpoint, token, bytes) {
  let retries = 0;
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(bytes, {
      endpoint,
      headers: { authorization: `Bearer ${token}` },
      metadata: { kind: 'audio', filename: 'long-take.wav' },
      retryDelays: [0, 500, 1000, 2000, 3000, 5000],
      removeFingerprintOnSuccess: true,
      onShouldRetry: () => {
        retries++;
        return true;
      },
      onError: reject,
      onSuccess: (payload) => {
        const response = payload?.lastResponse ?? upload._req?._response;
        resolve({ body: response?.getBody?.(), retries });
      },
    });
    upload.start();
  });
}

async function sha256OfUrl(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET the stored file → ${res.status}`);
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of res.body) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { sha256: hash.digest('hex'), size };
}

/** `onStop` is given the part's own stop (app, proxy, inputs), for the bench's cleanup when it is interrupted. */
export async function measureMedia({ pgUrl, webPort, apiPort, inspectPort, logDir, onStop = () => {} }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-bench-media-'));
  const proxyPort = apiPort + 30;
  console.log('  media: making the inputs with ffmpeg (a WAV, a 60 s 1080p MP4, a 200 MB WAV) …');
  const inputs = await makeInputs(dir);
  const proxy = await startCuttingProxy(proxyPort, apiPort);
  let app;
  const stop = async () => {
    await app?.stop();
    app = undefined;
    await proxy.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  onStop(stop);
  // The api's public origin is the proxy: the tus upload's address (Location) is on it, as a browser's would be.
  app = await startApp({
    db: pgUrl ? 'pg' : 'pglite',
    pgUrl,
    webPort,
    apiPort,
    inspectPort,
    logDir,
    env: { PUBLIC_API_URL: `http://127.0.0.1:${proxyPort}` },
  });
  try {
    const loadBefore = os.loadavg()[0];
    const fanToken = await login(app, FAN.email, FAN.password);
    const artistToken = await login(app, ARTIST_EMAILS[ARTIST], ARTIST_PASSWORD);

    console.log(`  media: audio, a ${AUDIO_SECONDS} s WAV …`);
    const audio = await processThroughApi(app, artistToken, { kind: 'audio', file: inputs.wav, type: 'audio/wav' });
    console.log(`  media: video, a ${VIDEO_SECONDS} s 1080p MP4, no pages asked for meanwhile …`);
    const video = await processThroughApi(app, artistToken, { kind: 'video', file: inputs.mp4, type: 'video/mp4' });

    await browseArtistHome(app, fanToken, { seconds: 3 });
    console.log(`  media: the artist home idle, ${BROWSE_CONNECTIONS} connections for ${IDLE_S} s …`);
    const idle = await browseArtistHome(app, fanToken, { seconds: IDLE_S });
    console.log(`  media: the artist home for up to ${DURING_S} s while the same video transcodes again (a new upload) …`);
    const loaded = await processThroughApi(app, artistToken, {
      kind: 'video',
      file: inputs.mp4,
      type: 'video/mp4',
      // At most DURING_S: at nice 19 under a crowd's load the transcode may take many minutes, and a minute of it
      // says what pages get while it runs.
      whileWaiting: (ready) => browseArtistHome(app, fanToken, { seconds: DURING_S, until: ready }),
    });
    const idleAfter = await browseArtistHome(app, fanToken, { seconds: IDLE_S });

    console.log(`  media: ${(TUS_BYTES / 1e6).toFixed(0)} MB through tus, the connection cut twice …`);
    const bytes = fs.readFileSync(inputs.big);
    const source = createHash('sha256').update(bytes).digest('hex');
    proxy.state.armed = true;
    const began = performance.now();
    const sent = await tusUpload(`http://127.0.0.1:${proxyPort}/uploads`, artistToken, bytes);
    const tusSeconds = (performance.now() - began) / 1000;
    proxy.state.armed = false;
    const media = JSON.parse(sent.body ?? '{}').data;
    const stored = media?.originalUrl ? await sha256OfUrl(media.originalUrl) : null;
    return {
      load: [loadBefore, os.loadavg()[0]],
      audio: { seconds: AUDIO_SECONDS, ...audio },
      video: { seconds: VIDEO_SECONDS, ...video },
      loaded: { jobMs: loaded.jobMs, wallMs: loaded.wallMs, cpuS: loaded.cpuS },
      idle: { p99: idle.latency.p99, p50: idle.latency.p50, rps: idle.requests.average, errors: idle.errors + idle.non2xx },
      during: {
        p99: loaded.during.latency.p99,
        p50: loaded.during.latency.p50,
        rps: loaded.during.requests.average,
        errors: loaded.during.errors + loaded.during.non2xx,
        seconds: loaded.during.duration,
      },
      idleAfter: { p99: idleAfter.latency.p99, rps: idleAfter.requests.average },
      tus: {
        bytes: bytes.length,
        source,
        stored,
        cuts: proxy.state.cuts,
        retries: sent.retries,
        connections: proxy.state.connections,
        seconds: tusSeconds,
        mediaId: media?._id,
      },
    };
  } finally {
    await stop();
  }
}

const s = (ms) => (ms == null ? '—' : `${(ms / 1000).toFixed(1)} s`);
const cpu = (seconds) => (seconds == null ? '—' : `${seconds.toFixed(1)} s`);

export function mediaReport(r) {
  const audioSpeed = r.audio.jobMs ? r.audio.seconds / (r.audio.jobMs / 1000) : null;
  const videoTime = r.video.jobMs ? r.video.jobMs / 1000 / r.video.seconds : null;
  const ratio = r.during.p99 / Math.max(1, r.idle.p99);
  const identical = r.tus.stored?.sha256 === r.tus.source && r.tus.stored?.size === r.tus.bytes;
  const table = {
    title: 'Media: processing through the api and its job (ffmpeg at nice 19), and a tus upload cut twice',
    header: ['what', 'value', 'notes'],
    rows: [
      [
        `audio: ${r.audio.seconds} s WAV → AAC + waveform`,
        s(r.audio.jobMs),
        `${audioSpeed?.toFixed(1) ?? '—'}× real time (the job's time); ${s(r.audio.wallMs)} from the upload's answer to ready; ffmpeg CPU ${cpu(r.audio.cpuS)}`,
      ],
      [
        `video: ${r.video.seconds} s 1080p → HLS 360p/720p/1080p + poster + waveform`,
        s(r.video.jobMs),
        `${videoTime?.toFixed(2) ?? '—'}× real time (the job's time); ${s(r.video.wallMs)} from the upload's answer to ready; ffmpeg CPU ${cpu(r.video.cpuS)}`,
      ],
      [
        'video again, while the artist home is browsed',
        s(r.loaded.jobMs),
        `${s(r.loaded.wallMs)} to ready; ffmpeg CPU ${cpu(r.loaded.cpuS)}`,
      ],
      [
        'artist home p99, idle',
        `${r.idle.p99} ms`,
        `p50 ${r.idle.p50} ms, ${r.idle.rps.toFixed(0)} pages/s, ${BROWSE_CONNECTIONS} connections`,
      ],
      [
        'artist home p99, during the transcode',
        `${r.during.p99} ms`,
        `p50 ${r.during.p50} ms, ${r.during.rps.toFixed(0)} pages/s over ${r.during.seconds.toFixed(0)} s; ${r.during.errors} errors`,
      ],
      ['artist home p99, idle after', `${r.idleAfter.p99} ms`, `${r.idleAfter.rps.toFixed(0)} pages/s; the machine's drift (not judged)`],
      ['load average (1 min), start → end', `${r.load[0].toFixed(1)} → ${r.load[1].toFixed(1)}`, `${os.cpus().length} cores`],
      [
        `tus: ${(r.tus.bytes / 1e6).toFixed(0)} MB, connection cut ${r.tus.cuts}×`,
        `${r.tus.seconds.toFixed(1)} s`,
        `${r.tus.retries} resumes, ${r.tus.connections} connections; sha256 ${identical ? 'identical' : `differs (${r.tus.stored?.size ?? 'no'} bytes stored)`}`,
      ],
    ],
  };
  const checks = [
    {
      part: 'media',
      what: `audio transcode speed (${r.audio.seconds} s WAV → AAC 160 kb/s + loudness + waveform)`,
      value: audioSpeed == null ? '—' : `${audioSpeed.toFixed(1)}× real time (${s(r.audio.jobMs)})`,
      budget: `≥ ${AUDIO_SPEED_BUDGET}×`,
      status: audioSpeed != null && audioSpeed >= AUDIO_SPEED_BUDGET ? 'ok' : 'miss',
      note: `ffmpeg CPU ${cpu(r.audio.cpuS)}; load average ${r.load[0].toFixed(1)}`,
    },
    {
      part: 'media',
      what: `HLS ladder of a ${r.video.seconds} s 1080p video (3 rungs, poster, waveform)`,
      value: videoTime == null ? '—' : `${videoTime.toFixed(2)}× real time (${s(r.video.jobMs)})`,
      budget: `≤ ${VIDEO_TIME_BUDGET}×`,
      status: videoTime != null && videoTime <= VIDEO_TIME_BUDGET ? 'ok' : 'miss',
      note: `ffmpeg CPU ${cpu(r.video.cpuS)}; load average ${r.load[0].toFixed(1)}`,
    },
    {
      part: 'media',
      what: 'artist home p99 during a video transcode against idle',
      value: `${r.during.p99} / ${r.idle.p99} ms = ${ratio.toFixed(2)}×`,
      budget: `≤ ${MEDIA_P99_RATIO}×`,
      status: ratio <= MEDIA_P99_RATIO && r.during.errors === 0 ? 'ok' : 'miss',
      note: r.during.errors ? `${r.during.errors} errors` : undefined,
    },
    {
      part: 'media',
      what: `${(r.tus.bytes / 1e6).toFixed(0)} MB through tus with the connection cut twice: stored bytes identical`,
      value: `${r.tus.cuts} cuts, ${r.tus.retries} resumes; sha256 ${identical ? 'identical' : 'differs'}`,
      budget: 'completes, identical',
      status: identical && r.tus.cuts === CUTS_AT.length && r.tus.retries >= CUTS_AT.length ? 'ok' : 'miss',
    },
  ];
  return { table, checks };
}
