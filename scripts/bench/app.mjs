// Starts the production build as `npm start` starts it (node NODE_FLAGS build/server/index.js: web and api in one process),
// on a fresh PGlite data directory or a fresh PostgreSQL database, and fills it with what the bench reads.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import sharp from 'sharp';
import WebSocket from 'ws';
import { ffmpeg } from './media-tools.mjs';
import { NODE_FLAGS, ROOT, sleep, startProcess } from './lib.mjs';
import { createLargeArtist, fillLargeClub, fillSmallClub, LARGE_ARTIST, LARGE_ARTIST_EMAIL } from './club.mjs';

export const ARTIST = 'thelatenights';
export const OTHER_ARTIST = 'juniperlane';
/** An artist the seed fan is not subscribed to: the payment page is theirs. */
export const UNSUBSCRIBED_ARTIST = 'novaricci';
export const FAN = { email: 'fan@stagedoor.test', password: 'Stagedoor-fan-2026!' };
export const ARTIST_PASSWORD = 'Stagedoor-artist-2026!';
export const ARTIST_EMAILS = { thelatenights: 'latenights@stagedoor.test', juniperlane: 'juniper@stagedoor.test' };

/**
 * db: 'pglite' or 'pg' (then pgUrl names the server; a database of our own is created and dropped).
 * The process is started with --inspect on a loopback port so the bench can force a garbage collection from
 * outside (HeapProfiler.collectGarbage) before reading resident memory: no hook in the server's code.
 */
export async function startApp({ db, pgUrl, webPort, apiPort, inspectPort, logDir, env: extraEnv = {} }) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `stagedoor-bench-${db}-`));
  let databaseUrl = '';
  let dropDatabase = async () => {};
  if (db === 'pg') {
    const name = `stagedoor_bench_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(pgUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: pgUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await client.end();
    };
  }
  const webUrl = `http://localhost:${webPort}`;
  const apiUrl = `http://localhost:${apiPort}`;
  const env = {
    PORT: String(webPort),
    API_PORT: String(apiPort),
    PUBLIC_API_URL: apiUrl,
    PUBLIC_WEB_URL: webUrl,
    API_URL: '',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    REDIS_URL: '',
    SERVE: 'all',
    SEED_DEMO: 'true',
    APP_ENV: 'local',
    NODE_ENV: 'production',
    ...extraEnv,
  };
  const launch = async () => {
    const started = await startProcess({
      name: `app-${db}`,
      args: [`--inspect=127.0.0.1:${inspectPort}`, ...NODE_FLAGS, 'build/server/index.js'],
      env,
      cwd: ROOT,
      readyUrl: `${webUrl}/healthz`,
      logDir,
    });
    await waitForOk200(`${apiUrl}/healthz`);
    return started;
  };
  let proc;
  try {
    proc = await launch();
  } catch (error) {
    await dropDatabase();
    throw error;
  }
  const app = {
    db,
    databaseUrl,
    dataDir,
    label: db === 'pg' ? 'PostgreSQL' : 'PGlite',
    webUrl,
    apiUrl,
    get pid() {
      return proc.pid;
    },
    get log() {
      return proc.log;
    },
    startMs: proc.startMs,
    /** Forces a full garbage collection in the server through its inspector; answers the V8 heap in use after it. */
    gc: () => collectGarbage(inspectPort),
    /**
     * Runs fn(query) on the app's database from the bench, with the server stopped (PGlite lives in the server's
     * process; on PostgreSQL the restart empties the server's in-process read cache, so no page reads stale data).
     * Sessions are rows: the tokens taken before stay valid.
     */
    async sql(fn) {
      await proc.stop();
      try {
        if (db === 'pg') {
          const client = new pg.Client({ connectionString: databaseUrl });
          await client.connect();
          try {
            return await fn(async (text, params) => (await client.query(text, params)).rows);
          } finally {
            await client.end();
          }
        }
        const { PGlite } = await import('@electric-sql/pglite');
        const lite = await PGlite.create(path.join(dataDir, 'pglite'));
        try {
          return await fn(async (text, params) => (await lite.query(text, params)).rows);
        } finally {
          await lite.close();
        }
      } finally {
        proc = await launch();
      }
    },
    async stop() {
      await proc.stop();
      await dropDatabase();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return app;
}

async function waitForOk200(url) {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await sleep(200);
  }
  throw new Error(`${url} did not answer`);
}

export async function collectGarbage(inspectPort) {
  const list = await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json();
  const ws = new WebSocket(list[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let id = 0;
  const call = (method) =>
    new Promise((resolve) => {
      const mine = ++id;
      const onMessage = (raw) => {
        const message = JSON.parse(String(raw));
        if (message.id === mine) {
          ws.off('message', onMessage);
          resolve(message);
        }
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ id: mine, method }));
    });
  await call('HeapProfiler.enable');
  await call('HeapProfiler.collectGarbage');
  await call('HeapProfiler.collectGarbage');
  await call('HeapProfiler.disable');
  const usage = await call('Runtime.getHeapUsage');
  ws.close();
  await sleep(500);
  return { heapUsedMb: usage.result ? usage.result.usedSize / 2 ** 20 : null };
}

/** One api call; throws with the answer's message on a failure status. */
export async function api(app, method, pathname, { token, body, headers = {} } = {}) {
  const init = { method, headers: { ...headers } };
  if (token) init.headers.authorization = `Bearer ${token}`;
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${app.apiUrl}${pathname}`, init);
    if (res.status === 429 && attempt < 3) {
      const wait = Number(res.headers.get('retry-after') ?? 5);
      console.log(`  (rate limited on ${method} ${pathname}: waiting ${wait} s)`);
      await sleep(wait * 1000 + 200);
      continue;
    }
    const json = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(`${method} ${pathname} → ${res.status} ${json.message ?? ''}`);
    return json.data;
  }
}

/**
 * The artist home as the seed fan sees it, 10 connections, for `seconds`; with `until`, stopped sooner when that
 * promise settles. The fan-out and media parts measure the page while their work runs.
 */
/** How many connections browseArtistHome keeps open. */
export const BROWSE_CONNECTIONS = 10;

export function browseArtistHome(app, token, { seconds, until }) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${app.webUrl}/${ARTIST}`,
        connections: BROWSE_CONNECTIONS,
        duration: seconds,
        timeout: 10,
        headers: { cookie: `stagedoor=${token}`, accept: 'text/html' },
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    if (until) until.finally(() => instance.stop());
  });
}

