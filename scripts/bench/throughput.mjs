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

/**
 * The targets of one app: each page row with `throughput` (routes.mjs) as its user, at each club size given
 * (the large club only for the club's own pages), and the API's busiest reads. `clubs` is [{ club, rows }].
 * A page is tried once first: a 404 is "not built yet", any other answer but 200 is reported and not measured.
 */
export async function throughputTargets(app, fixtures, clubs) {
  const ssr = [];
  // Each page at every club size one after the other, so the two sizes are measured under the same load.
  const [first] = clubs;
  for (const row of first.rows.filter((r) => r.throughput)) {
    for (const { club, rows } of clubs) {
      const route = rows.find((r) => r.id === row.id);
      if (!route || (club.size !== 'small' && !route.club)) continue;
      const token = route.auth === 'artist' ? club.artistToken : route.auth ? fixtures.fanToken : null;
      const headers = { ...BROWSER_HEADERS, ...(token ? { cookie: `stagedoor=${token}` } : {}) };
      const url = `${app.webUrl}${route.path}`;
      const res = await fetch(url, { headers, redirect: 'manual' });
      await res.arrayBuffer();
      const state = res.status === 200 ? 'measured' : res.status === 404 ? 'not built yet' : `answered ${res.status}`;
      ssr.push({
        kind: 'ssr',
        name: `SSR ${route.name}`,
        id: route.id,
        club: club.size,
        signedIn: Boolean(route.auth),
        path: route.path,
        url,
        headers,
        built: state === 'measured',
        state,
      });
    }
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
  return { ssr, api: apiReads.map((t) => ({ ...t, url: `${app.apiUrl}${t.path}` })) };
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
      results.push({ target, label, notBuilt: target.state === 'not built yet' || !target.state, state: target.state });
      continue;
    }
    // The app's targets were warmed by the bench's warm-up pass; the floors get a discarded second here.
    if (warmup) await run({ url: target.url, connections: connections[0], duration: 1, headers: target.headers });
    // The large club's pages at the highest connection count only: that is where the two sizes are compared.
    for (const c of target.club === 'large' ? [Math.max(...connections)] : connections) {
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
        `  ${label.padEnd(10)} ${target.club ? `${target.club.padEnd(6)}` : '      '}${target.name.padEnd(44)} ${String(c).padStart(3)} conn: ${r.requests.average.toFixed(0).padStart(6)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms${errors ? `, ${errors} errors/non-2xx` : ''}`,
      );
    }
  }
  return results;
}

// Issue 16: with no framework patch, a signed-in page keeps at least 35 % of the minimal Remix page's rate, and its
// slowest 1 % at 50 connections stays under 200 ms. Issue 23: every signed-in page, at both club sizes, and a page
// of the large club costs at most 1.25× the same page of the small one (mean time per page: 1 / pages a second, at
// the highest connection count).
export const SSR_P99_BUDGET_MS = 200;
export const SSR_FLOOR_SHARE = 0.35;
export const API_FLOOR_SHARE = 0.25;
export const LARGE_CLUB_COST_RATIO = 1.25;

const clubLabel = (target) => (target.club ? `${target.club} club` : '');

