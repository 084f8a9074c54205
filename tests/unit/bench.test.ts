import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chunksHolding, jsByPackage } from '../../scripts/bench/browser.mjs';
import { fanAddress, LOAD_RSS_GROWTH_BUDGET_MB, loadPages, loadReport, summarize } from '../../scripts/bench/load.mjs';
import { median, NODE_FLAGS, parseArgs, PARTS, percentile, ROOT } from '../../scripts/bench/lib.mjs';
import { budgetTable, countChecks, markdownTable } from '../../scripts/bench/report.mjs';
import { clubReport, LARGE_CLUB_COST_RATIO, memoryReport, throughputReport } from '../../scripts/bench/throughput.mjs';

// The bench's own logic: which budget applies, and whether it holds. The measurements themselves need the
// running app and Chromium (npm run bench).

const floorRun = (kind: string, connections: number, rps: number, forLabel: string) => ({
  target: { kind, name: kind },
  connections,
  rps,
  p50: 1,
  p99: 2,
  errors: 0,
  forLabel,
});
const run = (kind: string, name: string, label: string, connections: number, rps: number, p99: number, errors = 0) => ({
  target: { kind, name },
  label,
  connections,
  rps,
  p50: p99 / 2,
  p99,
  errors,
  total: 1000,
});

describe('bench statistics', () => {
  it('takes nearest-rank percentiles and medians', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile([], 99)).toBeNull();
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([null, 5, undefined])).toBe(5);
    expect(median([])).toBeNull();
  });
});

describe("node's flags", () => {
  // The bench measures the server as it is started in production: the same flags in every place that starts it.
  it('are those of npm start, npm run serve and the image', () => {
    const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    const run = `node ${NODE_FLAGS.join(' ')} build/server/index.js`;
    expect(scripts.start).toContain(run);
    expect(scripts.serve).toContain(run);
    const image = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    expect(image).toContain(`CMD ${JSON.stringify(['node', ...NODE_FLAGS, 'build/server/index.js'])}`.replaceAll(',', ', '));
  });
});

describe('bench options', () => {
  it('reads the flags CI and developers use', () => {
    expect(parseArgs(['--weight-only']).only).toEqual(['weight']);
    const args = parseArgs(['--duration=2', '--connections=10,50', '--clients=50', '--slow3g=none', '--no-pg']);
    expect(args.duration).toBe(2);
    expect(args.connections).toEqual([10, 50]);
    expect(args.clients).toBe(50);
    expect(args.slow3g).toEqual([]);
    expect(args.pg).toBe('');
    expect(parseArgs([]).duration).toBe(10);
    const ci = parseArgs(['--weight-only', '--no-docs', '--json', '/tmp/weight.json', '--web-port=3110', '--api-port=8190']);
    expect(ci).toMatchObject({ only: ['weight'], docs: false, json: '/tmp/weight.json', webPort: 3110, apiPort: 8190 });
    expect(parseArgs([]).json).toBeNull();
    expect(parseArgs(['--pages=home,vault', '--no-large'])).toMatchObject({ pages: ['home', 'vault'], large: false });
    expect(parseArgs([])).toMatchObject({ pages: null, large: true });
  });

  it('runs the load part by default and alone with --only load, for --load-duration seconds', () => {
    expect(PARTS).toEqual(['weight', 'paint', 'throughput', 'realtime', 'load', 'fanout', 'media']);
    expect(parseArgs(['--only=media']).only).toEqual(['media']);
    expect(parseArgs([]).only).toBeNull();
    expect(parseArgs([]).loadDuration).toBe(60);
    const args = parseArgs([
      '--only',
      'load',
      '--pg',
      'postgres://postgres@127.0.0.1:5432/test',
      '--load-duration=5',
      '--web-port',
      '3600',
      '--api-port=8680',
    ]);
    expect(args.only).toEqual(['load']);
    expect(args.pg).toBe('postgres://postgres@127.0.0.1:5432/test');
    expect(args.loadDuration).toBe(5);
    expect([args.webPort, args.apiPort]).toEqual([3600, 8680]);
  });
});

