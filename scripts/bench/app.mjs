// Starts the production build as `npm start` starts it (node --v8-pool-size=1 build/server/index.js, web and api in one process),
// on a fresh PGlite data directory or a fresh PostgreSQL database, and fills it with what the bench reads.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import WebSocket from 'ws';
import { ROOT, sleep, startProcess } from './lib.mjs';

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
  let proc;
  try {
    proc = await startProcess({
      name: `app-${db}`,
      // The node flags of package.json's start script (docs/operations.md, "Processor threads").
      args: [`--inspect=127.0.0.1:${inspectPort}`, '--v8-pool-size=1', 'build/server/index.js'],
      env,
      cwd: ROOT,
      readyUrl: `${webUrl}/healthz`,
      logDir,
    });
    await waitForOk200(`${apiUrl}/healthz`);
  } catch (error) {
    await dropDatabase();
    throw error;
  }
  return {
    db,
    databaseUrl,
    label: db === 'pg' ? 'PostgreSQL' : 'PGlite',
    webUrl,
    apiUrl,
    pid: proc.pid,
    log: proc.log,
    startMs: proc.startMs,
    /** Forces a full garbage collection in the server through its inspector; answers the V8 heap in use after it. */
    gc: () => collectGarbage(inspectPort),
    async stop() {
      await proc.stop();
      await dropDatabase();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
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

/**
 * What the pages read: 24 published items of every kind for the artist (some with a photo as thumbnail, as an
 * artist's page has), and a conversation between the seed fan and each of their two artists with a few messages.
 */
export async function prepareFixtures(app) {
  const fanToken = await login(app, FAN.email, FAN.password);
  const artistToken = await login(app, ARTIST_EMAILS[ARTIST], ARTIST_PASSWORD);
  const otherToken = await login(app, ARTIST_EMAILS[OTHER_ARTIST], ARTIST_PASSWORD);
  const artist = await api(app, 'GET', `/performers/${ARTIST}`, { token: fanToken });
  const other = await api(app, 'GET', `/performers/${OTHER_ARTIST}`, { token: fanToken });

  const photos = [];
  for (let i = 0; i < 4; i++) {
    const jpeg = await sharp({
      create: { width: 1600, height: 1067, channels: 3, noise: { type: 'gaussian', mean: 90 + i * 20, sigma: 40 } },
    })
      .blur(3)
      .jpeg({ quality: 80 })
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([jpeg], { type: 'image/jpeg' }), `photo-${i}.jpg`);
    photos.push(await api(app, 'POST', '/media?kind=image', { token: artistToken, body: form }));
  }

  const items = [];
  for (let i = 0; i < 24; i++) {
    const [type, title] = TYPES[i % TYPES.length];
    const body = { title: `${title}${i >= TYPES.length ? ' (part 2)' : ''}`, content: CAPTION, tags: type, draft: false };
    if (type === 'photo') body.mediaId = photos[i % photos.length]._id;
    else if (i % 3 === 0) body.thumbnailId = photos[i % photos.length]._id;
    if (type === 'poll') {
      body.tags = 'post';
      body.poll = { enabled: true, title, answers: [{ text: 'Lighthouse' }, { text: 'Paper Boats' }, { text: 'Night Bus' }] };
    }
    items.push(await api(app, 'POST', '/content', { token: artistToken, body }));
  }
  const vaultItem = items.find((item) => item.type === 'demo') ?? items[1];

  const conversation = await api(app, 'POST', '/conversations', {
    token: fanToken,
    body: { source: 'performer', sourceId: artist._id },
  });
  const otherConversation = await api(app, 'POST', '/conversations', {
    token: fanToken,
    body: { source: 'performer', sourceId: other._id },
  });
  for (let i = 0; i < 4; i++) {
    await api(app, 'POST', `/messages/conversations/${conversation._id}`, {
      token: i % 2 ? artistToken : fanToken,
      body: { text: i % 2 ? `Thanks for listening! (${i})` : `Loved the new demo (${i})`, fileIds: [], type: 'text' },
    });
  }
  return {
    fanToken,
    artistToken,
    otherToken,
    artist,
    other,
    vaultItem,
    conversationId: conversation._id,
    otherConversationId: otherConversation._id,
  };
}
