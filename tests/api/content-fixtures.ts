import { createSession } from '../../api/auth/sessions';
import { call, makeArtist, subscribe as subscribeRow, uniqueName, type Answer, type TestApi } from '../helpers/api';

/**
 * What the content tests add to the shared api test helper (tests/helpers/api.ts): users made straight in the
 * database (these tests make hundreds; registration hashes a password each time and is not what they test),
 * uploads as a browser form sends them, a small real audio file, and signed links on the test api's address.
 */

export interface ContentUser {
  id: string;
  username: string;
  token: string;
}

/** A fan with a real session token. */
export async function createFan(t: TestApi, prefix = 'fan'): Promise<ContentUser> {
  const username = uniqueName(prefix);
  const [user] = await t.db.query<{ id: string }>(
    `INSERT INTO users (username, email, name, password_hash) VALUES ($1, $2, $1, 'not-used') RETURNING id`,
    [username, `${username}@example.com`],
  );
  return { id: user.id, username, token: await createSession(t.db, user.id, 1) };
}

/** An artist: a user with the artist flag and a profile. */
export async function createArtist(t: TestApi, prefix = 'artist'): Promise<ContentUser> {
  const user = await createFan(t, prefix);
  await makeArtist(t, { ...user, email: `${user.username}@example.com`, password: '' });
  return user;
}

/** An active subscription for a year (until the subscribe issue adds the api). */
export function subscribe(t: TestApi, fan: ContentUser, artist: ContentUser) {
  return subscribeRow(t, fan.id, artist.id);
}

/** POST /media with one file, as a browser form sends it (multipart/form-data, field "file"). */
export async function upload(
  t: TestApi,
  token: string | undefined,
  bytes: Uint8Array,
  { filename = 'file.bin', type = 'application/octet-stream', kind }: { filename?: string; type?: string; kind?: string } = {},
): Promise<Answer> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), filename);
  const url = new URL('/media', t.url);
  if (kind) url.searchParams.set('kind', kind);
  const response = await fetch(url, { method: 'POST', body: form, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

/** A small WAV file (mono, 8 kHz, 8-bit) of the given number of samples: real audio that file sniffing recognises. */
export function wav(samples = 8000) {
  const data = Buffer.alloc(samples, 128);
  for (let i = 0; i < samples; i++) data[i] = 128 + Math.round(60 * Math.sin(i / 4));
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples, 40);
  return new Uint8Array(Buffer.concat([header, data]));
}

/** A signed media link (made on the public API base) called on the test api's own address. */
export function localLink(t: TestApi, link: string) {
  const url = new URL(link);
  return new URL(url.pathname + url.search, t.url).toString();
}

/**
 * An item as the viewer reads it once its file has been processed (the processing job runs on the test api's own
 * workers): until then fans get 404 and the artist sees the file `processing`.
 */
export async function whenProcessed(t: TestApi, viewer: ContentUser, itemId: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const read = await call(t.url, 'GET', `/content/${itemId}`, { token: viewer.token });
    if (read.status === 200 && read.body.data.media?.status !== 'processing') return read.body.data;
    if (Date.now() > deadline) throw new Error(`item ${itemId} was not processed in time (${read.status})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
