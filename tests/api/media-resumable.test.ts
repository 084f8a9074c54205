import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { resolveMediaTools } from '../../api/media/ffmpeg';
import { MAX_OPEN_UPLOADS, resumableMessages } from '../../api/media/resumable';
import { describeEachDatabase, startTestApi, type TestApi } from '../helpers/api';
import { createArtist, createFan, localLink, wav } from './content-fixtures';

/**
 * Resumable uploads (tus 1.0, docs/media.md): an upload whose connection drops part-way resumes from the
 * offset the api reports and completes with the same bytes; the kinds' limits and the artist's ownership hold.
 */

const TUS = { 'tus-resumable': '1.0.0' };
let t: TestApi;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-tus-test-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const metadata = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');

async function create(token: string, length: number, fields: Record<string, string>, api: { url: string } = t) {
  return fetch(new URL('/uploads', api.url), {
    method: 'POST',
    headers: { ...TUS, authorization: `Bearer ${token}`, 'upload-length': String(length), 'upload-metadata': metadata(fields) },
  });
}

/** The parts waiting in an api's uploads folder (each upload is its bytes and its `.json`). */
const waiting = (dataDir: string) =>
  fs
    .readdirSync(path.join(dataDir, 'uploads'))
    .filter((name) => !name.startsWith('.'))
    .sort();

/** An upload of `length` bytes of a WAV with only its first `sent` bytes sent: an upload left unfinished. */
async function unfinished(api: TestApi, token: string, length: number, sent: number) {
  const created = await create(token, length, { kind: 'audio', filename: 'left.wav' }, api);
  expect(created.status).toBe(201);
  const uploadUrl = localLink(api, created.headers.get('location')!);
  const bytes = Buffer.from(wav(length - 44)).subarray(0, sent);
  expect(await patch(uploadUrl, token, bytes, 0)).toMatchObject({ status: 204 });
  return { uploadUrl, id: new URL(uploadUrl).pathname.split('/').pop()! };
}

/** Sends bytes from offset with PATCH; when cutAfter is given, the connection is cut once that many have gone out. */
function patch(uploadUrl: string, token: string, bytes: Buffer, offset: number, cutAfter?: number) {
  return new Promise<{ status: number; body: string } | 'cut'>((resolve, reject) => {
    const url = new URL(uploadUrl);
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'PATCH',
        headers: {
          ...TUS,
          authorization: `Bearer ${token}`,
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
          'content-length': String(bytes.length - offset),
        },
      },
      (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body }));
      },
    );
    request.on('error', (error) => (cutAfter !== undefined ? resolve('cut') : reject(error)));
    if (cutAfter === undefined) {
      request.end(bytes.subarray(offset));
      return;
    }
    request.write(bytes.subarray(offset, offset + cutAfter), () => setTimeout(() => request.destroy(), 300));
  });
}

async function offsetOf(uploadUrl: string, token: string) {
  const head = await fetch(uploadUrl, { method: 'HEAD', headers: { ...TUS, authorization: `Bearer ${token}` } });
  return { status: head.status, offset: Number(head.headers.get('upload-offset')) };
}

