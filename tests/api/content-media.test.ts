import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemMessages } from '../../api/content/routes';
import { formatScheduleDate, formatScheduleTime } from '#contract/content-schemas';
import { signature } from '../../api/media/signing';
import { call, describeEachDatabase, startTestApi, type TestApi, whenJobsIdle } from '../helpers/api';
import {
  createArtist,
  createFan,
  localLink,
  subscribe,
  upload,
  wav,
  whenProcessed,
  type ContentUser as TestUser,
} from './content-fixtures';

let t: TestApi;

/** Every file under DATA_DIR/media, temporary ones included. */
function storedFiles() {
  const root = path.join(t.dataDir, 'media');
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((name) => fs.statSync(path.join(root, name)).isFile());
}

/** storedFiles once every upload of earlier tests has been processed (processing stores what fans are served). */
async function storedFilesSettled() {
  const deadline = Date.now() + 60_000;
  while ((await t.db.query(`SELECT 1 FROM media WHERE status = 'processing'`)).length > 0) {
    if (Date.now() > deadline) throw new Error('uploads were still processing after a minute');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return storedFiles().length;
}

const png = (width = 1200, height = 800) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 90 } } })
    .png()
    .toBuffer();

async function uploaded(artist: TestUser, bytes: Uint8Array, options: Parameters<typeof upload>[3] = {}) {
  const answer = await upload(t, artist.token, bytes, options);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data;
}

