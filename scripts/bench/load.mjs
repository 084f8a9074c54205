// Part 6: load. A crowd on a presale morning, for a minute: 200 fans browse the artist home, vault and
// posts (signed-in SSR through the api), each reading a page for a few seconds before the next, while 10 more
// connections ask for those pages as fast as the server answers and 50 other fans each send a message every few
// seconds. Every answer must be 2xx or 3xx within the timeout (the budget is zero errors), and the server's memory
// after a forced GC must not grow.
//
// Why readers and not 200 connections with no pause (decision 006, amendment "a crowd that reads"): in a closed
// loop with no pause, a page waits 200 ÷ (pages a second) in the admission queue, so on a machine half as fast the
// same code timed out or got the admission's 503. The readers' demand is the same on every machine; the 10
// connections at full blast take whatever the machine has left (the volume the leak check needs) and never queue
// more than 10 deep. The throughput part judges speed.
//
// Setup, through the api as real fans would: M fans register (each from its own X-Forwarded-For address, which the
// api trusts from loopback: the sign-up limit is 30 an hour per address), subscribe free to the seeded free artist
// (Juniper Lane) and open their conversation with her. The readers and autocannon's connections browse as the seed
// fan (cookie `stagedoor=<token>`); the senders are M loops in the same process, each under the api's
// 30-messages-a-minute limit.
import http from 'node:http';
import autocannon from 'autocannon';
import { api, ARTIST, OTHER_ARTIST } from './app.mjs';
import { percentile, sleep } from './lib.mjs';
import { HEAP_GROWTH_BUDGET_MB, memorySample } from './throughput.mjs';

export const LOAD_BROWSERS = 200;
/** Connections asking for pages with no pause, beside the readers: the rest of the machine's capacity. */
export const LOAD_FULL_BLAST = 10;
/** How long a reader reads a page before opening the next, in ms: uniform between the two. */
export const LOAD_READ_MS = [4000, 8000];
/** A page or a send not answered in this time is an error (the web tier's own deadline for an api call). */
export const LOAD_TIMEOUT_S = 10;
export const LOAD_SENDERS = 50;
export const LOAD_SEND_INTERVAL_MS = 2500;
/** Seconds of the same crowd before the measured run (see measureLoad). */
export const LOAD_WARMUP_S = 60;
/**
 * The load's memory budgets (decision 006). A leak is memory the app keeps holding: the JavaScript heap after a
 * forced GC, which may grow by at most the bench's growth budget (10 MB). Resident memory also counts what the C
 * allocator keeps after a peak (zlib and socket buffers of 200 concurrent answers), which goes on settling for a
 * few minutes and moved +4 to +14 MB over the measured minute on an app without a leak, and once +42 MB on CI's
 * machine (the warm-up had settled low; the heap grew 4.9 MB). Its budget is the guard against growth outside the
 * heap, such as a compression stream or a socket left open per request (5,000 to 15,000 requests a minute: at
 * 64 KB each, 300 MB to 1 GB).
 */
export const LOAD_RSS_GROWTH_BUDGET_MB = 64;
const FAN_PASSWORD = 'Stagedoor-load-2026!';
const BROWSER_HEADERS = { accept: 'text/html,application/xhtml+xml', 'accept-encoding': 'gzip, deflate, br' };

export const loadPages = (artist = ARTIST) => [`/${artist}`, `/${artist}/vault`, `/${artist}/posts`];

/** An address of its own for fan i, in 198.18.0.0/15 (RFC 2544: set aside for benchmarks). */
export const fanAddress = (i) => `198.18.${Math.floor(i / 250)}.${(i % 250) + 1}`;

/** Registers, subscribes and opens a conversation for each sending fan; answers [{ token, conversationId }]. */
export async function prepareLoadFans(app, fixtures, count) {
  const fans = [];
  const performerId = fixtures.other._id;
  for (let i = 0; i < count; i++) {
    const address = fanAddress(i);
    const { token } = await api(app, 'POST', '/auth/users/register', {
      headers: { 'x-forwarded-for': address },
      body: { username: `loadfan${i + 1}`, email: `loadfan${i + 1}@bench.stagedoor.test`, password: FAN_PASSWORD },
    });
    await api(app, 'POST', '/payment/subscribe/performers', {
      token,
      headers: { 'x-forwarded-for': address },
      body: { type: 'free', performerId },
    });
    const conversation = await api(app, 'POST', '/conversations', {
      token,
      headers: { 'x-forwarded-for': address },
      body: { source: 'performer', sourceId: performerId },
    });
    fans.push({ token, address, conversationId: conversation._id });
  }
  return fans;
}