describeEachDatabase('resumable uploads', (database) => {
  beforeAll(async () => {
    t = await startTestApi({ database: database.name });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('an upload cut twice resumes from where the api got to and completes with identical bytes', { timeout: 120_000 }, async () => {
    const artist = await createArtist(t);
    const file = path.join(work, 'long.wav');
    await promisify(execFile)(resolveMediaTools({}).ffmpeg, [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=40',
      file,
    ]);
    const bytes = fs.readFileSync(file);
    const created = await create(artist.token, bytes.length, { kind: 'audio', filename: 'long.wav' });
    expect(created.status).toBe(201);
    // The address is on the public api origin; the test reaches it on its own.
    const uploadUrl = localLink(t, created.headers.get('location')!);

    // Another artist cannot see or add to it.
    const other = await createArtist(t);
    expect((await offsetOf(uploadUrl, other.token)).status).toBe(404);

    let offset = 0;
    for (const cut of [300_000, 500_000]) {
      expect(await patch(uploadUrl, artist.token, bytes, offset, cut)).toBe('cut');
      const now = await offsetOf(uploadUrl, artist.token);
      expect(now.status).toBe(200);
      // What arrived before the cut is kept, not a byte more than was sent.
      expect(now.offset).toBeGreaterThan(offset);
      expect(now.offset).toBeLessThanOrEqual(offset + cut);
      offset = now.offset;
    }
    const done = await patch(uploadUrl, artist.token, bytes, offset);
    expect(done).toMatchObject({ status: 200 });
    const media = JSON.parse((done as { body: string }).body).data;
    expect(media).toMatchObject({ kind: 'audio', mime: 'audio/wav', size: bytes.length, status: 'processing' });
    const original = await fetch(localLink(t, media.originalUrl));
    expect(Buffer.from(await original.arrayBuffer())).toEqual(bytes);
    // Its parts are not kept once it is stored.
    expect(fs.readdirSync(path.join(t.dataDir, 'uploads')).filter((name) => !name.startsWith('.'))).toEqual([]);
  });

  it('the kinds’ limits and formats hold, with the same messages as a form upload; fans cannot upload', async () => {
    const [artist, fan] = await Promise.all([createArtist(t), createFan(t)]);
    const tooBig = await create(artist.token, 201 * 1024 * 1024, { kind: 'audio', filename: 'huge.wav' });
    expect(tooBig.status).toBe(413);
    expect(await tooBig.text()).toContain('This file is too large. Audio files can be at most 200 MB.');
    const tooBigVideo = await create(artist.token, 4 * 1024 * 1024 * 1024 + 1, { kind: 'video', filename: 'huge.mov' });
    expect(tooBigVideo.status).toBe(413);
    expect((await create(fan.token, 100, { kind: 'audio' })).status).toBe(403);
    expect((await create('', 100, { kind: 'audio' })).status).toBe(401);

    const text = Buffer.from('just some notes, not a song\n'.repeat(200));
    const created = await create(artist.token, text.length, { kind: 'audio', filename: 'notes.wav' });
    const refused = await patch(localLink(t, created.headers.get('location')!), artist.token, text, 0);
    expect(refused).toMatchObject({ status: 415 });
    expect((refused as { body: string }).body).toContain(
      "This file type isn't supported. Upload an MP3, M4A, AAC, WAV, OGG or FLAC audio file.",
    );
  });

  it('an upload says its kind and its size before it sends anything: else it is refused, and nothing is kept', async () => {
    const artist = await createArtist(t);
    const before = waiting(t.dataDir);
    const twentyMb = 20 * 1024 * 1024;
    for (const fields of [{ kind: 'poster', filename: 'big.png' }, { filename: 'big.png' }] as Record<string, string>[]) {
      const refused = await create(artist.token, twentyMb, fields);
      expect(refused.status).toBe(400);
      expect((await refused.json()).message).toBe(resumableMessages.kind);
    }
    // Deferred length would let the bytes come before the size: the kind's limit could not hold.
    const deferred = await fetch(new URL('/uploads', t.url), {
      method: 'POST',
      headers: {
        ...TUS,
        authorization: `Bearer ${artist.token}`,
        'upload-defer-length': '1',
        'upload-metadata': metadata({ kind: 'image', filename: 'big.png' }),
      },
    });
    expect(deferred.status).toBe(400);
    expect((await deferred.json()).message).toBe(resumableMessages.deferredLength);
    const tooBigImage = await create(artist.token, twentyMb, { kind: 'image', filename: 'big.png' });
    expect(tooBigImage.status).toBe(413);
    expect((await tooBigImage.json()).message).toBe('This file is too large. Images can be at most 15 MB.');
    expect(waiting(t.dataDir)).toEqual(before);
  });

  it(`an artist has at most ${MAX_OPEN_UPLOADS} uploads under way; a cancelled one frees its place`, async () => {
    const [artist, other] = await Promise.all([createArtist(t), createArtist(t)]);
    const open: string[] = [];
    for (let i = 0; i < MAX_OPEN_UPLOADS; i++) open.push((await unfinished(t, artist.token, 2000, 500)).uploadUrl);
    const refused = await create(artist.token, 2000, { kind: 'audio', filename: 'one-more.wav' });
    expect(refused.status).toBe(429);
    expect((await refused.json()).message).toBe(resumableMessages.tooMany);
    // Another artist's uploads are their own count.
    expect((await create(other.token, 2000, { kind: 'audio', filename: 'mine.wav' })).status).toBe(201);
    const cancelled = await fetch(open[0], { method: 'DELETE', headers: { ...TUS, authorization: `Bearer ${artist.token}` } });
    expect(cancelled.status).toBe(204);
    expect((await create(artist.token, 2000, { kind: 'audio', filename: 'one-more.wav' })).status).toBe(201);
  });
});

it('unfinished uploads quiet for longer than UPLOAD_EXPIRY_SECONDS are removed at start-up', { timeout: 60_000 }, async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-tus-expiry-'));
  try {
    const first = await startTestApi({ dataDir });
    const artist = await createArtist(first);
    const old = await unfinished(first, artist.token, 200_000, 100_000);
    const recent = await unfinished(first, artist.token, 200_000, 50_000);
    await first.close();
    // The old one last received bytes 25 hours ago (the default expiry is a day); the recent one just now.
    const dayAndHourAgo = new Date(Date.now() - 25 * 3600_000);
    for (const part of [old.id, `${old.id}.json`]) fs.utimesSync(path.join(dataDir, 'uploads', part), dayAndHourAgo, dayAndHourAgo);
    expect(waiting(dataDir)).toEqual([old.id, `${old.id}.json`, recent.id, `${recent.id}.json`].sort());

    const second = await startTestApi({ dataDir });
    try {
      expect(waiting(dataDir)).toEqual([recent.id, `${recent.id}.json`].sort());
    } finally {
      await second.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

it('and periodically while the api runs, without a request', { timeout: 60_000 }, async () => {
  const api = await startTestApi({ env: { UPLOAD_EXPIRY_SECONDS: '2' } });
  try {
    const artist = await createArtist(api);
    const left = await unfinished(api, artist.token, 200_000, 100_000);
    expect(waiting(api.dataDir)).toEqual([left.id, `${left.id}.json`].sort());
    const deadline = Date.now() + 15_000;
    while (waiting(api.dataDir).length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(waiting(api.dataDir)).toEqual([]);
    // Its address is gone with it.
    expect((await offsetOf(left.uploadUrl, artist.token)).status).toBe(404);
  } finally {
    await api.close();
  }
});
