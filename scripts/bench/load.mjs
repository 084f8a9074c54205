// Part 6: load (issue 6). A crowd on a presale morning: N simulated fans browse the artist home, vault and posts
// (signed-in SSR through the api) while M other fans each send a message every few seconds, for a minute. Every
// answer must be 2xx or 3xx (the budget is zero errors), and the server's memory after a forced GC must not grow.
//
// Setup, through the api as real fans would: M fans register (each from its own X-Forwarded-For address, which the
// api trusts from loopback: the sign-up limit is 30 an hour per address), subscribe free to the seeded free artist
// (Juniper Lane) and open their conversation with her. The browsing is autocannon with N connections cycling
// through the three pages as the seed fan (cookie `stagedoor=<token>`); the senders are M loops in the same
// process, each under the api's 30-messages-a-minute limit.
import autocannon from 'autocannon';
import { api, ARTIST, OTHER_ARTIST } from './app.mjs';
import { percentile, sleep } from './lib.mjs';
import { HEAP_GROWTH_BUDGET_MB, memorySample } from './throughput.mjs';

export const LOAD_BROWSERS = 200;
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

function browse({ app, token, connections, duration, pages }) {
  const headers = { ...BROWSER_HEADERS, cookie: `stagedoor=${token}` };
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: app.webUrl,
        connections,
        duration,
        timeout: 10,
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
      signal: AbortSignal.timeout(10_000),
    });
    status = res.status;
    if (status >= 400) error = `${status} ${(await res.json().catch(() => ({}))).message ?? ''}`.trim();
    else await res.arrayBuffer();
  } catch (e) {
    error = e.name === 'TimeoutError' ? 'timeout (10 s)' : (e.cause?.code ?? e.message);
  }
  return { ms: performance.now() - started, status, error };
}

// autocannon's `errors` are the socket errors, timeouts included; an answer outside 2xx and 3xx is an error too.
/**
 * Waits until the server has finished the work the crowd left behind: when autocannon stops, up to 200 requests
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

const pageErrors = (r) => r.errors + (r['1xx'] ?? 0) + (r['4xx'] ?? 0) + (r['5xx'] ?? 0);

/**
 * The crowd for `duration` seconds: browsers cycling through the pages while every fan sends on schedule. Answers
 * autocannon's result for the pages and one record per send.
 */
async function crowd({ app, fixtures, fans, browsers, duration, pages, interval, round }) {
  const sends = [];
  const began = performance.now();
  const deadline = began + duration * 1000;
  const [browsing] = await Promise.all([
    browse({ app, token: fixtures.fanToken, connections: browsers, duration, pages }),
    ...fans.map((fan, index) =>
      // Spread the senders' first messages over one interval, so the sends arrive at a steady rate.
      sendLoop({ app, fan, index, interval, began, deadline, offset: (index * interval) / fans.length, sends, round }),
    ),
  ]);
  return { browsing, sends, seconds: (performance.now() - began) / 1000 };
}

/**
 * The run. Memory is sampled after the setup, after a warm-up of the same crowd for `warmup` seconds (so pools,
 * caches, code loaded on first use and the allocator's high-water mark do not count as growth), and after the run,
 * each once the server has finished the requests in flight and after a GC forced through the inspector.
 */