export async function login(app, username, password) {
  return (await api(app, 'POST', '/auth/login', { body: { username, password, remember: true } })).token;
}

const TYPES = [
  ['post', 'Soundcheck notes'],
  ['demo', 'Demo: Lighthouse (rough mix)'],
  ['voicenote', 'Voice note from the van'],
  ['tourDiary', 'Tour diary: Leeds'],
  ['announcement', 'New dates in May'],
  ['unreleased', 'Unreleased: Paper Boats'],
  ['behindTheScenes', 'Behind the scenes at the studio'],
  ['session', 'Kitchen session'],
  ['post', 'Thank you, Glasgow'],
  ['poll', 'Which song should open the set?'],
  ['live', 'Live at the Roundhouse'],
  ['photo', 'Backstage in Bristol'],
];

const CAPTION =
  '<p>We spent the afternoon going through the last takes and this is the one we kept. The drums were recorded in one go in the big room, the vocal a week later at home.</p><p>Tell us what you think in the comments.</p>';

/** Two seconds of a 330 Hz tone as a WAV (8 kHz, mono, 8 bit), made by ffmpeg: the audio item's media. */
function toneWav() {
  return ffmpegOutput('tone.wav', ['-f', 'lavfi', '-i', 'sine=frequency=330:duration=2', '-ar', '8000', '-ac', '1', '-c:a', 'pcm_u8']);
}

let videoBytes = null;
/** Two seconds of ffmpeg's test picture as an MP4: the video item's media (made once per run). */
function testVideo() {
  videoBytes ??= ffmpegOutput('video.mp4', [
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=320x180:rate=15',
    '-t',
    '2',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
  ]);
  return videoBytes;
}

/** What ffmpeg writes into a file named `name` from these arguments (its input and options), read back. */
function ffmpegOutput(name, args) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-bench-media-'));
  const file = path.join(dir, name);
  try {
    execFileSync(ffmpeg, ['-loglevel', 'error', ...args, file], { stdio: 'inherit' });
    return fs.readFileSync(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function upload(app, token, kind, bytes, type, name) {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), name);
  return api(app, 'POST', `/media?kind=${kind}`, { token, body: form });
}

/** The item as the fan sees it, once its file is processed (404 until then); gives up after two minutes. */
async function visibleToFan(app, id, fanToken) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      return await api(app, 'GET', `/content/${id}`, { token: fanToken });
    } catch (error) {
      if (!/→ 404/.test(error.message) || Date.now() > deadline) throw error;
      await sleep(500);
    }
  }
}

/**
 * One club's pages, made through the api as the artist and the seed fan would: 24 published items of every kind
 * (some with a photo as thumbnail, as an artist's page has), and one item of each kind the item page shows
 * differently (audio, video, photo, a post with a poll, a ticket presale with the fan's code), a collection of
 * three, the fan's bookmarks of those and the fan's conversation with the artist with a few messages.
 */
