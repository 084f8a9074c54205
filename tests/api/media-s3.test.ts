import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi, type Api } from '../../api/app';
import { openDb, type Db } from '../../api/db/client';
import { resolveMediaTools } from '../../api/media/ffmpeg';
import { createS3Storage } from '../../api/storage/s3';
import { call, describeEachDatabase, startTestApi, TEST_DATABASE_URL, type TestApi } from '../helpers/api';
import { startS3StandIn, type S3StandIn } from '../helpers/s3-stand-in';
import { createArtist, createFan, localLink, subscribe, upload, whenProcessed } from './content-fixtures';

/**
 * Shared storage (docs/media.md): media in an S3-compatible bucket, against a local stand-in at the HTTP
 * boundary. The storage's own calls, one api processing and serving from the bucket, and two api nodes (each with
 * its own DATA_DIR) on one bucket and one database seeing each other's uploads.
 */

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-s3-test-'));
let s3: S3StandIn;
beforeAll(async () => {
  s3 = await startS3StandIn();
});
afterAll(async () => {
  await s3?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

const s3Env = () => ({ S3_BUCKET: s3.bucket, S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY_ID: 'test', S3_SECRET_ACCESS_KEY: 'test-secret' });

async function wavFile(seconds: number) {
  const file = path.join(work, `tone-${seconds}.wav`);
  await promisify(execFile)(resolveMediaTools({}).ffmpeg, [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${seconds}`,
    file,
  ]);
  return fs.readFileSync(file);
}

const filesUnder = (dir: string) =>
  fs.existsSync(dir)
    ? (fs.readdirSync(dir, { recursive: true }) as string[]).filter((name) => fs.statSync(path.join(dir, name)).isFile())
    : [];

describe('S3 storage', () => {
  it('writes, sizes, reads ranges and removes objects (with what is stored under them)', async () => {
    const storage = createS3Storage({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: 'us-east-1',
      accessKeyId: 'a',
      secretAccessKey: 'b',
      prefix: 'media/',
    });
    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
    expect(await storage.write('ab/cd/one', Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]))).toEqual({ size: 5000 });
    expect(s3.objects.get('media/ab/cd/one')).toEqual(bytes);
    expect(await storage.size('ab/cd/one')).toBe(5000);
    expect(await storage.size('ab/cd/none')).toBeUndefined();
    const parts: Buffer[] = [];
    for await (const chunk of storage.read('ab/cd/one', { start: 100, end: 199 })) parts.push(chunk as Buffer);
    expect(Buffer.concat(parts)).toEqual(bytes.subarray(100, 200));
    expect(s3.requests.at(-1)).toMatchObject({ method: 'GET', key: 'media/ab/cd/one', range: 'bytes=100-199' });

    await storage.write('ab/cd/one-hls/v0/index.m3u8', Readable.from([Buffer.from('#EXTM3U')]));
    await storage.write('ab/cd/one-hls/v0/seg00000.ts', Readable.from([Buffer.from('ts')]));
    await storage.remove('ab/cd/one-hls');
    await storage.remove('ab/cd/one');
    expect([...s3.objects.keys()].filter((key) => key.startsWith('media/ab/cd/one'))).toEqual([]);

    // An upload that breaks off leaves no object.
    const broken = new Readable({
      read() {
        this.push(Buffer.alloc(100));
        this.destroy(new Error('connection reset'));
      },
    });
    await expect(storage.write('ab/cd/two', broken)).rejects.toThrow('connection reset');
    expect(s3.objects.has('media/ab/cd/two')).toBe(false);
  });
});

describeEachDatabase('media on S3', (database) => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ database: database.name, env: s3Env() });
  });
  afterAll(async () => {
    await t?.close();
  });

  it(
    'an upload is processed and served from the bucket, with Range, and nothing is kept on the api’s disk',
    { timeout: 120_000 },
    async () => {
      const [artist, fan] = await Promise.all([createArtist(t), createFan(t)]);
      await subscribe(t, fan, artist);
      const wav = await wavFile(2);
      const uploaded = await upload(t, artist.token, wav, { filename: 'demo.wav', kind: 'audio' });
      expect(uploaded.status).toBe(201);
      const created = await call(t.url, 'POST', '/content', {
        token: artist.token,
        body: { title: 'Bucket demo', content: 'listen', tags: 'demo', mediaId: uploaded.body.data._id },
      });
      const media = (await whenProcessed(t, fan, created.body.data._id)).media;
      expect(media.mimeType).toBe('audio/mp4');
      const [original, stream] = [...s3.objects.entries()]
        .filter(([key]) => !key.startsWith('media/'))
        .sort(([a], [b]) => a.length - b.length);
      expect(original[1]).toEqual(Buffer.from(wav));
      expect(stream[0]).toBe(`${original[0]}-stream`);
      const served = await fetch(localLink(t, media.url), { headers: { range: 'bytes=0-99' } });
      expect(served.status).toBe(206);
      expect(Buffer.from(await served.arrayBuffer())).toEqual(stream[1].subarray(0, 100));
      expect(filesUnder(path.join(t.dataDir, 'media'))).toEqual([]);

      // Deleting the item removes its objects.
      expect((await call(t.url, 'DELETE', `/content/${created.body.data._id}`, { token: artist.token })).status).toBe(200);
      expect(s3.objects.has(original[0])).toBe(false);
      expect(s3.objects.has(stream[0])).toBe(false);
    },
  );
});

describe.skipIf(!TEST_DATABASE_URL)('two api nodes on one bucket (PostgreSQL)', () => {
  let a: TestApi;
  let b: Api;
  let bDb: Db;
  let bUrl: string;
  const bDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-node-b-'));
  beforeAll(async () => {
    a = await startTestApi({ database: 'PostgreSQL', env: s3Env() });
    bDb = await openDb({ databaseUrl: TEST_DATABASE_URL!, schema: a.schema, max: 3 });
    // The second node has a disk of its own: only the bucket and the database are shared.
    b = await createApi({ config: { ...a.config, dataDir: bDataDir }, db: bDb });
    bUrl = `http://127.0.0.1:${await b.listen(0, '127.0.0.1')}`;
  });
  afterAll(async () => {
    await b?.close();
    await bDb?.close();
    await a?.close();
    fs.rmSync(bDataDir, { recursive: true, force: true });
  });

  it('each node serves what was uploaded through the other', { timeout: 120_000 }, async () => {
    const [artist, fan] = await Promise.all([createArtist(a), createFan(a)]);
    await subscribe(a, fan, artist);
    const wav = await wavFile(3);
    const throughA = await upload(a, artist.token, wav, { filename: 'a.wav', kind: 'audio' });
    const throughB = await upload({ ...a, url: bUrl }, artist.token, wav, { filename: 'b.wav', kind: 'audio' });
    expect([throughA.status, throughB.status]).toEqual([201, 201]);
    for (const [node, other, mediaId] of [
      [a.url, bUrl, throughA.body.data._id],
      [bUrl, a.url, throughB.body.data._id],
    ] as const) {
      const created = await call(node, 'POST', '/content', {
        token: artist.token,
        body: { title: 'Shared', content: 'x', tags: 'demo', mediaId },
      });
      const item = await whenProcessed({ ...a, url: other }, fan, created.body.data._id);
      // The other node serves it: its bytes are the bucket's.
      const original = await fetch(new URL(`/media/${mediaId}`, other), {
        headers: { authorization: `Bearer ${artist.token}`, range: 'bytes=0-43' },
      });
      expect(original.status).toBe(206);
      expect(Buffer.from(await original.arrayBuffer())).toEqual(Buffer.from(wav).subarray(0, 44));
      const stream = await fetch(new URL(new URL(item.media.url).pathname + new URL(item.media.url).search, other));
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toBe('audio/mp4');
      // Read whole, as a player would (a body left unread holds its connection, and the node's close waits for it).
      const bytes = Buffer.from(await stream.arrayBuffer());
      expect(bytes.length).toBe(Number(stream.headers.get('content-length')));
      expect([...s3.objects.values()].some((object) => object.equals(bytes))).toBe(true);
    }
    expect(filesUnder(path.join(a.dataDir, 'media'))).toEqual([]);
    expect(filesUnder(path.join(bDataDir, 'media'))).toEqual([]);
  });
});