describe('throughput budgets', () => {
  const floors = ['PGlite', 'PostgreSQL'].flatMap((label) => [
    floorRun('floor-remix', 50, 300, label),
    floorRun('floor-http', 50, 8000, label),
  ]);

  it('applies the SSR and api budgets on PostgreSQL only, against the floor measured next to it', () => {
    const { checks } = throughputReport(
      floors,
      [
        run('ssr', 'SSR artist home', 'PGlite', 50, 10, 900),
        run('ssr', 'SSR artist home', 'PostgreSQL', 50, 150, 120),
        run('api', 'GET /performers/x', 'PostgreSQL', 50, 1000, 20),
      ],
      { hasPg: true },
    );
    const find = (what: string) => checks.find((c: { what: string }) => c.what.startsWith(what));
    expect(find('SSR artist home: p99 at 50 connections (PGlite)')?.status).toBe('n/a');
    expect(find('SSR artist home: p99 at 50 connections (PostgreSQL)')?.status).toBe('ok');
    // 150 of the Remix floor's 300: 50 % ≥ 35 %.
    expect(find('SSR artist home: req/s vs minimal Remix at 50 conn. (PostgreSQL)')?.status).toBe('ok');
    // 1000 of the bare floor's 8000: 12.5 % < 25 %.
    expect(find('GET /performers/x: req/s vs bare http at 50 conn. (PostgreSQL)')?.status).toBe('miss');
  });

  it('misses a p99 over 200 ms, and a run with errors', () => {
    const { checks } = throughputReport(
      floors,
      [run('ssr', 'SSR posts', 'PostgreSQL', 50, 200, 201), run('ssr', 'SSR vault', 'PostgreSQL', 50, 200, 100, 3)],
      { hasPg: true },
    );
    const p99 = checks.filter((c: { what: string }) => c.what.includes('p99'));
    expect(p99.map((c: { status: string }) => c.status)).toEqual(['miss', 'miss']);
  });

  it('reports a page that is not built yet without failing, and PGlite alone without failing', () => {
    const { checks, table } = throughputReport(
      floors,
      [{ target: { kind: 'ssr', name: 'SSR vault' }, label: 'PGlite', notBuilt: true }, run('ssr', 'SSR home', 'PGlite', 50, 1, 5000)],
      { hasPg: false },
    );
    expect(checks.every((c: { status: string }) => c.status === 'n/a')).toBe(true);
    expect(table.rows.some((row: string[]) => row.includes('not built yet'))).toBe(true);
  });
});

describe('the page at both club sizes', () => {
  const page = (club: string, rps: number, over: { label?: string; signedIn?: boolean; connections?: number } = {}) => ({
    target: { kind: 'ssr', name: 'SSR vault', id: 'vault', club, signedIn: over.signedIn ?? true },
    label: over.label ?? 'PostgreSQL',
    connections: over.connections ?? 50,
    rps,
    p50: 10,
    p99: 20,
    errors: 0,
    total: 100,
  });

  it("holds while the large club's time per page is within 1.25× the small one's, and misses past it", () => {
    expect(LARGE_CLUB_COST_RATIO).toBe(1.25);
    expect(clubReport([page('small', 200), page('large', 160)], { hasPg: true }).checks[0].status).toBe('ok');
    const miss = clubReport([page('small', 200), page('large', 159)], { hasPg: true });
    expect(miss.checks[0].status).toBe('miss');
    expect(miss.table.rows[0]).toEqual(['SSR vault', 'PostgreSQL', 50, '200', '159', '1.26×', 20, 20]);
  });

  it('compares at the same connection count and database, judges PostgreSQL only and prints signed-out pages', () => {
    expect(clubReport([page('small', 200, { connections: 10 }), page('large', 100)], { hasPg: true }).checks).toEqual([]);
    expect(
      clubReport([page('small', 200, { label: 'PGlite' }), page('large', 100, { label: 'PGlite' })], { hasPg: true }).checks[0].status,
    ).toBe('n/a');
    const signedOut = clubReport([page('small', 200, { signedIn: false }), page('large', 10, { signedIn: false })], { hasPg: true });
    expect(signedOut.checks).toEqual([]);
    expect(signedOut.table.rows).toHaveLength(1);
  });

  it('misses a built page that answered something other than 200, and skips one not built yet', () => {
    const target = { kind: 'ssr', name: 'SSR studio', club: 'small', signedIn: true };
    const { checks } = throughputReport(
      [],
      [
        { target, label: 'PostgreSQL', notBuilt: false, state: 'answered 302' },
        { target: { ...target, name: 'SSR new page' }, label: 'PostgreSQL', notBuilt: true, state: 'not built yet' },
      ],
      { hasPg: true },
    );
    expect(checks.map((c: { status: string }) => c.status)).toEqual(['miss', 'n/a']);
  });
});

