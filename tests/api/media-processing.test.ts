import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PEAKS_POINTS } from '#contract/content';
import { resolveMediaTools } from '../../api/media/ffmpeg';
import { processingMessages } from '../../api/media/processing';
import { hlsSignature, signature } from '../../api/media/signing';
import { call, describeEachDatabase, startTestApi, type TestApi, whenJobsIdle } from '../helpers/api';
import { createArtist, createFan, localLink, subscribe, upload, whenProcessed, type ContentUser } from './content-fixtures';

/**
 * Media processing (docs/media.md): an upload is probed and transcoded by a job on the queue, real ffmpeg
 * on files the test makes with it; its item waits for it, and fans see it (and are told of it) once it is ready.
 */

const tools = resolveMediaTools({});
const run = promisify(execFile);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-media-test-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** A stereo 44.1 kHz WAV of two tones, `seconds` long. */
async function makeWav(seconds: number) {
  const file = path.join(work, `tone-${seconds}.wav`);
  await run(tools.ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=660:duration=${seconds}`, '-filter_complex', 'amerge', '-ar', '44100', file],
  ]);
  return fs.readFileSync(file);
}

/** An H.264/AAC MP4 of a test picture and a tone, as a phone might record it (its index at the end). */
async function makeMp4(seconds: number, size = '640x360') {
  const file = path.join(work, `clip-${seconds}-${size}.mp4`);
  await run(tools.ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=size=${size}:rate=25:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=330:duration=${seconds}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file],
  ]);
  return fs.readFileSync(file);
}

/**
 * Whether the ffmpeg here (the app's own: FFMPEG_PATH, the PATH's, else the npm package's) encodes HEVC (libx265), to
 * make a phone's HEVC MOV. The app only decodes HEVC; making a sample needs the encoder, which not every build has:
 * without one the HEVC case is skipped and says why.
 */
async function findHevcEncoder(): Promise<{ ffmpeg?: string; reason: string }> {
  try {
    const { stdout } = await run(tools.ffmpeg, ['-hide_banner', '-encoders']);
    if (/\blibx265\b/.test(stdout)) return { ffmpeg: tools.ffmpeg, reason: '' };
    return { reason: `the ffmpeg here (${tools.ffmpeg}) does not encode HEVC (no libx265 in -encoders) to make the sample` };
  } catch {
    return { reason: `the ffmpeg here (${tools.ffmpeg}) could not be run to make the sample` };
  }
}
const hevc = await findHevcEncoder();

/**
 * A MOV as a phone records it: a test picture and a tone, `codec` HEVC (tagged hvc1, as an iPhone writes it) or H.264,
 * AAC sound, in a QuickTime file.
 */
async function makeMov(seconds: number, codec: 'hevc' | 'h264', size = '1280x720') {
  const file = path.join(work, `phone-${codec}-${seconds}.mov`);
  const video =
    codec === 'hevc'
      ? ['-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=error', '-tag:v', 'hvc1']
      : ['-c:v', 'libx264', '-preset', 'ultrafast'];
  await run(codec === 'hevc' ? hevc.ffmpeg! : tools.ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=size=${size}:rate=30:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=330:duration=${seconds}`],
    ...video,
    ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', '-f', 'mov', file],
  ]);
  return fs.readFileSync(file);
}

/**
 * The codec of the first video stream of a file fetched from the api (an HLS segment, say) and its duration, as the
 * app's ffmpeg reads them (its ffprobe 4.1 crashes on MPEG-TS).
 */