function fullBlast({ app, headers, connections, duration, pages }) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: app.webUrl,
        connections,
        duration,
        timeout: LOAD_TIMEOUT_S,
        requests: pages.map((path) => ({ method: 'GET', path, headers })),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/**
 * One fan's sends: a message every interval until the deadline, on schedule whether or not the previous one has
 * been answered (an open loop: a slow server does not slow the senders down and hide its own latency).
 */
async function sendLoop({ app, fan, index, interval, began, deadline, offset, sends, round }) {
  const pending = [];
  for (let n = 0; began + offset + n * interval < deadline; n++) {
    const wait = began + offset + n * interval - performance.now();
    if (wait > 0) await sleep(wait);
    pending.push(
      sendOne({
        app,
        fan,
        text: `Can't wait for the show! (${index + 1}.${n + 1})`,
        clientId: `load-${process.pid}-${round}-${index}-${n}`,
      }).then((s) => sends.push(s)),
    );
  }
  await Promise.all(pending);
}

async function sendOne({ app, fan, text, clientId }) {
  const started = performance.now();
  let status = 0;
  let error = null;
  try {
    const res = await fetch(`${app.apiUrl}/messages/conversations/${fan.conversationId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fan.token}`, 'content-type': 'application/json', 'x-forwarded-for': fan.address },
      body: JSON.stringify({ text, fileIds: [], type: 'text', clientId }),
      signal: AbortSignal.timeout(LOAD_TIMEOUT_S * 1000),
    });
    status = res.status;
    if (status >= 400) error = `${status} ${(await res.json().catch(() => ({}))).message ?? ''}`.trim();
    else await res.arrayBuffer();
  } catch (e) {
    error = e.name === 'TimeoutError' ? `timeout (${LOAD_TIMEOUT_S} s)` : (e.cause?.code ?? e.message);
  }
  return { ms: performance.now() - started, status, error };
}

/**
 * One reader: opens a page, reads it for a few seconds, opens the next (artist home, vault, posts, round again),
 * until the deadline. Its first page comes at a random moment of one reading time, so the readers arrive at a
 * steady rate rather than all at once.
 */
async function readLoop({ app, agent, headers, pages, deadline, first, visits }) {
  let n = first;
  let next = performance.now() + Math.random() * LOAD_READ_MS[1];
  while (next < deadline) {
    await sleep(next - performance.now());
    visits.push(await visit({ app, agent, headers, path: pages[n++ % pages.length] }));
    const [min, max] = LOAD_READ_MS;
    next = performance.now() + min + Math.random() * (max - min);
  }
}

function visit({ app, agent, headers, path }, started = performance.now()) {
  return new Promise((resolve) => {
    const done = (status, error) => resolve({ ms: performance.now() - started, status, error });
    const req = http.get(`${app.webUrl}${path}`, { agent, headers, timeout: LOAD_TIMEOUT_S * 1000 }, (res) => {
      res.on('data', () => {});
      res.on('end', () => done(res.statusCode, res.statusCode >= 200 && res.statusCode < 400 ? null : `${res.statusCode}`));
      res.on('error', (e) => done(res.statusCode, e.code ?? e.message));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: `timeout (${LOAD_TIMEOUT_S} s)` })));
    req.on('error', (e) => {
      // A kept-alive connection the server closed while the fan was reading: a browser asks again on a new one.
      if (req.reusedSocket && e.code === 'ECONNRESET') resolve(visit({ app, agent, headers, path }, started));
      else done(0, e.code ?? e.message);
    });
  });
}

/**
 * Waits until the server has finished the work the crowd left behind: when the crowd stops, the last of its requests
 * are still being rendered, and a memory sample taken then would count them as growth. Quiet means an api
 * health check and a page answer fast twice in a row.
 */
async function drained(app, token) {
  const deadline = performance.now() + 60_000;
  let quiet = 0;
  while (quiet < 2 && performance.now() < deadline) {
    const t = performance.now();
    await (await fetch(`${app.apiUrl}/healthz`)).arrayBuffer();
    await (await fetch(`${app.webUrl}/${ARTIST}`, { headers: { cookie: `stagedoor=${token}` } })).arrayBuffer();
    quiet = performance.now() - t < 1000 ? quiet + 1 : 0;
    await sleep(500);
  }
}

/** Requests, errors by kind and latencies of one kind of traffic, from one record per request. */
export function summarize(records, seconds) {
  const latencies = records.map((r) => r.ms);
  const failures = records.filter((r) => r.error);
  const kinds = new Map();
  for (const r of failures) kinds.set(r.error, (kinds.get(r.error) ?? 0) + 1);
  return {
    requests: records.length,
    rps: (records.length - failures.length) / seconds,
    errors: failures.length,
    kinds: [...kinds].map(([k, n]) => `${n}× ${k}`),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.length ? Math.max(...latencies) : null,
  };
}