/** The whole file runs on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set (reported skipped otherwise). */
describeEachDatabase('media', (database) => {
  beforeAll(async () => {
    t = await startTestApi({ database: database.name });
  });
  // The file's uploads are processed by jobs: they finish before the api closes and its schema goes.
  afterAll(async () => {
    if (t) await whenJobsIdle(t);
    await t?.close();
  }, 180_000);

  describe(`uploads`, () => {
    it('takes an image, records its size and makes a 480 px list size and a 1280 px display size', async () => {
      const artist = await createArtist(t);
      const image = await uploaded(artist, await png(2400, 1600), { filename: 'poster.png', type: 'image/png' });
      expect(image).toMatchObject({ kind: 'image', mime: 'image/png', width: 2400, height: 1600 });
      expect(image.url).toMatch(/^http:\/\/localhost:8080\/media\/[^?]+\?expires=\d+&sig=/);
      for (const [link, width, height] of [
        [image.thumbnailUrl, 480, 320],
        [image.largeUrl, 1280, 853],
      ] as const) {
        const variant = await fetch(localLink(t, link));
        expect(variant.status).toBe(200);
        expect(variant.headers.get('content-type')).toBe('image/webp');
        const meta = await sharp(Buffer.from(await variant.arrayBuffer())).metadata();
        expect(meta).toMatchObject({ format: 'webp', width, height });
      }
      // A signature names its size: the thumbnail's link does not open the display size.
      expect((await fetch(localLink(t, image.thumbnailUrl).replace('size=thumb', 'size=large'))).status).toBe(403);

      // A picture no wider than its thumbnail needs no display size: pages show the original.
      const small = await uploaded(artist, await png(400, 300), { filename: 'small.png', type: 'image/png' });
      expect(small.largeUrl).toBeNull();
      expect((await fetch(localLink(t, small.url).replace('?', '?size=large&'))).status).toBe(404);
    });

    it('takes audio by its content, whatever it is called', async () => {
      const artist = await createArtist(t);
      const audio = await uploaded(artist, wav(), { filename: 'voice-note.bin' });
      expect(audio).toMatchObject({ kind: 'audio', mime: 'audio/wav', size: wav().length, thumbnailUrl: null, largeUrl: null });
    });

    it('refuses a renamed text file and keeps nothing', async () => {
      const artist = await createArtist(t);
      const before = await storedFilesSettled();
      const text = new TextEncoder().encode('just some notes, not a song\n'.repeat(500));
      for (const [filename, type] of [
        ['song.mp3', 'audio/mpeg'],
        ['photo.png', 'image/png'],
      ]) {
        const refused = await upload(t, artist.token, text, { filename, type });
        expect(refused.status).toBe(415);
        expect(refused.body.message).toMatch(/^This file type isn't supported\. Upload /);
        expect(refused.body.errors?.file).toEqual([refused.body.message]);
      }
      expect(storedFiles().length).toBe(before);
      expect((await t.db.query('SELECT 1 FROM media WHERE owner_id = $1', [artist.id])).length).toBe(0);
    });

    it('refuses a file of another kind than the form asked for', async () => {
      const artist = await createArtist(t);
      const refused = await upload(t, artist.token, wav(), { filename: 'cover.png', kind: 'image' });
      expect(refused.status).toBe(415);
      expect(refused.body.message).toBe("This file type isn't supported. Upload a JPEG, PNG, WebP or GIF image.");
    });

    it('refuses an image over 15 MB part-way through and keeps nothing', async () => {
      const artist = await createArtist(t);
      const before = await storedFilesSettled();
      const header = await png(16, 16);
      const big = new Uint8Array(15 * 1024 * 1024 + 100);
      big.set(header);
      const refused = await upload(t, artist.token, big, { filename: 'huge.png' });
      expect(refused.status).toBe(413);
      expect(refused.body.message).toBe('This file is too large. Images can be at most 15 MB.');
      expect(storedFiles().length).toBe(before);
      expect((await t.db.query('SELECT 1 FROM media WHERE owner_id = $1', [artist.id])).length).toBe(0);
    });

    it('refuses an image it cannot read', async () => {
      const artist = await createArtist(t);
      const before = await storedFilesSettled();
      const broken = new Uint8Array(await png(64, 64)).slice(0, 120);
      const refused = await upload(t, artist.token, broken, { filename: 'broken.png' });
      expect(refused.status).toBe(415);
      expect(refused.body.message).toBe("This image couldn't be read. Please upload a different file.");
      expect(storedFiles().length).toBe(before);
    });

    it('asks for a file when none is sent', async () => {
      const artist = await createArtist(t);
      const empty = await upload(t, artist.token, new Uint8Array(0));
      expect(empty.status).toBe(400);
      expect(empty.body.message).toBe('Please choose a file to upload.');
      const json = await call(t.url, 'POST', '/media', { token: artist.token, body: {} });
      expect(json.status).toBe(400);
    });

    it('is for artists only', async () => {
      const fan = await createFan(t);
      expect((await upload(t, fan.token, wav())).status).toBe(403);
      expect((await upload(t, undefined, wav())).status).toBe(401);
    });

    it('content may use only the artist’s own uploads, an image as thumbnail, and an image for a photo', async () => {
      const [artist, other] = await Promise.all([createArtist(t), createArtist(t)]);
      const theirs = await uploaded(other, await png(40, 40));
      const audio = await uploaded(artist, wav());
      const body = { title: 'x', content: 'y', tags: 'photo' };
      const refused = await call(t.url, 'POST', '/content', {
        token: artist.token,
        body: { ...body, thumbnailId: theirs._id, mediaId: audio._id },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual({ thumbnailId: [itemMessages.mediaMissing], mediaId: [itemMessages.photoRequired] });
      const notImage = await call(t.url, 'POST', '/content', {
        token: artist.token,
        body: { ...body, tags: 'demo', thumbnailId: audio._id },
      });
      expect(notImage.body.errors).toEqual({ thumbnailId: [itemMessages.thumbnailNotImage] });
    });
  });

  describe(`serving media`, () => {
    /** A published demo whose WAV has been processed: fans are served its AAC stream (api/media/processing.ts). */
    async function publishedAudio() {
      const [artist, fan, stranger] = await Promise.all([createArtist(t), createFan(t), createFan(t)]);
      await subscribe(t, fan, artist);
      const media = await uploaded(artist, wav(20_000));
      const created = await call(t.url, 'POST', '/content', {
        token: artist.token,
        body: { title: 'Demo', content: 'listen', tags: 'demo', mediaId: media._id },
      });
      const item = await whenProcessed(t, fan, created.body.data._id);
      const link = item.media.url as string;
      const bytes = new Uint8Array(await (await fetch(localLink(t, link))).arrayBuffer());
      return { artist, fan, stranger, bytes, item, link };
    }

    it('gives fans a signed link that works without an Authorization header, cached privately', async () => {
      const { bytes, link, item } = await publishedAudio();
      expect(item.mediaType).toBe('audio');
      const response = await fetch(localLink(t, link));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('audio/mp4');
      expect(response.headers.get('accept-ranges')).toBe('bytes');
      expect(response.headers.get('content-length')).toBe(String(bytes.length));
      expect(response.headers.get('cache-control')).toMatch(/^private, max-age=\d+, immutable$/);
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
    });

    it('answers Range requests with 206 and exactly the bytes asked for', async () => {
      const { bytes, link } = await publishedAudio();
      const url = localLink(t, link);
      const middle = await fetch(url, { headers: { range: 'bytes=100-1099' } });
      expect(middle.status).toBe(206);
      expect(middle.headers.get('content-range')).toBe(`bytes 100-1099/${bytes.length}`);
      expect(middle.headers.get('content-length')).toBe('1000');
      expect(new Uint8Array(await middle.arrayBuffer())).toEqual(bytes.slice(100, 1100));

      const tail = await fetch(url, { headers: { range: 'bytes=-44' } });
      expect(tail.status).toBe(206);
      expect(new Uint8Array(await tail.arrayBuffer())).toEqual(bytes.slice(bytes.length - 44));

      const open = await fetch(url, { headers: { range: `bytes=${bytes.length - 10}-` } });
      expect(open.headers.get('content-range')).toBe(`bytes ${bytes.length - 10}-${bytes.length - 1}/${bytes.length}`);
      expect(new Uint8Array(await open.arrayBuffer())).toEqual(bytes.slice(bytes.length - 10));

      const beyond = await fetch(url, { headers: { range: `bytes=${bytes.length}-` } });
      expect(beyond.status).toBe(416);
      expect(beyond.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
    });

    it('answers HEAD with the size and no body', async () => {
      const { bytes, link } = await publishedAudio();
      const head = await fetch(localLink(t, link), { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String(bytes.length));
      expect((await head.arrayBuffer()).byteLength).toBe(0);
    });

    it('answers 304 when the browser already has the file', async () => {
      const { link } = await publishedAudio();
      const first = await fetch(localLink(t, link));
      await first.arrayBuffer();
      const again = await fetch(localLink(t, link), { headers: { 'if-none-match': first.headers.get('etag')! } });
      expect(again.status).toBe(304);
    });

    it('refuses a link without a signature, with a wrong one, or an expired one', async () => {
      const { link, item } = await publishedAudio();
      const bare = new URL(localLink(t, link));
      bare.search = '';
      expect((await fetch(bare)).status).toBe(401);

      const tampered = new URL(localLink(t, link));
      tampered.searchParams.set(
        'sig',
        tampered.searchParams.get('sig')!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
      );
      expect((await fetch(tampered)).status).toBe(403);

      const extended = new URL(localLink(t, link));
      extended.searchParams.set('expires', String(Number(extended.searchParams.get('expires')) + 86_400));
      expect((await fetch(extended)).status).toBe(403);

      // A link the server really signed, whose time is up.
      const [secret] = await t.db.query<{ value: string }>(`SELECT value FROM server_secrets WHERE name = 'media-links'`);
      const expires = Math.floor(Date.now() / 1000) - 60;
      const sig = signature(Buffer.from(secret.value, 'hex'), item.media._id, 'stream', expires);
      const expired = await fetch(new URL(`/media/${item.media._id}?size=stream&expires=${expires}&sig=${sig}`, t.url));
      expect(expired.status).toBe(403);
      expect((await expired.json()).message).toBe('This link to the file has expired. Reload the page to get a new one.');
    });

    it('with the Authorization header: the artist and subscribers only', async () => {
      const { artist, fan, stranger, item } = await publishedAudio();
      const url = new URL(`/media/${item.media._id}`, t.url);
      const as = (token: string) => fetch(url, { headers: { authorization: `Bearer ${token}` } });
      expect((await as(artist.token)).status).toBe(200);
      expect((await as(fan.token)).status).toBe(200);
      expect((await as(stranger.token)).status).toBe(403);
      await t.db.query(`UPDATE subscriptions SET expires_at = now() - interval '1 day' WHERE user_id = $1`, [fan.id]);
      expect((await as(fan.token)).status).toBe(403);
    });

    describe('files of items fans may not see (finding 3)', () => {
      const VARIANTS = ['url', 'thumbnailUrl', 'largeUrl'] as const;
      const bearer = (id: string, token: string, size?: string) =>
        fetch(new URL(`/media/${id}${size ? `?size=${size}` : ''}`, t.url), { headers: { authorization: `Bearer ${token}` } });
      /** Each variant of a photo, by its signed links and by id with the Authorization header. */
      async function statuses(media: { _id: string; url: string; thumbnailUrl: string; largeUrl: string }, token: string) {
        const signed = await Promise.all(VARIANTS.map(async (variant) => (await fetch(localLink(t, media[variant]))).status));
        const byId = await Promise.all([undefined, 'thumb', 'large'].map(async (size) => (await bearer(media._id, token, size)).status));
        return [...signed, ...byId];
      }
      const schedule = (minutes: number) => {
        const at = new Date(Date.now() + minutes * 60_000);
        return { enabled: true, date: formatScheduleDate(at), time: formatScheduleTime(at) };
      };
      async function photo(artist: TestUser, extra: Record<string, unknown> = {}) {
        const image = await uploaded(artist, await png(2400, 1600), { filename: 'photo.png', type: 'image/png' });
        const created = await call(t.url, 'POST', '/content', {
          token: artist.token,
          body: { title: 'Photo', content: 'x', tags: 'photo', mediaId: image._id, ...extra },
        });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        return { item: created.body.data, image };
      }

      it('a published photo turned back into a draft: its files stop for subscribers, links and ids alike', async () => {
        const [artist, fan] = await Promise.all([createArtist(t), createFan(t)]);
        await subscribe(t, fan, artist);
        const { item } = await photo(artist);
        const seen = (await call(t.url, 'GET', `/content/${item._id}`, { token: fan.token })).body.data;
        expect(await statuses(seen.media, fan.token)).toEqual([200, 200, 200, 200, 200, 200]);

        const drafted = await call(t.url, 'PUT', `/content/${item._id}`, {
          token: artist.token,
          body: { title: 'Photo', content: 'x', tags: 'photo', mediaId: seen.media._id, draft: true },
        });
        expect(drafted.body.data.state).toBe('draft');
        expect((await call(t.url, 'GET', `/content/${item._id}`, { token: fan.token })).status).toBe(404);
        expect(await statuses(seen.media, fan.token)).toEqual([404, 404, 404, 404, 404, 404]);

        // The artist always: by id, and by the links the draft now carries for them.
        const own = (await call(t.url, 'GET', `/content/${item._id}`, { token: artist.token })).body.data;
        expect(await statuses(own.media, artist.token)).toEqual([200, 200, 200, 200, 200, 200]);

        // Published again, the fan's links work again.
        await call(t.url, 'PUT', `/content/${item._id}`, {
          token: artist.token,
          body: { title: 'Photo', content: 'x', tags: 'photo', mediaId: seen.media._id },
        });
        expect(await statuses(seen.media, fan.token)).toEqual([200, 200, 200, 200, 200, 200]);
      });

      it('drafts, scheduled items and uploads attached to nothing: the artist’s own, never a subscriber’s', async () => {
        const [artist, fan] = await Promise.all([createArtist(t), createFan(t)]);
        await subscribe(t, fan, artist);
        const draft = await photo(artist, { draft: true });
        const scheduled = await photo(artist, { schedule: schedule(60) });
        const loose = await uploaded(artist, await png(2400, 1600), { filename: 'loose.png', type: 'image/png' });
        for (const [name, media] of [
          ['draft', (await call(t.url, 'GET', `/content/${draft.item._id}`, { token: artist.token })).body.data.media],
          ['scheduled', (await call(t.url, 'GET', `/content/${scheduled.item._id}`, { token: artist.token })).body.data.media],
          ['upload', loose],
        ] as const) {
          // The artist's links work for the artist; a subscriber who learns the id gets nothing.
          expect(await statuses(media, artist.token), name).toEqual([200, 200, 200, 200, 200, 200]);
          const byId = await Promise.all(
            [undefined, 'thumb', 'large'].map(async (size) => (await bearer(media._id, fan.token, size)).status),
          );
          expect(byId, name).toEqual([404, 404, 404]);
        }

        // The scheduled photo's time comes: subscribers see it, and its file.
        await t.db.query(`UPDATE content_items SET publish_at = now() - interval '1 second' WHERE id = $1`, [scheduled.item._id]);
        const out = (await call(t.url, 'GET', `/content/${scheduled.item._id}`, { token: fan.token })).body.data;
        expect(await statuses(out.media, fan.token)).toEqual([200, 200, 200, 200, 200, 200]);
      });

      it('a link made for the artist is not a subscriber’s link: its signature says whom it is for', async () => {
        const [artist, fan] = await Promise.all([createArtist(t), createFan(t)]);
        await subscribe(t, fan, artist);
        const { item } = await photo(artist, { draft: true });
        const own = (await call(t.url, 'GET', `/content/${item._id}`, { token: artist.token })).body.data;
        const asFans = new URL(localLink(t, own.media.url));
        asFans.searchParams.delete('for');
        expect((await fetch(asFans)).status).toBe(403);
      });
    });

    it('unsubscribed viewers get no links at all', async () => {
      const { stranger, item } = await publishedAudio();
      const read = await call(t.url, 'GET', `/content/${item._id}`, { token: stranger.token });
      expect(read.status).toBe(403);
      expect(JSON.stringify(read.body)).not.toContain('/media/');
    });

    it('deleting the item deletes its files', async () => {
      const { artist, item } = await publishedAudio();
      const link = localLink(t, item.media.url);
      const before = await storedFilesSettled();
      expect((await call(t.url, 'DELETE', `/content/${item._id}`, { token: artist.token })).status).toBe(200);
      // The original and its stream.
      expect(storedFiles().length).toBe(before - 2);
      expect((await fetch(link)).status).toBe(404);
    });

    it('deleting a photo deletes its original, list size and display size', async () => {
      const artist = await createArtist(t);
      const before = await storedFilesSettled();
      const photo = await uploaded(artist, await png());
      expect(storedFiles().length).toBe(before + 3);
      const created = await call(t.url, 'POST', '/content', {
        token: artist.token,
        body: { title: 'Photo', content: 'look', tags: 'photo', mediaId: photo._id },
      });
      expect((await call(t.url, 'DELETE', `/content/${created.body.data._id}`, { token: artist.token })).status).toBe(200);
      expect(storedFiles().length).toBe(before);
    });

    it('replacing an item’s file on edit deletes the old one', async () => {
      const artist = await createArtist(t);
      const first = await uploaded(artist, wav(1000));
      const second = await uploaded(artist, wav(2000));
      const body = { title: 'Demo', content: 'listen', tags: 'demo' };
      const created = await call(t.url, 'POST', '/content', { token: artist.token, body: { ...body, mediaId: first._id } });
      await call(t.url, 'PUT', `/content/${created.body.data._id}`, { token: artist.token, body: { ...body, mediaId: second._id } });
      expect((await t.db.query('SELECT id FROM media WHERE owner_id = $1', [artist.id])).map((row: any) => row.id)).toEqual([second._id]);
    });
  });
});
