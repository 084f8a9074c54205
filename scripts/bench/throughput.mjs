// Part 2: server throughput and latency with autocannon over loopback, and part 5: memory around it.
import autocannon from 'autocannon';
import { ARTIST } from './app.mjs';
import { settledRssMb } from './lib.mjs';

const BROWSER_HEADERS = { accept: 'text/html,application/xhtml+xml', 'accept-encoding': 'gzip, deflate, br' };

function run({ url, connections, duration, headers }) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, headers, timeout: 10 }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** The targets of one app: signed-in SSR of the content pages that exist, and the API's busiest reads. */
export async function throughputTargets(app, fixtures, routes) {
  const ssr = [];
  for (const route of routes.filter((r) => r.ssr)) {
    const res = await fetch(`${app.webUrl}${route.path}`, { headers: { cookie: `stagedoor=${fixtures.fanToken}` }, redirect: 'manual' });
    await res.arrayBuffer();
    ssr.push({ kind: 'ssr', name: `SSR ${route.name}`, path: route.path, built: res.status !== 404, status: res.status });
  }
  const auth = { authorization: `Bearer ${fixtures.fanToken}`, 'accept-encoding': 'gzip, deflate, br' };
  const apiReads = [
    { name: `GET /performers/${ARTIST}`, path: `/performers/${ARTIST}` },
    { name: 'GET content list (vault)', path: `/performers/${ARTIST}/content?section=vault&sort=desc` },
    {
      name: 'GET content list (posts)',
      path: `/performers/${ARTIST}/content?types=post,photo,poll,tourDiary,ticketPresale,announcement&sort=desc`,
    },
    { name: 'GET /messages/conversations/{id}', path: `/messages/conversations/${fixtures.conversationId}?offset=0&limit=20&sort=desc` },
  ].map((t) => ({ ...t, kind: 'api', built: true, headers: auth }));
  return {
    ssr: ssr.map((t) => ({
      ...t,
      url: `${app.webUrl}${t.path}`,
      headers: { ...BROWSER_HEADERS, cookie: `stagedoor=${fixtures.fanToken}` },
    })),
    api: apiReads.map((t) => ({ ...t, url: `${app.apiUrl}${t.path}` })),
  };
}

export function floorTargets(floor) {
  return [
    { kind: 'floor-remix', name: 'floor: minimal Remix page', url: `${floor.remixUrl}/`, headers: BROWSER_HEADERS, built: true },
    {
      kind: 'floor-http',
      name: 'floor: bare http JSON',
      url: `${floor.httpUrl}/`,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
      built: true,
    },
  ];
}

/** Runs every target at every connection count. */
export async function measureTargets(targets, { connections, duration, label, warmup = false }) {
  const results = [];
  for (const target of targets) {
    if (!target.built) {
      results.push({ target, label, notBuilt: true });
      continue;
    }
    // The app's targets were warmed by the bench's warm-up pass; the floors get a discarded second here.
    if (warmup) await run({ url: target.url, connections: connections[0], duration: 1, headers: target.headers });
    for (const c of connections) {
      const r = await run({ url: target.url, connections: c, duration, headers: target.headers });
      const errors = r.errors + r.timeouts + r.non2xx;
      results.push({
        target,
        label,
        connections: c,
        rps: r.requests.average,
        p50: r.latency.p50,
        p99: r.latency.p99,
        errors,
        total: r.requests.total,
      });
      console.log(
        `  ${label.padEnd(10)} ${target.name.padEnd(36)} ${String(c).padStart(3)} conn: ${r.requests.average.toFixed(0).padStart(6)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms${errors ? `, ${errors} errors/non-2xx` : ''}`,
      );
    }
  }
  return results;
}

// Issue 16: with no framework patch, a signed-in page keeps at least 35 % of the minimal Remix page's rate, and its
// slowest 1 % at 50 connections stays under 200 ms.
export const SSR_P99_BUDGET_MS = 200;
export const SSR_FLOOR_SHARE = 0.35;
export const API_FLOOR_SHARE = 0.25;