async function prepareClub(app, { size, username, artistToken, fanToken }) {
  const artist = await api(app, 'GET', `/performers/${username}`, { token: fanToken });
  const photos = [];
  for (let i = 0; i < 4; i++) {
    const jpeg = await sharp({
      create: { width: 1600, height: 1067, channels: 3, noise: { type: 'gaussian', mean: 90 + i * 20, sigma: 40 } },
    })
      .blur(3)
      .jpeg({ quality: 80 })
      .toBuffer();
    photos.push(await upload(app, artistToken, 'image', jpeg, 'image/jpeg', `photo-${i}.jpg`));
  }
  const post = (body) => api(app, 'POST', '/content', { token: artistToken, body: { content: CAPTION, draft: false, ...body } });

  const items = [];
  for (let i = 0; i < 24; i++) {
    const [type, title] = TYPES[i % TYPES.length];
    const body = { title: `${title}${i >= TYPES.length ? ' (part 2)' : ''}`, tags: type };
    if (type === 'photo') body.mediaId = photos[i % photos.length]._id;
    else if (i % 3 === 0) body.thumbnailId = photos[i % photos.length]._id;
    if (type === 'poll') {
      body.tags = 'post';
      body.poll = { enabled: true, title, answers: [{ text: 'Lighthouse' }, { text: 'Paper Boats' }, { text: 'Night Bus' }] };
    }
    items.push(await post(body));
  }
  const audioMedia = await upload(app, artistToken, 'audio', toneWav(), 'audio/wav', 'lighthouse.wav');
  const videoMedia = await upload(app, artistToken, 'video', testVideo(), 'video/mp4', 'kitchen-session.mp4');
  const measured = {
    audio: await post({ title: 'Demo: Lighthouse (first take)', tags: 'demo', mediaId: audioMedia._id, thumbnailId: photos[0]._id }),
    video: await post({ title: 'Music video: Night Bus', tags: 'musicVideo', mediaId: videoMedia._id, thumbnailId: photos[1]._id }),
    photo: items.find((item) => item.type === 'photo'),
    poll: items.find((item) => item.poll),
    presale: await post({
      title: 'Winter shows: members presale',
      tags: 'ticketPresale',
      presale: {
        ticketUrl: 'https://tickets.example.com/bench/winter',
        saleStartsAt: new Date(Date.now() - 86_400_000).toISOString(),
        saleEndsAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      },
    }),
  };
  // An audio or video file is processed (ffmpeg) before fans see its item: wait for each, as the fan.
  measured.audio = await visibleToFan(app, measured.audio._id, fanToken);
  measured.video = await visibleToFan(app, measured.video._id, fanToken);
  const collection = await api(app, 'POST', '/collections', {
    token: artistToken,
    body: {
      title: 'Bench collection',
      description: 'The audio, the video and the photo.',
      coverId: photos[2]._id,
      itemIds: [measured.audio._id, measured.video._id, measured.photo._id],
    },
  });
  for (const item of Object.values(measured)) await api(app, 'POST', `/content/${item._id}/bookmark`, { token: fanToken });
  // The fan's own presale code, as the first view of the presale makes it.
  await api(app, 'GET', `/content/${measured.presale._id}/presale-code`, { token: fanToken });
  const conversation = await api(app, 'POST', '/conversations', {
    token: fanToken,
    body: { source: 'performer', sourceId: artist._id },
  });
  for (let i = 0; i < 4; i++) {
    await api(app, 'POST', `/messages/conversations/${conversation._id}`, {
      token: i % 2 ? artistToken : fanToken,
      body: { text: i % 2 ? `Thanks for listening! (${i})` : `Loved the new demo (${i})`, fileIds: [], type: 'text' },
    });
  }
  const ids = Object.fromEntries(Object.entries(measured).map(([kind, item]) => [kind, { _id: item._id, mediaType: item.mediaType }]));
  return {
    size,
    username,
    artistId: artist._id,
    artistToken,
    items: ids,
    // The item the studio's edit form opens.
    editItemId: measured.photo._id,
    collectionId: collection._id,
    conversationId: conversation._id,
  };
}

/**
 * What the pages read, made through the api: the small club is The Late Nights (seeded, with the club's pages of
 * prepareClub); with `large`, a second artist (LARGE_ARTIST, made in SQL as a copy of The Late Nights' account, the
 * seed fan subscribed) gets the same pages and then the bulk of a large club in SQL (club.mjs). Also a conversation
 * between the seed fan and Juniper Lane, for the realtime part.
 */
export async function prepareFixtures(app, { large = false } = {}) {
  if (large) await app.sql((query) => createLargeArtist(query));
  const fanToken = await login(app, FAN.email, FAN.password);
  const artistToken = await login(app, ARTIST_EMAILS[ARTIST], ARTIST_PASSWORD);
  const otherToken = await login(app, ARTIST_EMAILS[OTHER_ARTIST], ARTIST_PASSWORD);
  const artist = await api(app, 'GET', `/performers/${ARTIST}`, { token: fanToken });
  const other = await api(app, 'GET', `/performers/${OTHER_ARTIST}`, { token: fanToken });
  const clubs = { small: await prepareClub(app, { size: 'small', username: ARTIST, artistToken, fanToken }) };
  if (large) {
    const largeToken = await login(app, LARGE_ARTIST_EMAIL, ARTIST_PASSWORD);
    clubs.large = await prepareClub(app, { size: 'large', username: LARGE_ARTIST, artistToken: largeToken, fanToken });
  }
  const otherConversation = await api(app, 'POST', '/conversations', {
    token: fanToken,
    body: { source: 'performer', sourceId: other._id },
  });
  await app.sql(async (query) => {
    await fillSmallClub(query, clubs.small);
    if (large) await fillLargeClub(query, clubs.large);
  });
  return {
    fanToken,
    artistToken,
    otherToken,
    artist,
    other,
    clubs,
    conversationId: clubs.small.conversationId,
    otherConversationId: otherConversation._id,
  };
}
