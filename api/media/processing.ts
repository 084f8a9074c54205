import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import { PEAKS_POINTS } from '#contract/content';
import { LARGE_WIDTH } from '#contract/image-sizes';
import { tag } from '../cache/tags.js';
import { one } from '../db/client.js';
import type { RunningJob } from '../jobs/queue.js';
import { MEDIA_RETRY_LIMIT, queues } from '../jobs/queues.js';
import { announceWhenVisible } from '../notifications/fanout.js';
import type { ContentServices } from '../content/services.js';
import { killToolsWorkingIn, run, type MediaTools } from './ffmpeg.js';
import { FALLBACK_FILE } from './signing.js';

/**
 * After an audio or video upload (docs/media.md): one job per file on the durable queue probes it, makes what fans
 * are served, and marks it ready; the items that waited for it then become visible and are announced.
 *
 *   audio → loudness-normalised AAC in MP4 (.m4a, 160 kb/s) and its waveform peaks
 *   video → an HLS ladder in H.264/AAC (360p, 720p, 1080p as the source allows), one rung of it as a progressive
 *           MP4 (for browsers without HLS and without JavaScript), a poster frame, and its peaks
 *
 * The original stays for the artist. What a run writes goes under keys made from the file's own key, so a run taken
 * again (its process died) writes the same files over, and only the first to finish marks the file ready.
 */

export const processingMessages = {
  unreadable: "This file couldn't be read: it may be damaged or incomplete. Please upload it again.",
  noAudio: 'This file has no sound to play. Please upload an audio file.',
  noVideo: 'This file has no picture to play. Please upload a video.',
  failed: "We couldn't process this file. Please upload it again.",
} as const;

/** Loudness targets (EBU R128 as streaming services use it): about -14 LUFS, true peaks below -1 dBTP. */
const TARGET_LUFS = -14;
const MAX_TRUE_PEAK = -1;
const MAX_GAIN_DB = 20;

/** The ladder's rungs by their short side (a phone's portrait video is 1080p too), with their video bitrates. */
const LADDER = [
  { height: 360, kbps: 800 },
  { height: 720, kbps: 2800 },
  { height: 1080, kbps: 5000 },
] as const;

/** Seconds per HLS segment. */
const SEGMENT_SECONDS = 4;

/** Samples per second of the mono signal the peaks are read from. */
const PEAKS_RATE = 8000;

export type MediaServices = Pick<ContentServices, 'db' | 'storage' | 'cache' | 'log' | 'jobs' | 'mediaTools'>;

/** An upload that can never be processed: the file is failed with this reason at once, without retries. */
class Unprocessable extends Error {}

interface Probe {
  duration: number;
  codecs: string;
  audio: boolean;
  video?: { width: number; height: number };
}

interface StreamInfo {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  duration?: string;
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
  disposition?: { attached_pic?: number };
}

