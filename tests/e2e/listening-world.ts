import { expect, type APIRequestContext } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveMediaTools } from '../../api/media/ffmpeg';
import { wavFile } from '../../api/media/wav';
import { apiBase, untilMediaProcessed } from './helpers';
import { apiCall, type MoneyArtist } from './money-world';

/** What the listening browser tests make through the api: tracks of a given length, items, an ended membership. */

/** A tone of this many seconds as a WAV file (mono, 8 kHz, 8-bit): real audio the upload's sniffing accepts. */
export function wav(seconds: number) {
  const rate = 8000;
  const samples = Buffer.alloc(rate * seconds);
  for (let i = 0; i < samples.length; i++) samples[i] = 128 + Math.round(60 * Math.sin((2 * Math.PI * 330 * i) / rate));
  return wavFile(samples, rate);
}

/** A short video (navy picture, a tone) made by the ffmpeg the app runs, as an MP4 the upload accepts. */
export function mp4(seconds: number) {
  const file = path.join(os.tmpdir(), `stagedoor-e2e-clip-${process.pid}.mp4`);
  execFileSync(resolveMediaTools().ffmpeg, [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `color=c=navy:s=160x90:d=${seconds}`],
    ...['-f', 'lavfi', '-i', `sine=f=440:d=${seconds}`, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
    ...['-shortest', '-movflags', '+faststart', '-y', file],
  ]);
  const bytes = fs.readFileSync(file);
  fs.rmSync(file, { force: true });
  return bytes;
}

export async function uploadVideo(request: APIRequestContext, artist: MoneyArtist, seconds: number) {
  const upload = await request.post(`${apiBase}/media?kind=video`, {
    headers: { Authorization: `Bearer ${artist.token}` },
    multipart: { file: { name: 'clip.mp4', mimeType: 'video/mp4', buffer: mp4(seconds) } },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  return ((await upload.json()) as { data: { _id: string } }).data._id;
}

export interface Item {
  _id: string;
  title: string;
  mediaType: string;
}

export async function uploadAudio(request: APIRequestContext, artist: MoneyArtist, seconds: number) {
  const upload = await request.post(`${apiBase}/media?kind=audio`, {
    headers: { Authorization: `Bearer ${artist.token}` },
    multipart: { file: { name: 'track.wav', mimeType: 'audio/wav', buffer: wav(seconds) } },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  return ((await upload.json()) as { data: { _id: string } }).data._id;
}

/** An item of the artist's; one with audio is answered once its file is processed (fans see it from then on). */
export async function createItem(request: APIRequestContext, artist: MoneyArtist, body: Record<string, unknown>) {
  const item = await apiCall<Item>(request, 'POST', '/content', {
    token: artist.token,
    data: { content: '<p>Words.</p>', tags: 'post', ...body },
  });
  if (body.mediaId) await untilMediaProcessed(request, artist.token, item._id);
  return item;
}

/** The operator ends a fan's membership today (POST /admin/memberships/end), as a year that ran out would. */
export async function endMembership(request: APIRequestContext, artist: MoneyArtist, fanEmail: string) {
  const token = fs.readFileSync(path.join(process.env.E2E_DATA_DIR ?? '', 'admin-token'), 'utf8').trim();
  await apiCall(request, 'POST', '/admin/memberships/end', {
    data: { artist: artist.username, fan: fanEmail },
    headers: { 'x-stagedoor-admin-token': token },
  });
}