async function readVideo(bytes: Buffer) {
  const file = path.join(work, `probe-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  fs.writeFileSync(file, bytes);
  const { stderr } = await run(tools.ffmpeg, ['-hide_banner', '-i', file, '-map', '0:v:0', '-frames:v', '1', '-f', 'null', '-']);
  const [, h, m, sec] = /Duration: (\d+):(\d+):([\d.]+)/.exec(stderr) ?? [];
  return { codec: /Stream #0:\d+[^:]*: Video: (\w+)/.exec(stderr)?.[1], duration: Number(h) * 3600 + Number(m) * 60 + Number(sec) };
}

let t: TestApi;

async function post(artist: ContentUser, mediaId: string, extra: Record<string, unknown> = {}) {
  const created = await call(t.url, 'POST', '/content', {
    token: artist.token,
    body: { title: 'New demo', content: 'listen', tags: 'demo', mediaId, ...extra },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data;
}

/**
 * The original of a processed audio or video file is the artist's alone: a subscribed fan gets neither it with their
 * Authorization header nor through a fans' link to it, however well signed; the artist gets it byte for byte.
 */
async function expectOriginalKeptForArtist(mediaId: string, bytes: Buffer, artist: ContentUser, fan: ContentUser) {
  const asFan = await fetch(new URL(`/media/${mediaId}`, t.url), { headers: { authorization: `Bearer ${fan.token}` } });
  if (asFan.status === 200) expect(Buffer.from(await asFan.arrayBuffer()).equals(bytes)).toBe(false);
  else {
    expect(asFan.status).toBe(403);
    expect((await asFan.json()).message).toBe('The original file is kept for its artist. Play it from its post.');
  }
  const [secret] = await t.db.query<{ value: string }>(`SELECT value FROM server_secrets WHERE name = 'media-links'`);
  const expires = Math.floor(Date.now() / 1000) + 3600;
  const fansLink = new URL(`/media/${mediaId}`, t.url);
  fansLink.search = `expires=${expires}&sig=${signature(Buffer.from(secret.value, 'hex'), mediaId, 'original', expires)}`;
  const linked = await fetch(fansLink);
  expect(linked.status).toBe(403);
  expect((await linked.json()).message).toBe('The original file is kept for its artist. Play it from its post.');
  const own = await fetch(new URL(`/media/${mediaId}`, t.url), { headers: { authorization: `Bearer ${artist.token}` } });
  expect(own.status).toBe(200);
  expect(Buffer.from(await own.arrayBuffer()).equals(bytes)).toBe(true);
}

describeEachDatabase('media processing', (database) => {
  beforeAll(async () => {
    t = await startTestApi({ database: database.name });
  });
  // The file's uploads are processed by jobs: they finish before the api closes and its schema goes.
  afterAll(async () => {
    if (t) await whenJobsIdle(t);
    await t?.close();
  }, 180_000);

  it(
    'audio: a WAV becomes loudness-normalised AAC with its duration and waveform; the item waits for it',
    { timeout: 120_000 },
    async () => {
      const [artist, fan] = await Promise.all([createArtist(t), createFan(t)]);
      await subscribe(t, fan, artist);
      const source = await makeWav(3);
      const uploaded = await upload(t, artist.token, source, { filename: 'demo.wav', kind: 'audio' });
      expect(uploaded.status).toBe(201);
      expect(uploaded.body.data).toMatchObject({ kind: 'audio', status: 'processing', mime: 'audio/wav', duration: null, peaks: null });
      const item = await post(artist, uploaded.body.data._id);

      const ready = await whenProcessed(t, fan, item._id);
      const media = ready.media;
      expect(media.status).toBe('ready');
      expect(media.failureReason).toBeNull();
      expect(Math.abs(media.duration - 3)).toBeLessThan(0.1);
      expect(media.mimeType).toBe('audio/mp4');
      expect(media.peaks).toHaveLength(PEAKS_POINTS);
      expect(media.peaks.every((peak: number) => peak >= 0 && peak <= 1)).toBe(true);
      expect(Math.max(...media.peaks)).toBe(1);
      // Fans are not handed the original.
      expect(media.originalUrl).toBeNull();

      const served = await fetch(localLink(t, media.url));
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('audio/mp4');
      const m4a = Buffer.from(await served.arrayBuffer());
      // An MP4 file: its first box is ftyp, and its index comes first (faststart), so playback starts at once.
      expect(m4a.subarray(4, 8).toString()).toBe('ftyp');
      expect(m4a.indexOf('moov')).toBeLessThan(m4a.indexOf('mdat'));
      const range = await fetch(localLink(t, media.url), { headers: { range: 'bytes=0-99' } });
      expect(range.status).toBe(206);
      expect(Buffer.from(await range.arrayBuffer())).toEqual(m4a.subarray(0, 100));

      // The artist keeps the original.
      const own = (await call(t.url, 'GET', `/content/${item._id}`, { token: artist.token })).body.data;
      const original = await fetch(localLink(t, own.media.originalUrl));
      expect(original.headers.get('content-type')).toBe('audio/wav');
      // Fans asking for the file by its address hear the stream, never the WAV.
      await expectOriginalKeptForArtist(media._id, source, artist, fan);
    },
  );

  it('video: an MP4 is probed, gets a poster frame and the waveform of its sound', { timeout: 180_000 }, async () => {
    const [artist, fan] = await Promise.all([createArtist(t), createFan(t)]);
    await subscribe(t, fan, artist);
    const source = await makeMp4(2);
    const uploaded = await upload(t, artist.token, source, { filename: 'phone.mp4', kind: 'video' });
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.data.status).toBe('processing');
    const item = await post(artist, uploaded.body.data._id, { tags: 'videoMessage' });
    const media = (await whenProcessed(t, fan, item._id)).media;
    expect(media.status).toBe('ready');
    expect(Math.abs(media.duration - 2)).toBeLessThan(0.1);
    expect(media).toMatchObject({ width: 640, height: 360 });
    expect(media.peaks).toHaveLength(PEAKS_POINTS);
    const poster = await fetch(localLink(t, media.poster));
    expect(poster.status).toBe(200);
    expect(poster.headers.get('content-type')).toBe('image/webp');
    // Fans get the ladder, its MP4 and the poster; the MP4 as uploaded stays the artist's.
    await expectOriginalKeptForArtist(media._id, source, artist, fan);
  });

  /**
   * A phone's MOV (HEVC when an encoder here can make one, H.264 otherwise): its duration, the types fans are served,
   * and an HLS ladder in H.264 that every browser decodes.
   */
  async function checkPhoneMov(codec: 'hevc' | 'h264') {
    const [artist, fan] = await Promise.all([createArtist(t), createFan(t)]);
    await subscribe(t, fan, artist);
    const uploaded = await upload(t, artist.token, await makeMov(3, codec), { filename: 'IMG_0042.MOV', kind: 'video' });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    expect(uploaded.body.data).toMatchObject({ kind: 'video', mime: 'video/quicktime', status: 'processing' });
    const item = await post(artist, uploaded.body.data._id, { tags: 'videoMessage' });
    const media = (await whenProcessed(t, fan, item._id)).media;
    expect(media.status, media.failureReason).toBe('ready');
    expect(Math.abs(media.duration - 3)).toBeLessThan(0.1);
    expect(media).toMatchObject({ width: 1280, height: 720, mime: 'video/quicktime', mimeType: 'application/vnd.apple.mpegurl' });
    expect(media.peaks).toHaveLength(PEAKS_POINTS);

    const master = await fetch(localLink(t, media.url));
    expect(master.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    const masterText = await master.text();
    expect(masterText).toContain('RESOLUTION=640x360');
    expect(masterText).toContain('RESOLUTION=1280x720');
    const rung = masterText.split('\n').find((line) => line.startsWith('v1/index.m3u8?'))!;
    const rungUrl = new URL(rung, master.url);
    const playlist = await fetch(rungUrl);
    expect(playlist.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    const segments = (await playlist.text()).split('\n').filter((line) => line.startsWith('seg'));
    expect(segments).toHaveLength(1);
    const segment = await fetch(new URL(segments[0], rungUrl));
    expect(segment.headers.get('content-type')).toBe('video/mp2t');
    // Whatever the phone recorded, fans are served H.264.
    expect((await readVideo(Buffer.from(await segment.arrayBuffer()))).codec).toBe('h264');
    // The progressive MP4, for a browser without HLS and JavaScript off: the 720p rung in one file, with Range.
    const fallback = new URL(localLink(t, media.fallbackUrl));
    expect(fallback.pathname).toBe(`/media/${media._id}/hls/fallback.mp4`);
    const start = await fetch(fallback, { headers: { range: 'bytes=0-99' } });
    expect(start.status).toBe(206);
    expect(start.headers.get('content-type')).toBe('video/mp4');
    const whole = Buffer.from(await (await fetch(fallback)).arrayBuffer());
    expect(start.headers.get('content-range')).toBe(`bytes 0-99/${whole.length}`);
    const progressive = await readVideo(whole);
    expect(progressive.codec).toBe('h264');
    expect(Math.abs(progressive.duration - 3)).toBeLessThan(0.1);
    // The artist keeps the MOV as it was.
    const own = (await call(t.url, 'GET', `/content/${item._id}`, { token: artist.token })).body.data;
    const original = await fetch(localLink(t, own.media.originalUrl));
    expect(original.headers.get('content-type')).toBe('video/quicktime');
    expect((await readVideo(Buffer.from(await original.arrayBuffer()))).codec).toBe(codec);
  }

  it('video: an H.264 MOV from a phone is processed into HLS', { timeout: 180_000 }, async () => {
    await checkPhoneMov('h264');
  });

  it(
    `video: an HEVC MOV from a phone comes out as H.264 HLS${hevc.ffmpeg ? '' : ` (skipped: ${hevc.reason})`}`,
    { timeout: 180_000 },
    async (ctx) => {
      if (!hevc.ffmpeg) ctx.skip(hevc.reason);
      await checkPhoneMov('hevc');
    },
  );

  it('video is served as HLS through links signed for one fan, short-lived', { timeout: 180_000 }, async () => {
    const [artist, fan, other] = await Promise.all([createArtist(t), createFan(t), createFan(t)]);
    await Promise.all([subscribe(t, fan, artist), subscribe(t, other, artist)]);
    const uploaded = await upload(t, artist.token, await makeMp4(6, '1280x720'), { filename: 'phone.mp4', kind: 'video' });
    const item = await post(artist, uploaded.body.data._id, { tags: 'videoMessage' });
    // The 720p ladder is the longest job here: on a busy machine it may take minutes, not seconds.
    const media = (await whenProcessed(t, fan, item._id, 150_000)).media;
    expect(media.mimeType).toBe('application/vnd.apple.mpegurl');
    const master = new URL(localLink(t, media.url));
    expect(master.pathname).toBe(`/media/${media._id}/hls/master.m3u8`);
    expect(master.searchParams.get('v')).toBe(fan.id);
    // Good for a quarter of an hour: time to press play.
    expect(Number(master.searchParams.get('expires')) - Date.now() / 1000).toBeLessThanOrEqual(15 * 60);

    const masterAnswer = await fetch(master);
    expect(masterAnswer.status).toBe(200);
    expect(masterAnswer.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    const masterText = await masterAnswer.text();
    // A 720p source gets the 360p and 720p rungs, not 1080p.
    expect(masterText).toContain('RESOLUTION=640x360');
    expect(masterText).toContain('RESOLUTION=1280x720');
    expect(masterText).not.toContain('x1080');
    const rung = masterText.split('\n').find((line) => line.startsWith('v1/index.m3u8?'))!;
    const playlist = await fetch(new URL(rung, master));
    expect(playlist.status).toBe(200);
    const segments = (await playlist.text()).split('\n').filter((line) => line.startsWith('seg'));
    // 6 s in 4 s segments, each signed for the same fan.
    expect(segments).toHaveLength(2);
    const segment = new URL(segments[1], new URL(rung, master));
    expect(segment.searchParams.get('v')).toBe(fan.id);
    const bytes = await fetch(segment);
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get('content-type')).toBe('video/mp2t');
    // An MPEG transport stream: 188-byte packets, each starting with the sync byte.
    const ts = Buffer.from(await bytes.arrayBuffer());
    expect([ts[0], ts[188]]).toEqual([0x47, 0x47]);

    // The fan's link from another fan is refused: by who asks, and with the link moved to their name.
    expect((await fetch(segment, { headers: { authorization: `Bearer ${other.token}` } })).status).toBe(403);
    expect((await fetch(segment, { headers: { authorization: `Bearer ${fan.token}` } })).status).toBe(200);
    const moved = new URL(segment);
    moved.searchParams.set('v', other.id);
    expect((await fetch(moved)).status).toBe(403);
    // An expired link, really signed, is refused.
    const [secret] = await t.db.query<{ value: string }>(`SELECT value FROM server_secrets WHERE name = 'media-links'`);
    const past = Math.floor(Date.now() / 1000) - 5;
    const path = `v1/${segments[1].split('?')[0]}`;
    const expired = new URL(`/media/${media._id}/hls/${path}`, t.url);
    expired.search = `v=${fan.id}&expires=${past}&sig=${hlsSignature(Buffer.from(secret.value, 'hex'), media._id, path, fan.id, past)}`;
    const refused = await fetch(expired);
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe('This link to the video has expired. Reload the page to play it.');
    // The progressive MP4's link is the fan's too, for as long as watching may take.
    const fallback = new URL(localLink(t, media.fallbackUrl));
    expect(fallback.searchParams.get('v')).toBe(fan.id);
    expect(Number(fallback.searchParams.get('expires')) - Date.now() / 1000).toBeGreaterThan(25 * 60);
    expect((await fetch(fallback, { headers: { range: 'bytes=100-' } })).status).toBe(206);
    const movedFallback = new URL(fallback);
    movedFallback.searchParams.set('v', other.id);
    expect((await fetch(movedFallback)).status).toBe(403);
    // A list is shared by every fan: it carries the playlist's unsigned address, which plays nothing, and no MP4.
    const list = await call(t.url, 'GET', `/performers/${artist.username}/content`, { token: fan.token });
    const listed = list.body.data.data[0].media;
    expect(listed.url).toBe(`${t.config.publicApiUrl}/media/${media._id}/hls/master.m3u8`);
    expect(listed.fallbackUrl).toBeNull();
    expect((await fetch(localLink(t, listed.url))).status).toBe(403);
    // A fan whose subscription lapsed cannot start it again, nor go on with the MP4.
    await t.db.query(`UPDATE subscriptions SET expires_at = now() - interval '1 day' WHERE user_id = $1`, [fan.id]);
    expect((await fetch(master)).status).toBe(403);
    expect((await fetch(fallback, { headers: { range: 'bytes=100-' } })).status).toBe(403);
  });

  it('a corrupt file fails with a reason the artist sees; fans never see its item, nor are told of it', { timeout: 60_000 }, async () => {
    const [artist, fan] = await Promise.all([createArtist(t), createFan(t)]);
    await subscribe(t, fan, artist);
    const whole = await makeMp4(2);
    // The start of an MP4 (its type box, so it is taken as a video) without the index at its end.
    const uploaded = await upload(t, artist.token, whole.subarray(0, Math.floor(whole.length / 2)), { filename: 'cut.mp4', kind: 'video' });
    expect(uploaded.status).toBe(201);
    const item = await post(artist, uploaded.body.data._id, { tags: 'videoMessage' });
    const own = await whenProcessed(t, artist, item._id);
    expect(own.media.status).toBe('failed');
    expect(own.media.failureReason).toBe(processingMessages.unreadable);
    expect((await call(t.url, 'GET', `/content/${item._id}`, { token: fan.token })).status).toBe(404);
    const list = await call(t.url, 'GET', `/performers/${artist.username}/content`, { token: fan.token });
    expect(list.body.data.total).toBe(0);
    const bell = await call(t.url, 'GET', '/notifications', { token: fan.token });
    expect(bell.body.data.total).toBe(0);
  });

  it('fans are told of an item once, when its file is ready, not when it was saved', { timeout: 120_000 }, async () => {
    const [artist, fan] = await Promise.all([createArtist(t), createFan(t)]);
    await subscribe(t, fan, artist);
    const uploaded = await upload(t, artist.token, await makeWav(2), { filename: 'demo.wav', kind: 'audio' });
    const item = await post(artist, uploaded.body.data._id);
    // While it processes the artist sees it waiting; fans neither see it nor hear of it.
    const own = (await call(t.url, 'GET', `/content/${item._id}`, { token: artist.token })).body.data;
    if (own.media.status === 'processing') {
      expect((await call(t.url, 'GET', `/content/${item._id}`, { token: fan.token })).status).toBe(404);
      expect((await call(t.url, 'GET', '/notifications', { token: fan.token })).body.data.total).toBe(0);
    }
    await whenProcessed(t, fan, item._id);
    const deadline = Date.now() + 30_000;
    let total = 0;
    while (Date.now() < deadline) {
      total = (await call(t.url, 'GET', '/notifications', { token: fan.token })).body.data.total;
      if (total > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(total).toBe(1);
    // Saving it again (an edit) tells no one a second time.
    await call(t.url, 'PUT', `/content/${item._id}`, {
      token: artist.token,
      body: { title: 'New demo, mastered', content: 'listen', tags: 'demo', mediaId: uploaded.body.data._id },
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await call(t.url, 'GET', '/notifications', { token: fan.token })).body.data.total).toBe(1);
  });
});