describe('memory budget', () => {
  it('misses when the heap after a forced GC grew by more than 10 MB', () => {
    const sample = (heap: number) => ({ rss: 100, heap });
    const { checks } = memoryReport([
      { label: 'PGlite', startMs: 1000, idle: sample(40), warm: sample(45), after: sample(47) },
      { label: 'PostgreSQL', startMs: 1000, idle: sample(40), warm: sample(45), after: sample(60) },
    ]);
    const heap = checks.filter((c: { what: string }) => c.what.startsWith('heap in use'));
    expect(heap.map((c: { status: string }) => c.status)).toEqual(['ok', 'miss']);
  });
});

describe('load budgets', () => {
  const traffic = (requests: number, errors: number, kind: string, p50: number, p99: number, max: number) => ({
    requests,
    rps: (requests - errors) / 60,
    errors,
    kinds: errors ? [`${errors}× ${kind}`] : [],
    p50,
    p99,
    max,
  });
  const result = (
    over: { readErrors?: number; blastErrors?: number; sendErrors?: number; rssAfter?: number; heapAfter?: number } = {},
  ) => ({
    label: 'PostgreSQL',
    browsers: 200,
    blast: 10,
    senders: 50,
    duration: 60,
    seconds: 60,
    interval: 2500,
    readers: traffic(2000, over.readErrors ?? 0, 'timeout (10 s)', 150, 700, 900),
    fullBlast: traffic(3000, over.blastErrors ?? 0, '500', 300, 900, 1200),
    sends: traffic(1200, over.sendErrors ?? 0, '429', 20, 80, 120),
    memory: {
      idle: { rss: 200, heap: 60 },
      before: { rss: 240, heap: 70 },
      after: { rss: over.rssAfter ?? 245, heap: over.heapAfter ?? 71 },
    },
  });
  const statuses = (r: ReturnType<typeof result>) => loadReport(r).checks.map((c: { status: string }) => c.status);

  it('holds with no error, the heap within the growth budget and RSS within its guard', () => {
    expect(LOAD_RSS_GROWTH_BUDGET_MB).toBe(64);
    expect(statuses(result())).toEqual(['ok', 'ok', 'ok']);
    expect(statuses(result({ rssAfter: 304, heapAfter: 80 }))).toEqual(['ok', 'ok', 'ok']);
  });

  it('misses on a single failed page (read or at full blast) or message send, on heap growth over 10 MB and on RSS growth over 64 MB', () => {
    expect(statuses(result({ readErrors: 1 }))).toEqual(['miss', 'ok', 'ok']);
    expect(statuses(result({ blastErrors: 1 }))).toEqual(['miss', 'ok', 'ok']);
    expect(loadReport(result({ readErrors: 2 })).checks[0].note).toBe('2× timeout (10 s)');
    const send = loadReport(result({ sendErrors: 1 })).checks[0];
    expect(send.status).toBe('miss');
    expect(send.note).toContain('429');
    expect(statuses(result({ heapAfter: 80.5 }))).toEqual(['ok', 'miss', 'ok']);
    expect(statuses(result({ rssAfter: 304.5 }))).toEqual(['ok', 'ok', 'miss']);
  });

  it('tables pages read, pages at full blast and sends with their percentiles', () => {
    const { table, checks } = loadReport(result());
    expect(table.rows[0].slice(1, 6)).toEqual([2000, '33.3', 0, '150', '700']);
    expect(table.rows[1].slice(1, 6)).toEqual([3000, '50.0', 0, '300', '900']);
    expect(table.rows[2].slice(1, 6)).toEqual([1200, '20.0', 0, '20', '80']);
    expect(loadReport(result({ sendErrors: 60 })).table.rows[2][2]).toBe('19.0');
    expect(checks[0].value).toBe('0 of 6200');
  });

  it('summarizes one record per request: answered a second, errors by kind, percentiles', () => {
    const records = [
      { ms: 100, status: 200, error: null },
      { ms: 300, status: 200, error: null },
      { ms: 10000, status: 0, error: 'timeout (10 s)' },
      { ms: 200, status: 503, error: '503' },
    ];
    const t = summarize(records, 2);
    expect(t).toMatchObject({ requests: 4, rps: 1, errors: 2, kinds: ['1× timeout (10 s)', '1× 503'], max: 10000 });
  });

  it('browses the artist home, vault and posts, and gives each sending fan an address of its own', () => {
    expect(loadPages('thelatenights')).toEqual(['/thelatenights', '/thelatenights/vault', '/thelatenights/posts']);
    const addresses = new Set(Array.from({ length: 300 }, (_, i) => fanAddress(i)));
    expect(addresses.size).toBe(300);
    expect([...addresses].every((a) => /^198\.1[89]\.\d+\.\d+$/.test(a))).toBe(true);
  });
});