export async function measureLoad({
  app,
  fixtures,
  browsers = LOAD_BROWSERS,
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
  // The same crowd first, unmeasured: a process's resident memory climbs for its first minute or so under a crowd
  // (optimised code, the allocator's high-water mark) and then stays; growth after that is what a leak would show.
  console.log(`  load: warm-up, the same crowd for ${warmup} s …`);
  const warm = await crowd({ app, fixtures, fans, browsers, duration: warmup, pages, interval, round: 'warm' });
  await drained(app, fixtures.fanToken);
  const before = await memorySample(app);
  console.log(
    `  load: ${browsers} browsing connections and ${senders} senders for ${duration} s (RSS before ${before.rss.toFixed(0)} MB) …`,
  );

  const { browsing, sends, seconds } = await crowd({ app, fixtures, fans, browsers, duration, pages, interval, round: 'run' });
  await drained(app, fixtures.fanToken);
  const after = await memorySample(app);

  const sendLatencies = sends.map((s) => s.ms);
  const sendFailures = sends.filter((s) => s.error);
  const failureKinds = new Map();
  for (const s of sendFailures) failureKinds.set(s.error, (failureKinds.get(s.error) ?? 0) + 1);
  const statusKinds = Object.entries(browsing.statusCodeStats ?? {})
    .filter(([code]) => /^\d+$/.test(code) && !/^[23]/.test(code))
    .map(([code, v]) => `${v.count}× ${code}`);
  const result = {
    label: app.label,
    browsers,
    senders,
    duration,
    seconds,
    interval,
    pages: {
      // autocannon's total counts the answers; a request that timed out or lost its socket is an attempt too.
      requests: browsing.requests.total + browsing.errors,
      rps: browsing.requests.average,
      errors: pageErrors(browsing),
      kinds: [
        ...statusKinds,
        browsing.errors > browsing.timeouts ? `${browsing.errors - browsing.timeouts} socket errors` : '',
        browsing.timeouts ? `${browsing.timeouts} timeouts (10 s)` : '',
      ].filter(Boolean),
      p50: browsing.latency.p50,
      p99: browsing.latency.p99,
      max: browsing.latency.max,
    },
    sends: {
      requests: sends.length,
      errors: sendFailures.length,
      kinds: [...failureKinds].map(([k, n]) => `${n}× ${k}`),
      p50: percentile(sendLatencies, 50),
      p99: percentile(sendLatencies, 99),
      max: sendLatencies.length ? Math.max(...sendLatencies) : null,
    },
    warmup,
    warmErrors: pageErrors(warm.browsing) + warm.sends.filter((send) => send.error).length,
    memory: { idle, before, after },
  };
  console.log(
    `  load: pages ${result.pages.requests} requests (${result.pages.rps.toFixed(0)} answered a second), ${result.pages.errors} errors, p50 ${result.pages.p50} ms, p99 ${result.pages.p99} ms; ` +
      `sends ${result.sends.requests}, ${result.sends.errors} errors, p50 ${result.sends.p50?.toFixed(0)} ms, p99 ${result.sends.p99?.toFixed(0)} ms; ` +
      `RSS ${before.rss.toFixed(0)} → ${after.rss.toFixed(0)} MB`,
  );
  if (result.pages.kinds.length || result.sends.kinds.length)
    console.log(`  load: errors: ${[...result.pages.kinds, ...result.sends.kinds].join(', ')}`);
  return { ...result, ...loadReport(result) };
}

const fmt = (v, digits = 0) => (v == null ? '' : Number(v).toFixed(digits));
const signed = (v) => `${v >= 0 ? '+' : ''}${v.toFixed(1)}`;

/** The table and the budget checks of one load run. */
export function loadReport(r) {
  const growth = r.memory.after.rss - r.memory.before.rss;
  const heapGrowth = r.memory.after.heap != null && r.memory.before.heap != null ? r.memory.after.heap - r.memory.before.heap : null;
  const table = {
    title: `Load: ${r.browsers} fans browsing and ${r.senders} sending for ${r.duration} s (${r.label}; loopback)`,
    header: ['traffic', 'requests', 'answered /s', 'errors', 'p50 ms', 'p99 ms', 'max ms', 'notes'],
    rows: [
      [
        'pages: artist home, vault, posts (signed in, SSR)',
        r.pages.requests,
        fmt(r.pages.rps),
        r.pages.errors,
        fmt(r.pages.p50),
        fmt(r.pages.p99),
        fmt(r.pages.max),
        [`${r.browsers} connections`, ...r.pages.kinds].join('; '),
      ],
      [
        'message sends: POST /messages/conversations/{id}',
        r.sends.requests,
        fmt((r.sends.requests - r.sends.errors) / r.seconds, 1),
        r.sends.errors,
        fmt(r.sends.p50),
        fmt(r.sends.p99),
        fmt(r.sends.max),
        [`${r.senders} fans, one every ${r.interval / 1000} s each`, ...r.sends.kinds].join('; '),
      ],
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
      what: `errors while ${r.browsers} fans browse and ${r.senders} send (${r.label})`,
      value: `${r.pages.errors + r.sends.errors} of ${r.pages.requests + r.sends.requests}`,
      budget: '0',
      status: r.pages.errors + r.sends.errors === 0 ? 'ok' : 'miss',
      note: [...r.pages.kinds, ...r.sends.kinds].join(', ') || undefined,
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