/** autocannon's result in the same shape; its `errors` are the socket errors, timeouts included, and an answer outside 2xx and 3xx is an error too. */
function summarizeBlast(r) {
  const statusKinds = Object.entries(r.statusCodeStats ?? {})
    .filter(([code]) => /^\d+$/.test(code) && !/^[23]/.test(code))
    .map(([code, v]) => `${v.count}× ${code}`);
  return {
    // autocannon's total counts the answers; a request that timed out or lost its socket is an attempt too.
    requests: r.requests.total + r.errors,
    rps: r.requests.average,
    errors: r.errors + (r['1xx'] ?? 0) + (r['4xx'] ?? 0) + (r['5xx'] ?? 0),
    kinds: [
      ...statusKinds,
      r.errors > r.timeouts ? `${r.errors - r.timeouts} socket errors` : '',
      r.timeouts ? `${r.timeouts}× timeout (${LOAD_TIMEOUT_S} s)` : '',
    ].filter(Boolean),
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
  };
}

/**
 * The crowd for `duration` seconds: readers and full-blast connections on the pages while every fan sends on
 * schedule. Answers the three kinds of traffic, each summarized.
 */
async function crowd({ app, fixtures, fans, browsers, blast, duration, pages, interval, round }) {
  const sends = [];
  const visits = [];
  const began = performance.now();
  const deadline = began + duration * 1000;
  const headers = { ...BROWSER_HEADERS, cookie: `stagedoor=${fixtures.fanToken}` };
  const agent = new http.Agent({ keepAlive: true });
  const [blasted] = await Promise.all([
    fullBlast({ app, headers, connections: blast, duration, pages }),
    ...Array.from({ length: browsers }, (_, i) => readLoop({ app, agent, headers, pages, deadline, first: i, visits })),
    ...fans.map((fan, index) =>
      // Spread the senders' first messages over one interval, so the sends arrive at a steady rate.
      sendLoop({ app, fan, index, interval, began, deadline, offset: (index * interval) / fans.length, sends, round }),
    ),
  ]);
  agent.destroy();
  const seconds = (performance.now() - began) / 1000;
  return { readers: summarize(visits, seconds), blast: summarizeBlast(blasted), sends: summarize(sends, seconds), seconds };
}

const errorsOf = (c) => c.readers.errors + c.blast.errors + c.sends.errors;

/**
 * The run. Memory is sampled after the setup, after a warm-up of the same crowd for `warmup` seconds (so pools,
 * caches, code loaded on first use and the allocator's high-water mark do not count as growth), and after the run,
 * each once the server has finished the requests in flight and after a GC forced through the inspector.
 */