describe('where the JavaScript comes from', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-meta-'));
  const metafile = path.join(dir, 'metafile.json');
  fs.writeFileSync(
    metafile,
    JSON.stringify({
      outputs: {
        'public/build/_shared/chunk-A.js': {
          inputs: {
            '../main/node_modules/socket.io-client/build/esm/index.js': { bytesInOutput: 300 },
            '../main/node_modules/engine.io-client/build/esm/socket.js': { bytesInOutput: 100 },
          },
        },
        'public/build/routes/home-B.js': { inputs: { 'app/routes/home.tsx': { bytesInOutput: 50 } } },
        'public/build/_shared/chunk-A.js.map': { inputs: {} },
      },
    }),
  );

  it('finds the chunks that hold a package', () => {
    expect([...chunksHolding(/node_modules\/socket\.io-client\//, metafile)]).toEqual(['/build/_shared/chunk-A.js']);
    expect(chunksHolding(/node_modules\/@stripe\//, metafile).size).toBe(0);
  });

  it("shares a script's transferred bytes among its packages by their bytes in the chunk", () => {
    const shares = jsByPackage(
      [
        { type: 'Script', url: 'http://localhost:3500/build/_shared/chunk-A.js', bytes: 1000 },
        { type: 'Script', url: 'http://localhost:3500/build/routes/home-B.js', bytes: 200 },
        { type: 'Script', url: 'https://js.stripe.com/v3', bytes: 70 },
        { type: 'Image', url: 'http://localhost:3500/x.png', bytes: 5000 },
      ],
      metafile,
    );
    expect(Object.fromEntries(shares)).toEqual({
      'socket.io-client': 750,
      'engine.io-client': 250,
      'app/routes': 200,
      '(other scripts)': 70,
    });
  });
});

describe('bench tables', () => {
  it('escapes pipes in markdown and marks missed budgets', () => {
    const md = markdownTable(budgetTable([{ part: 'weight', what: 'a | b', value: '1 KB', budget: '≤ 2 KB', status: 'miss' }]));
    expect(md).toContain('| weight | a \\| b | 1 KB | ≤ 2 KB | MISSED |  |');
  });
});

describe('budgets as tests (npm test)', () => {
  it('counts a held budget as passed, a missed one as failed and one that does not apply yet as skipped', () => {
    const check = (status: string) => ({ part: 'weight', what: 'x', value: '', budget: '', status });
    expect(countChecks([check('ok'), check('ok'), check('miss'), check('n/a')])).toEqual({ passed: 2, failed: 1, skipped: 1 });
    expect(countChecks([])).toEqual({ passed: 0, failed: 0, skipped: 0 });
  });
});