/** The table and budget checks: each figure beside its floor (same connection count) and the ratio. */
export function throughputReport(floorResults, dbResults, { hasPg }) {
  const floorOf = (kind, c, label) => floorResults.find((r) => r.target.kind === kind && r.connections === c && r.forLabel === label);
  const rows = [];
  const checks = [];
  for (const r of floorResults) {
    rows.push([r.target.name, `(next to ${r.forLabel})`, '', r.connections, r.rps.toFixed(0), r.p50, r.p99, '', '', r.errors || '']);
  }
  const judged = (r) => r.target.kind !== 'ssr' || r.target.signedIn !== false;
  for (const r of dbResults) {
    const onPg = r.label === 'PostgreSQL';
    if (r.notBuilt || r.state) {
      const why = r.notBuilt ? 'not built yet' : r.state;
      rows.push([r.target.name, r.label, clubLabel(r.target), '', '', '', '', '', '', why]);
      if (judged(r) && (onPg || !hasPg)) {
        checks.push({
          part: 'throughput',
          what: `${r.target.name}${r.target.club ? ` (${r.target.club} club)` : ''} (${r.label})`,
          value: '—',
          budget: '',
          // A page that is built but answered something else than 200 was not measured: that is a miss.
          status: r.notBuilt ? 'n/a' : 'miss',
          note: r.notBuilt ? 'not built yet (404)' : `${why}: not measured`,
        });
      }
      continue;
    }
    const floor = floorOf(r.target.kind === 'ssr' ? 'floor-remix' : 'floor-http', r.connections, r.label);
    const share = floor ? r.rps / floor.rps : null;
    rows.push([
      r.target.name,
      r.label,
      clubLabel(r.target),
      r.connections,
      r.rps.toFixed(0),
      r.p50,
      r.p99,
      floor ? `${floor.rps.toFixed(0)} (${floor.target.kind === 'floor-remix' ? 'Remix' : 'http'})` : '',
      share == null ? '' : `${(share * 100).toFixed(0)} %`,
      [r.errors ? `${r.errors} errors/non-2xx of ${r.total}` : '', judged(r) ? '' : 'signed out: no budget'].filter(Boolean).join('; '),
    ]);
    if (!judged(r)) continue;
    const applies = onPg;
    const note = applies ? undefined : hasPg ? 'budget is for PostgreSQL' : 'PostgreSQL not available: PGlite shown';
    const where = `${r.target.club ? `, ${r.target.club} club` : ''} (${r.label})`;
    if (r.target.kind === 'ssr') {
      if (r.connections === 50) {
        checks.push({
          part: 'throughput',
          what: `${r.target.name}: p99 at 50 connections${where}`,
          value: `${r.p99} ms`,
          budget: `≤ ${SSR_P99_BUDGET_MS} ms`,
          status: applies ? (r.p99 <= SSR_P99_BUDGET_MS && !r.errors ? 'ok' : 'miss') : 'n/a',
          note: note ?? (r.errors ? `${r.errors} errors` : undefined),
        });
      }
      checks.push({
        part: 'throughput',
        what: `${r.target.name}: req/s vs minimal Remix at ${r.connections} conn.${where}`,
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
  const sizes = clubReport(dbResults, { hasPg });
  checks.push(...sizes.checks);
  return {
    table: {
      title: 'Server throughput and latency (autocannon over loopback; each page as its user)',
      header: ['target', 'database', 'club', 'connections', 'req/s', 'p50 ms', 'p99 ms', 'floor req/s', 'share of floor', 'notes'],
      rows,
    },
    sizes: sizes.table,
    checks,
  };
}

/**
 * Each club page at both sizes, at the highest connection count measured for the large club: the large club's
 * mean time per page (1 / req/s) against the small club's, and the p99s beside them (printed, not judged: one slow
 * moment of a shared machine moves a p99 more than a mean).
 */
export function clubReport(dbResults, { hasPg }) {
  const rows = [];
  const checks = [];
  const measured = dbResults.filter((r) => r.target.kind === 'ssr' && !r.notBuilt && !r.state);
  for (const large of measured.filter((r) => r.target.club === 'large')) {
    const small = measured.find(
      (r) => r.target.club === 'small' && r.target.id === large.target.id && r.label === large.label && r.connections === large.connections,
    );
    if (!small) continue;
    const ratio = small.rps / large.rps;
    rows.push([
      large.target.name,
      large.label,
      large.connections,
      small.rps.toFixed(0),
      large.rps.toFixed(0),
      `${ratio.toFixed(2)}×`,
      small.p99,
      large.p99,
    ]);
    // The budgets are the signed-in pages'; the signed-out ones are printed.
    if (large.target.signedIn === false) continue;
    const applies = large.label === 'PostgreSQL';
    checks.push({
      part: 'throughput',
      what: `${large.target.name}: large club's time per page vs the small club's at ${large.connections} conn. (${large.label})`,
      value: `${ratio.toFixed(2)}× (${small.rps.toFixed(0)} → ${large.rps.toFixed(0)} req/s; p99 ${small.p99} → ${large.p99} ms)`,
      budget: `≤ ${LARGE_CLUB_COST_RATIO}×`,
      status: applies ? (ratio <= LARGE_CLUB_COST_RATIO ? 'ok' : 'miss') : 'n/a',
      note: applies ? undefined : hasPg ? 'budget is for PostgreSQL' : 'PostgreSQL not available: PGlite shown',
    });
  }
  return {
    table: {
      title: 'Each page at both club sizes (req/s at the same connection count; time per page = 1 / req/s)',
      header: ['page', 'database', 'connections', 'small req/s', 'large req/s', 'large / small time', 'small p99 ms', 'large p99 ms'],
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