/** What ffprobe reads of a file: its duration, codecs, and the size of its picture as shown (rotation applied). */
export async function probe(tools: MediaTools, file: string): Promise<Probe> {
  let parsed: { format?: { duration?: string }; streams?: StreamInfo[] };
  try {
    const { stdout } = await run(tools, 'ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file]);
    parsed = JSON.parse(stdout) as typeof parsed;
  } catch {
    throw new Unprocessable(processingMessages.unreadable);
  }
  const streams = parsed.streams ?? [];
  const audio = streams.find((stream) => stream.codec_type === 'audio');
  // Cover art in an audio file is a video stream of one picture: not a video.
  const video = streams.find((stream) => stream.codec_type === 'video' && !stream.disposition?.attached_pic);
  const duration = Number(parsed.format?.duration ?? audio?.duration ?? video?.duration);
  if (!Number.isFinite(duration) || duration <= 0 || (!audio && !video)) throw new Unprocessable(processingMessages.unreadable);
  const rotation = Math.abs(
    Number(video?.tags?.rotate ?? video?.side_data_list?.find((data) => data.rotation !== undefined)?.rotation ?? 0),
  );
  const turned = rotation % 180 === 90;
  return {
    duration,
    codecs: [video?.codec_name, audio?.codec_name].filter(Boolean).join(','),
    audio: Boolean(audio),
    video:
      video?.width && video.height
        ? { width: turned ? video.height : video.width, height: turned ? video.width : video.height }
        : undefined,
  };
}

/**
 * One pass over the sound: its loudness (ffmpeg's loudnorm measure) and its waveform, the loudest sample of each of
 * PEAKS_POINTS equal stretches, scaled so the loudest point is 1.
 */
async function analyseSound(tools: MediaTools, input: string, duration: number) {
  const points = new Array<number>(PEAKS_POINTS).fill(0);
  const total = Math.max(1, Math.round(duration * PEAKS_RATE));
  let index = 0;
  let carry: Buffer | null = null;
  let reading: Promise<void> = Promise.resolve();
  const { stderr } = await run(
    tools,
    'ffmpeg',
    [
      ...['-hide_banner', '-nostdin', '-nostats', '-v', 'info', '-progress', 'pipe:1', '-i', input],
      ...['-map', '0:a:0', '-af', 'loudnorm=print_format=json', '-f', 'null', '-'],
      ...['-map', '0:a:0', '-ac', '1', '-ar', String(PEAKS_RATE), '-f', 's16le', 'pipe:3'],
    ],
    {
      onExtraOutput(stream) {
        reading = (async () => {
          for await (const chunk of stream) {
            let bytes = chunk as Buffer;
            if (carry) {
              bytes = Buffer.concat([carry, bytes]);
              carry = null;
            }
            const whole = bytes.length - (bytes.length % 2);
            if (whole < bytes.length) carry = bytes.subarray(whole);
            for (let at = 0; at < whole; at += 2, index++) {
              const point = Math.min(PEAKS_POINTS - 1, Math.floor((index * PEAKS_POINTS) / total));
              const level = Math.abs(bytes.readInt16LE(at));
              if (level > points[point]) points[point] = level;
            }
          }
        })();
      },
    },
  );
  await reading;
  const loudest = Math.max(...points);
  const peaks = points.map((level) => (loudest ? Math.round((level / loudest) * 1000) / 1000 : 0));
  const measured = /\{[^{}]*"input_i"[^{}]*\}/.exec(stderr);
  const loudness = measured ? (JSON.parse(measured[0]) as { input_i: string; input_tp: string }) : undefined;
  const integrated = Number(loudness?.input_i);
  const truePeak = Number(loudness?.input_tp);
  // Silence measures as -inf: it is left as it is.
  const gain =
    Number.isFinite(integrated) && Number.isFinite(truePeak)
      ? Math.min(TARGET_LUFS - integrated, MAX_TRUE_PEAK - truePeak, MAX_GAIN_DB)
      : 0;
  return { peaks, gainDb: Math.round(gain * 100) / 100 };
}

/** The AAC stream of an audio file: one linear gain to the loudness target, 160 kb/s, ready to play from its start. */
async function encodeAudio(tools: MediaTools, input: string, output: string, gainDb: number) {
  await run(tools, 'ffmpeg', [
    ...['-hide_banner', '-nostdin', '-v', 'error', '-progress', 'pipe:1', '-i', input],
    ...['-map', '0:a:0', '-vn', '-af', `volume=${gainDb}dB,aresample=48000:resampler=soxr`],
    ...['-c:a', 'aac', '-b:a', '160k', '-movflags', '+faststart', '-f', 'mp4', output],
  ]);
}

/** The rungs a source allows: those no taller than it (by its short side), or one at its own size when it is smaller. */
export function ladderFor(video: { width: number; height: number }) {
  const short = Math.min(video.width, video.height);
  const rungs = LADDER.filter((rung) => rung.height <= short);
  return rungs.length ? rungs : [{ height: Math.max(2, short - (short % 2)), kbps: LADDER[0].kbps }];
}

/**
 * The HLS ladder: every rung in one ffmpeg run (the source is decoded once), one HLS output per rung with keyframes
 * on the segment boundaries, so a player can switch rungs between any two segments; then the master playlist that
 * lists them. (One output per rung, rather than ffmpeg's var_stream_map: the shipped ffmpeg 4.1 crashes on that.)
 */
async function encodeVideo(
  tools: MediaTools,
  input: string,
  outDir: string,
  probed: Probe & { video: { width: number; height: number } },
  gainDb: number,
) {
  const rungs = ladderFor(probed.video).map((rung) => {
    const { width, height } = probed.video;
    const portrait = height > width;
    const long = Math.round(((portrait ? height : width) * rung.height) / Math.min(width, height) / 2) * 2;
    return { ...rung, size: portrait ? { width: rung.height, height: long } : { width: long, height: rung.height } };
  });
  const graph = [
    `[0:v:0]split=${rungs.length}${rungs.map((_, i) => `[s${i}]`).join('')}`,
    ...rungs.map((rung, i) => `[s${i}]scale=${rung.size.width}:${rung.size.height},format=yuv420p[v${i}]`),
    ...(probed.audio ? [`[0:a:0]volume=${gainDb}dB,aresample=48000,asplit=${rungs.length}${rungs.map((_, i) => `[a${i}]`).join('')}`] : []),
  ].join(';');
  const outputs = rungs.flatMap((rung, i) => [
    ...['-map', `[v${i}]`, ...(probed.audio ? ['-map', `[a${i}]`, '-c:a', 'aac', '-b:a', '128k', '-ac', '2'] : [])],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-maxrate', `${rung.kbps}k`, '-bufsize', `${rung.kbps * 2}k`],
    ...['-sc_threshold', '0', '-force_key_frames', `expr:gte(t,n_forced*${SEGMENT_SECONDS})`],
    ...['-f', 'hls', '-hls_time', String(SEGMENT_SECONDS), '-hls_playlist_type', 'vod', '-hls_flags', 'independent_segments'],
    ...['-hls_segment_filename', path.join(outDir, `v${i}`, 'seg%05d.ts'), path.join(outDir, `v${i}`, 'index.m3u8')],
  ]);
  for (const [i] of rungs.entries()) await fs.promises.mkdir(path.join(outDir, `v${i}`), { recursive: true });
  await run(tools, 'ffmpeg', [
    '-hide_banner',
    '-nostdin',
    '-v',
    'error',
    '-progress',
    'pipe:1',
    '-i',
    input,
    '-filter_complex',
    graph,
    ...outputs,
  ]);
  const master = [
    '#EXTM3U',
    '#EXT-X-VERSION:6',
    '#EXT-X-INDEPENDENT-SEGMENTS',
    ...rungs.flatMap((rung, i) => [
      `#EXT-X-STREAM-INF:BANDWIDTH=${Math.round((rung.kbps + (probed.audio ? 128 : 0)) * 1100)},RESOLUTION=${rung.size.width}x${rung.size.height}`,
      `v${i}/index.m3u8`,
    ]),
  ].join('\n');
  await fs.promises.writeFile(path.join(outDir, 'master.m3u8'), `${master}\n`);
  // The progressive fallback: the 720p rung (or the only one below it) copied out of its segments into one MP4,
  // index first, for a browser that plays no HLS with JavaScript off. No second encode: the same H.264 and AAC.
  const fallback = Math.min(1, rungs.length - 1);
  await run(tools, 'ffmpeg', [
    ...['-hide_banner', '-nostdin', '-v', 'error', '-progress', 'pipe:1', '-i', path.join(outDir, `v${fallback}`, 'index.m3u8')],
    ...['-map', '0', '-c', 'copy', ...(probed.audio ? ['-bsf:a', 'aac_adtstoasc'] : []), '-movflags', '+faststart'],
    ...['-f', 'mp4', path.join(outDir, FALLBACK_FILE)],
  ]);
}

/** A still from a second in (or the middle of a shorter video), as a WebP at most LARGE_WIDTH wide. */
async function posterFrame(tools: MediaTools, input: string, output: string, duration: number) {
  await run(tools, 'ffmpeg', [
    ...['-hide_banner', '-nostdin', '-v', 'error', '-progress', 'pipe:1', '-ss', String(Math.min(1, duration / 2)), '-i', input],
    ...['-frames:v', '1', '-f', 'image2', '-c:v', 'png', output],
  ]);
  return sharp(output).resize({ width: LARGE_WIDTH, withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
}

/** The files under dir, as paths relative to it with forward slashes. */
async function filesUnder(dir: string, prefix = ''): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await fs.promises.readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...(await filesUnder(dir, relative)));
    else if (entry.isFile()) files.push(relative);
  }
  return files;
}

