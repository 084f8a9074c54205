import { expect, test, type Browser } from '@playwright/test';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { resolveMediaTools } from '../../api/media/ffmpeg';
import { apiBase, expectNoA11yViolations } from './helpers';
import { createItem, type Item } from './listening-world';
import { newArtist, payingFan, signedIn, type MoneyArtist } from './money-world';

/**
 * A video item in Chromium (docs/media.md): the artist's MP4, made here by ffmpeg, is processed into an
 * HLS ladder; the fan's page loads hls.js (and only that page), plays the video and seeks in it, through links signed
 * for that fan.
 */

let artist: MoneyArtist;
let video: Item;
let fanToken: string;
let videoMediaId: string;

test.beforeAll(async ({ request }) => {
  test.setTimeout(180_000);
  artist = await newArtist(request, '4.99');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-video-e2e-'));
  const clip = path.join(work, 'clip.mp4');
  await promisify(execFile)(resolveMediaTools({}).ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25:duration=14'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=330:duration=14', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', clip],
  ]);
  const upload = await request.post(`${apiBase}/media?kind=video`, {
    headers: { Authorization: `Bearer ${artist.token}` },
    multipart: { file: { name: 'clip.mp4', mimeType: 'video/mp4', buffer: fs.readFileSync(clip) } },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  fs.rmSync(work, { recursive: true, force: true });
  videoMediaId = ((await upload.json()) as { data: { _id: string } }).data._id;
  video = await createItem(request, artist, { title: 'Soundcheck in Leeds', tags: 'videoMessage', mediaId: videoMediaId });
  fanToken = (await payingFan(request, artist)).token;
});

test('the fan plays the video with hls.js and seeks in it; pages without video never load hls.js', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await signedIn(browser, fanToken);
  const page = await context.newPage();
  const scripts: string[] = [];
  const segments: string[] = [];
  page.on('response', (response) => {
    const url = response.url();
    if (url.endsWith('.js')) scripts.push(url);
    if (url.includes('/hls/') && url.includes('.ts?')) segments.push(`${response.status()} ${new URL(url).pathname}`);
  });

  await page.goto(`/${artist.username}/vault`);
  await expect(page.getByRole('link', { name: video.title })).toBeVisible();
  const vaultScripts = scripts.length;
  expect(scripts.some((url) => /hls/i.test(url.split('/').pop()!))).toBe(false);

  await page.getByRole('link', { name: video.title }).click();
  await expect(page.getByRole('heading', { level: 1, name: video.title })).toBeVisible();
  await expectNoA11yViolations(page);
  const player = page.locator('video');
  // hls.js comes when the fan presses play, not with the page.
  expect(scripts.slice(vaultScripts).some((url) => /hls/i.test(url.split('/').pop()!))).toBe(false);
  await player.evaluate((element: HTMLVideoElement) => {
    element.muted = true;
  });
  await page.getByRole('button', { name: `Play ${video.title}` }).click();
  // hls.js feeds the element through Media Source Extensions: its source is a blob.
  await expect.poll(() => player.evaluate((element: HTMLVideoElement) => element.src)).toMatch(/^blob:/);
  expect(scripts.slice(vaultScripts).some((url) => /hls/i.test(url.split('/').pop()!))).toBe(true);
  await expect.poll(() => player.evaluate((element: HTMLVideoElement) => element.duration)).toBeGreaterThan(13.5);
  await expect(page.getByRole('button', { name: `Play ${video.title}` })).toHaveCount(0);
  await expect.poll(() => player.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 20_000 }).toBeGreaterThan(0.5);
  // A seek to 10 s fetches the segment that holds it (4 s segments: the third) and plays on from there.
  await player.evaluate((element: HTMLVideoElement) => {
    element.currentTime = 10;
  });
  await expect.poll(() => player.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 20_000 }).toBeGreaterThan(10.3);
  expect(segments.some((line) => /^200 .*\/seg00002\.ts$/.test(line))).toBe(true);
  expect(segments.every((line) => line.startsWith('200 '))).toBe(true);
  await context.close();
});

/** The item page as the fan sees it with JavaScript off; `refuseHls` fails the playlist's request, as for a browser without HLS. */
async function noScriptPage(browser: Browser, { refuseHls }: { refuseHls: boolean }) {
  const context = await signedIn(browser, fanToken, { javaScriptEnabled: false });
  const page = await context.newPage();
  const media: string[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/hls/')) media.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  if (refuseHls) await page.route('**/hls/master.m3u8*', (route) => route.abort('failed'));
  await page.goto(`/${artist.username}/vault`);
  await page.getByRole('link', { name: video.title }).click();
  await expect(page.getByRole('heading', { level: 1, name: video.title })).toBeVisible();
  const player = page.locator('video');
  // No hls.js and no play button of ours: the element's own sources, the MP4 after the playlist.
  await expect(page.getByRole('button', { name: `Play ${video.title}` })).toHaveCount(0);
  await expect(player.locator('source')).toHaveCount(2);
  await expect(player.locator('source').nth(1)).toHaveAttribute('type', 'video/mp4');
  // Nothing is fetched before play (preload="none").
  expect(media).toEqual([]);
  // The fan presses the video's own play control (started here, muted: the page runs no script of its own).
  await player.evaluate((element: HTMLVideoElement) => {
    element.muted = true;
    void element.play();
  });
  await expect
    .poll(() => player.evaluate((element: HTMLVideoElement) => element.readyState), { timeout: 20_000 })
    .toBeGreaterThanOrEqual(1);
  await expect.poll(() => player.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 20_000 }).toBeGreaterThan(0.5);
  const source = await player.evaluate((element: HTMLVideoElement) => new URL(element.currentSrc).pathname);
  return { context, player, media, source };
}

test('with JavaScript off the video plays; a browser without HLS plays the progressive MP4, with Range', async ({ browser }) => {
  test.setTimeout(120_000);
  // Recent Chromium (156 here) plays the playlist itself, as Safari does; an older one moves on to the MP4.
  const native = await noScriptPage(browser, { refuseHls: false });
  expect([`/media/${videoMediaId}/hls/master.m3u8`, `/media/${videoMediaId}/hls/fallback.mp4`]).toContain(native.source);
  await native.context.close();

  // Where the playlist cannot be played (Firefox; an older Chromium), the element moves on to the MP4.
  const fallback = await noScriptPage(browser, { refuseHls: true });
  expect(fallback.source).toBe(`/media/${videoMediaId}/hls/fallback.mp4`);
  await expect.poll(() => fallback.player.evaluate((element: HTMLVideoElement) => element.duration)).toBeGreaterThan(13.5);
  // Served with Range, through the fan's own signed link.
  expect(fallback.media.some((line) => /^206 .*\/hls\/fallback\.mp4$/.test(line))).toBe(true);
  await fallback.context.close();
});