export async function measureLoad({
  app,
  fixtures,
  browsers = LOAD_BROWSERS,
  blast = LOAD_FULL_BLAST,
  senders = LOAD_SENDERS,
  duration = 60,
  warmup = LOAD_WARMUP_S,
  interval = LOAD_SEND_INTERVAL_MS,
}) {
  console.log(`  load: registering ${senders} fans (each subscribed free to ${OTHER_ARTIST}, conversation opened) …`);
  const fans = await prepareLoadFans(app, fixtures, senders);
  const pages = loadPages();
  for (const path of pages) {
    const res = await fetch(`${app.webUrl}${path}`, { headers: { cookie: `stagedoor=${fixtures.fanToken}` }, redirect: 'manual' });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET ${path} as the seed fan answered ${res.status} before the load run`);
  }
  const idle = await memorySample(app);
  const options = { app, fixtures, fans, browsers, blast, pages, interval };
  // The same crowd first, unmeasured: a process's resident memory climbs for its first minute or so under a crowd
  // (optimised code, the allocator's high-water mark) and then stays; growth after that is what a leak would show.
  console.log(`  load: warm-up, the same crowd for ${warmup} s …`);
  const warm = await crowd({ ...options, duration: warmup, round: 'warm' });
  await drained(app, fixtures.fanToken);
  const before = await memorySample(app);
  console.log(
    `  load: ${browsers} fans reading, ${blast} connections at full blast and ${senders} senders for ${duration} s (RSS before ${before.rss.toFixed(0)} MB) …`,
  );

  const run = await crowd({ ...options, duration, round: 'run' });
  await drained(app, fixtures.fanToken);
  const after = await memorySample(app);

  const result = {
    label: app.label,
    browsers,
    blast,
    senders,
    duration,
    seconds: run.seconds,
    interval,
    readers: run.readers,
    fullBlast: run.blast,
    sends: run.sends,
    warmup,
    warmErrors: errorsOf(warm),
    memory: { idle, before, after },
  };
  const line = (name, t) =>
    `${name} ${t.requests} (${t.rps.toFixed(1)} answered a second), ${t.errors} errors, p50 ${t.p50?.toFixed(0)} ms, p99 ${t.p99?.toFixed(0)} ms`;
  console.log(
    `  load: ${line('reads', run.readers)}; ${line('full blast', run.blast)}; ${line('sends', run.sends)}; ` +
      `RSS ${before.rss.toFixed(0)} → ${after.rss.toFixed(0)} MB`,
  );
  const kinds = [...run.readers.kinds, ...run.blast.kinds, ...run.sends.kinds];
  if (kinds.length) console.log(`  load: errors: ${kinds.join(', ')}`);
  return { ...result, ...loadReport(result) };
}

const fmt = (v, digits = 0) => (v == null ? '' : Number(v).toFixed(digits));
const signed = (v) => `${v >= 0 ? '+' : ''}${v.toFixed(1)}`;

const trafficRow = (what, t, notes) => [
  what,
  t.requests,
  fmt(t.rps, 1),
  t.errors,
  fmt(t.p50),
  fmt(t.p99),
  fmt(t.max),
  [...notes, ...t.kinds].join('; '),
];

/** The table and the budget checks of one load run. */
export function loadReport(r) {
  const growth = r.memory.after.rss - r.memory.before.rss;
  const traffic = [r.readers, r.fullBlast, r.sends];
  const errors = traffic.reduce((n, t) => n + t.errors, 0);
  const heapGrowth = r.memory.after.heap != null && r.memory.before.heap != null ? r.memory.after.heap - r.memory.before.heap : null;
  const table = {
    title: `Load: ${r.browsers} fans reading, ${r.blast} connections at full blast and ${r.senders} fans sending for ${r.duration} s (${r.label}; loopback)`,
    header: ['traffic', 'requests', 'answered /s', 'errors', 'p50 ms', 'p99 ms', 'max ms', 'notes'],
    rows: [
      trafficRow('pages read: artist home, vault, posts (signed in, SSR)', r.readers, [
        `${r.browsers} fans, each reading a page ${LOAD_READ_MS[0] / 1000}–${LOAD_READ_MS[1] / 1000} s`,
      ]),
      trafficRow('pages at full blast: the same three', r.fullBlast, [`${r.blast} connections, no pause`]),
      trafficRow('message sends: POST /messages/conversations/{id}', r.sends, [`${r.senders} fans, one every ${r.interval / 1000} s each`]),
      [
        'server memory after a forced GC (MB)',
        '',
        '',
        '',
        '',
        '',
        '',
        `RSS idle ${fmt(r.memory.idle.rss)}, after warm-up ${fmt(r.memory.before.rss)}, after the run ${fmt(r.memory.after.rss)} (${signed(growth)}); ` +
          `heap ${fmt(r.memory.before.heap)} → ${fmt(r.memory.after.heap)}${heapGrowth == null ? '' : ` (${signed(heapGrowth)})`}`,
      ],
    ],
  };
  const checks = [
    {
      part: 'load',
      what: `errors while ${r.browsers} fans read, ${r.blast} connections ask at full blast and ${r.senders} fans send (${r.label})`,
      value: `${errors} of ${traffic.reduce((n, t) => n + t.requests, 0)}`,
      budget: '0',
      status: errors === 0 ? 'ok' : 'miss',
      note: traffic.flatMap((t) => t.kinds).join(', ') || undefined,
    },
    {
      // The leak check: what the app's JavaScript holds once the crowd has gone and a GC has run.
      part: 'load',
      what: `heap in use after a forced GC, after the load run (${r.label})`,
      value:
        heapGrowth == null ? '—' : `${signed(heapGrowth)} MB (${r.memory.before.heap.toFixed(0)} → ${r.memory.after.heap.toFixed(0)} MB)`,
      budget: `no growth (≤ +${HEAP_GROWTH_BUDGET_MB} MB)`,
      status: heapGrowth != null && heapGrowth <= HEAP_GROWTH_BUDGET_MB ? 'ok' : 'miss',
    },
    {
      part: 'load',
      what: `server RSS after a forced GC, after the load run (${r.label})`,
      value: `${signed(growth)} MB (${r.memory.before.rss.toFixed(0)} → ${r.memory.after.rss.toFixed(0)} MB)`,
      budget: `no growth outside the heap (≤ +${LOAD_RSS_GROWTH_BUDGET_MB} MB; the allocator keeps some)`,
      status: growth <= LOAD_RSS_GROWTH_BUDGET_MB ? 'ok' : 'miss',
    },
  ];
  return { table, checks };
}