/** Where processing works: a folder of this process's own under the system's temporary folder. */
export const WORK_ROOT = path.join(os.tmpdir(), 'stagedoor-media');

/** Whether a process of this machine is running (signal 0 only asks; EPERM: it runs, as another user). */
function processAlive(pid: number) {
  if (!(pid > 0)) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the work folders of processes that died mid-transcode (each is named after its process id), and ends the
 * tools such a process left running in them.
 */
export async function clearAbandonedWork() {
  const names = await fs.promises.readdir(WORK_ROOT).catch(() => [] as string[]);
  for (const name of names) {
    const pid = Number(name.split('-')[0]);
    if (pid === process.pid || processAlive(pid)) continue;
    killToolsWorkingIn(path.join(WORK_ROOT, name));
    await fs.promises.rm(path.join(WORK_ROOT, name), { recursive: true, force: true });
  }
}

/**
 * The job queue's recovery hook for transcodes (`jobs.onRecover`). Each run records on its file which job it is and
 * which job node runs it (`media.processing_job`, `media.processing_by`). When the queue finds a node dead, before it
 * hands that node's jobs back, its files' jobs are failed at once and retried as any crash is (rather than after
 * MEDIA_JOB_TIMEOUT_SECONDS, hours for a long video), and a file whose job had no retry left is failed with the
 * generic reason: it kept killing its process.
 */
export function handBackDeadRuns(s: MediaServices) {
  return async (deadNodeIds: string[]) => {
    if (!deadNodeIds.length) return;
    const runs = await s.db.query<ProcessingRow & { job: string; by: string }>(
      `SELECT id, owner_id AS "ownerId", kind, storage_key AS "storageKey", status, processing_job AS job, processing_by AS by
         FROM media WHERE status = 'processing' AND processing_job IS NOT NULL AND processing_by = ANY($1::text[])`,
      [deadNodeIds],
    );
    for (const run of runs) {
      const state = await s.jobs.failLost(queues.mediaProcess, run.job, 'its process died mid-transcode');
      await s.db.query(`UPDATE media SET processing_job = NULL, processing_by = NULL WHERE id = $1 AND processing_by = $2`, [
        run.id,
        run.by,
      ]);
      if (state === 'failed') {
        s.log.error({ mediaId: run.id }, 'media: processing failed, its process died on every try');
        await markFailed(s, run, processingMessages.failed);
      } else s.log.info({ mediaId: run.id, jobId: run.job }, 'media: processing handed back, its process died');
    }
  };
}

interface ProcessingRow {
  id: string;
  ownerId: string;
  kind: 'image' | 'audio' | 'video';
  storageKey: string;
  status: string;
}

interface Processed {
  duration: number;
  codecs: string;
  width: number | null;
  height: number | null;
  peaks: number[] | null;
  stream: { key: string; mime: string; size: number };
  poster: { key: string; size: number } | null;
}

async function transcode(s: MediaServices, media: ProcessingRow, work: string): Promise<Processed> {
  const input = path.join(work, 'original');
  await pipeline(s.storage.read(media.storageKey), fs.createWriteStream(input));
  const probed = await probe(s.mediaTools, input);
  if (media.kind === 'audio') {
    if (!probed.audio) throw new Unprocessable(processingMessages.noAudio);
    const { peaks, gainDb } = await analyseSound(s.mediaTools, input, probed.duration);
    const output = path.join(work, 'stream.m4a');
    await encodeAudio(s.mediaTools, input, output, gainDb);
    const key = `${media.storageKey}-stream`;
    const { size } = await s.storage.write(key, fs.createReadStream(output));
    return {
      duration: probed.duration,
      codecs: probed.codecs,
      width: null,
      height: null,
      peaks,
      stream: { key, mime: 'audio/mp4', size },
      poster: null,
    };
  }
  const video = probed.video;
  if (!video) throw new Unprocessable(processingMessages.noVideo);
  const sound = probed.audio ? await analyseSound(s.mediaTools, input, probed.duration) : { peaks: null, gainDb: 0 };
  const hlsDir = path.join(work, 'hls');
  await encodeVideo(s.mediaTools, input, hlsDir, { ...probed, video }, sound.gainDb);
  const poster = await posterFrame(s.mediaTools, input, path.join(work, 'poster.png'), probed.duration);
  const prefix = `${media.storageKey}-hls`;
  let size = 0;
  for (const file of await filesUnder(hlsDir)) {
    const written = await s.storage.write(`${prefix}/${file}`, fs.createReadStream(path.join(hlsDir, file)));
    size += written.size;
  }
  const posterKey = `${media.storageKey}-poster`;
  const posterWritten = await s.storage.write(posterKey, Readable.from([poster]));
  return {
    duration: probed.duration,
    codecs: probed.codecs,
    width: video.width,
    height: video.height,
    peaks: sound.peaks,
    stream: { key: prefix, mime: 'application/vnd.apple.mpegurl', size },
    poster: { key: posterKey, size: posterWritten.size },
  };
}

/**
 * Marks the file ready with what was made, once (a second run finds it ready and changes nothing), and lets the items
 * that waited for it be seen: each is announced to fans now, or at its time when it is scheduled.
 */
async function markReady(s: MediaServices, media: ProcessingRow, done: Processed) {
  const marked = await s.db.transaction(async (tx) => {
    const row = await one<{ id: string }>(
      tx,
      `UPDATE media SET status = 'ready', failure_reason = NULL, duration = $2, codecs = $3, width = $4, height = $5,
              peaks = $6::jsonb, stream_key = $7, stream_mime = $8, stream_size = $9, poster_key = $10, poster_size = $11,
              processed_at = now()
        WHERE id = $1 AND status = 'processing' RETURNING id`,
      [
        media.id,
        Math.round(done.duration * 1000) / 1000,
        done.codecs,
        done.width,
        done.height,
        done.peaks ? JSON.stringify(done.peaks) : null,
        done.stream.key,
        done.stream.mime,
        done.stream.size,
        done.poster?.key ?? null,
        done.poster?.size ?? null,
      ],
    );
    if (!row) return false;
    const waited = await tx.query<{ id: string; state: string; publishAt: Date; notifiedAt: Date | null }>(
      `UPDATE content_items SET media_pending = false WHERE media_id = $1 AND media_pending
       RETURNING id, state, publish_at AS "publishAt", notified_at AS "notifiedAt"`,
      [media.id],
    );
    for (const item of waited) await announceWhenVisible(s, tx, item, media.id);
    return true;
  });
  if (marked) await s.cache.invalidate(tag.content(media.ownerId));
  return marked;
}

async function markFailed(s: MediaServices, media: ProcessingRow, reason: string) {
  await s.db.query(
    `UPDATE media SET status = 'failed', failure_reason = $2, processed_at = now() WHERE id = $1 AND status = 'processing'`,
    [media.id, reason],
  );
  await s.cache.invalidate(tag.content(media.ownerId));
}

/** media.process: one file, from its original to what fans are served. */
export function mediaWorker(s: MediaServices) {
  return async (data: { mediaId: string }, job: RunningJob) => {
    const media = await one<ProcessingRow>(
      s.db,
      `SELECT id, owner_id AS "ownerId", kind, storage_key AS "storageKey", status FROM media WHERE id = $1`,
      [data.mediaId],
    );
    // Deleted before its turn, or finished by an earlier run.
    if (!media || media.status !== 'processing') return;
    // Recorded so that, should this process die, the queue's recovery hands the job back (handBackDeadRuns).
    await s.db.query(`UPDATE media SET processing_job = $2, processing_by = $3 WHERE id = $1`, [media.id, job.id, s.jobs.nodeId]);
    const work = path.join(WORK_ROOT, `${process.pid}-${randomUUID()}`);
    await fs.promises.mkdir(work, { recursive: true });
    const started = Date.now();
    try {
      const done = await transcode(s, media, work);
      if (await markReady(s, media, done))
        s.log.info({ mediaId: media.id, kind: media.kind, duration: done.duration, ms: Date.now() - started }, 'media: processed');
    } catch (error) {
      // The api is stopping and killed its tools: the file goes to a new job, taken after the restart (or by another
      // node). Not a failure of the file's: it does not use up this job's retries.
      if (s.mediaTools.signal?.aborted) {
        s.log.info({ mediaId: media.id }, 'media: processing stopped with the api, to be taken again');
        await s.jobs.send(queues.mediaProcess, data, { startAfter: new Date(Date.now() + 5000) });
        return;
      }
      if (error instanceof Unprocessable) {
        s.log.info({ mediaId: media.id, reason: error.message }, 'media: unreadable upload');
        await markFailed(s, media, error.message);
        return;
      }
      if (job.retryCount >= MEDIA_RETRY_LIMIT) {
        s.log.error({ err: error, mediaId: media.id }, 'media: processing failed');
        await markFailed(s, media, processingMessages.failed);
        return;
      }
      throw error;
    } finally {
      await fs.promises.rm(work, { recursive: true, force: true });
      await s.db
        .query(`UPDATE media SET processing_job = NULL, processing_by = NULL WHERE id = $1 AND processing_by = $2`, [
          media.id,
          s.jobs.nodeId,
        ])
        .catch((error: unknown) => s.log.warn({ err: error, mediaId: media.id }, 'media: run not cleared'));
    }
  };
}