/** The table and budget checks: each figure beside its floor (same connection count) and the ratio. */
export function throughputReport(floorResults, dbResults, { hasPg }) {
  const floorOf = (kind, c, label) => floorResults.find((r) => r.target.kind === kind && r.connections === c && r.forLabel === label);
  const rows = [];
  const checks = [];
  for (const r of floorResults) {
    rows.push([r.target.name, `(next to ${r.forLabel})`, r.connections, r.rps.toFixed(0), r.p50, r.p99, '', '', r.errors || '']);
  }
  for (const r of dbResults) {
    if (r.notBuilt) {
      rows.push([r.target.name, r.label, '', '', '', '', '', '', 'not built yet']);
      if (r.label === 'PostgreSQL' || !hasPg) {
        checks.push({
          part: 'throughput',
          what: `${r.target.name} (${r.label})`,
          value: '—',
          budget: '',
          status: 'n/a',
          note: 'not built yet (404)',
        });
      }
      continue;
    }
    const floor = floorOf(r.target.kind === 'ssr' ? 'floor-remix' : 'floor-http', r.connections, r.label);
    const share = floor ? r.rps / floor.rps : null;
    rows.push([
      r.target.name,
      r.label,
      r.connections,
      r.rps.toFixed(0),
      r.p50,
      r.p99,
      floor ? `${floor.rps.toFixed(0)} (${floor.target.kind === 'floor-remix' ? 'Remix' : 'http'})` : '',
      share == null ? '' : `${(share * 100).toFixed(0)} %`,
      r.errors ? `${r.errors} errors/non-2xx of ${r.total}` : '',
    ]);
    const onPg = r.label === 'PostgreSQL';
    const applies = onPg;
    const note = applies ? undefined : hasPg ? 'budget is for PostgreSQL' : 'PostgreSQL not available: PGlite shown';
    if (r.target.kind === 'ssr') {
      if (r.connections === 50) {
        checks.push({
          part: 'throughput',
          what: `${r.target.name}: p99 at 50 connections (${r.label})`,
          value: `${r.p99} ms`,
          budget: `≤ ${SSR_P99_BUDGET_MS} ms`,
          status: applies ? (r.p99 <= SSR_P99_BUDGET_MS && !r.errors ? 'ok' : 'miss') : 'n/a',
          note: note ?? (r.errors ? `${r.errors} errors` : undefined),
        });
      }
      checks.push({
        part: 'throughput',
        what: `${r.target.name}: req/s vs minimal Remix at ${r.connections} conn. (${r.label})`,
        value: share == null ? '—' : `${(share * 100).toFixed(0)} % (${r.rps.toFixed(0)} / ${floor.rps.toFixed(0)})`,
        budget: `≥ ${SSR_FLOOR_SHARE * 100} %`,
        status: applies && share != null ? (share >= SSR_FLOOR_SHARE ? 'ok' : 'miss') : 'n/a',
        note,
      });
    } else {
      checks.push({
        part: 'throughput',
        what: `${r.target.name}: req/s vs bare http at ${r.connections} conn. (${r.label})`,
        value: share == null ? '—' : `${(share * 100).toFixed(0)} % (${r.rps.toFixed(0)} / ${floor.rps.toFixed(0)})`,
        budget: `≥ ${API_FLOOR_SHARE * 100} %`,
        status: applies && share != null ? (share >= API_FLOOR_SHARE && !r.errors ? 'ok' : 'miss') : 'n/a',
        note,
      });
    }
  }
  return {
    table: {
      title: 'Server throughput and latency (autocannon over loopback; signed-in requests)',
      header: ['target', 'database', 'connections', 'req/s', 'p50 ms', 'p99 ms', 'floor req/s', 'share of floor', 'notes'],
      rows,
    },
    checks,
  };
}

/** Resident memory (from /proc, from outside) and V8 heap in use, after a forced GC through the inspector. */
export async function memorySample(app) {
  const { heapUsedMb } = await app.gc();
  return { rss: await settledRssMb(app.pid, 3000), heap: heapUsedMb };
}

export const HEAP_GROWTH_BUDGET_MB = 10;
export const IDLE_RSS_BUDGET_MB = { pglite: 300, postgres: 200 };

export function memoryReport(memory) {
  const f = (v) => (v == null ? '' : v.toFixed(0));
  const rows = memory
    .filter((m) => m.idle)
    .map((m) => [
      m.label,
      `${(m.startMs / 1000).toFixed(1)} s`,
      f(m.idle.rss),
      f(m.idle.heap),
      f(m.warm?.rss),
      f(m.warm?.heap),
      f(m.after?.rss),
      f(m.after?.heap),
      m.after && m.warm ? `${m.after.heap - m.warm.heap >= 0 ? '+' : ''}${(m.after.heap - m.warm.heap).toFixed(1)}` : '',
    ]);
  const checks = memory
    .filter((m) => m.after && m.warm)
    .map((m) => {
      const growth = m.after.heap - m.warm.heap;
      return {
        part: 'memory',
        what: `heap in use after the throughput runs, after a forced GC (${m.label})`,
        value: `${growth >= 0 ? '+' : ''}${growth.toFixed(1)} MB (${m.warm.heap.toFixed(0)} → ${m.after.heap.toFixed(0)} MB; RSS ${m.warm.rss.toFixed(0)} → ${m.after.rss.toFixed(0)} MB)`,
        budget: `no growth (≤ +${HEAP_GROWTH_BUDGET_MB} MB)`,
        status: growth <= HEAP_GROWTH_BUDGET_MB ? 'ok' : 'miss',
      };
    });
  // Issue 23: a one-process server idles in at most this much resident memory on a fresh database, seeded.
  for (const m of memory.filter((m) => m.idle)) {
    const budget = /postgres/i.test(m.label) ? IDLE_RSS_BUDGET_MB.postgres : IDLE_RSS_BUDGET_MB.pglite;
    checks.push({
      part: 'memory',
      what: `idle RSS of the one-process server after its first start (${m.label})`,
      value: `${m.idle.rss.toFixed(0)} MB`,
      budget: `≤ ${budget} MB`,
      status: m.idle.rss <= budget ? 'ok' : 'miss',
    });
  }
  return {
    table: {
      title: 'Memory of the one-process server (MB; RSS from /proc/<pid>/status after a GC forced through the inspector)',
      header: [
        'database',
        'start-up',
        'idle RSS',
        'idle heap',
        'warm RSS',
        'warm heap',
        'after runs RSS',
        'after runs heap',
        'heap growth',
      ],
      rows,
    },
    checks,
  };
}
