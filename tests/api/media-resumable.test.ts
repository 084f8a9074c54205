import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { resolveMediaTools } from '../../api/media/ffmpeg';
import { describeEachDatabase, startTestApi, type TestApi } from '../helpers/api';
import { createArtist, createFan, localLink } from './content-fixtures';

/**
 * Resumable uploads (issue 20, tus 1.0, docs/media.md): an upload whose connection drops part-way resumes from the
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

async function create(token: string, length: number, fields: Record<string, string>) {
  return fetch(new URL('/uploads', t.url), {
    method: 'POST',
    headers: { ...TUS, authorization: `Bearer ${token}`, 'upload-length': String(length), 'upload-metadata': metadata(fields) },
  });
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
});
