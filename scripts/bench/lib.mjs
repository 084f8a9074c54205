// Shared helpers of the bench: arguments, processes, waiting, memory sampling, statistics.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Every part, in the order they run; the default is all of them. */
/**
 * The node flags `npm start` runs the server with (package.json's start and serve, the Dockerfile; docs/operations.md,
 * "Node's flags"). The app and the floors both run with them, so that a ratio compares code, not flags.
 */
export const NODE_FLAGS = ['--v8-pool-size=1', '--max-semi-space-size=32'];

export const PARTS = ['weight', 'paint', 'throughput', 'realtime', 'load', 'fanout', 'media'];

const HELP = `node scripts/bench/index.mjs [options]
  --weight-only        only the page-weight part (CI: does not depend on the machine's speed)
  --only=a,b           parts to run: weight, throughput, paint, realtime, load, fanout, media (memory comes with throughput;
                       fanout and media start apps of their own; media: transcodes, page p99 during one, tus cut twice)
  --duration=S         seconds per autocannon run (default 10)
  --connections=a,b    autocannon connection counts (default 10,50)
  --clients=N          realtime clients (default 1000; RSS is also sampled at 2N)
  --rate=N             realtime messages per second for 15 s (default 3; at most 78 messages: the api allows 30 a minute per sender)
  --load-duration=S    seconds of the load part: 200 fans browsing while 50 send messages (default 60)
  --load-warmup=S      seconds of the same crowd before it, unmeasured (default 60)
  --loads=N            cold loads per route for the paint medians (default 5)
  --pg=URL             PostgreSQL server for the PostgreSQL runs (default TEST_DATABASE_URL; none: PGlite only)
  --no-pg              PGlite only, even when TEST_DATABASE_URL is set
  --web-port=N         first web port (default 3500; floors use the next ones)
  --api-port=N         first api port (default 8580)
  --pages=a,b          only these page rows (ids in scripts/bench/routes.mjs), for weight, paint and throughput
  --no-large           without the large club (throughput measures the small club only; seeding it takes minutes)
  --no-docs            do not write docs/benchmarks.md
  --json=FILE          also write every budget check (part, what, measured, budget, result) to FILE, for npm test
  --slow3g=a,b         pages also loaded on Slow 3G (route ids; default home; 'none' skips Slow 3G)
`;

const WITH_VALUE = new Set([
  'only',
  'duration',
  'connections',
  'clients',
  'rate',
  'load-duration',
  'load-warmup',
  'loads',
  'pg',
  'web-port',
  'api-port',
  'slow3g',
  'json',
  'pages',
]);

export function parseArgs(argv) {
  const args = {
    only: null,
    duration: 10,
    connections: [10, 50],
    clients: 1000,
    rate: 3,
    loads: 5,
    loadDuration: 60,
    loadWarmup: 60,
    pg: process.env.TEST_DATABASE_URL || '',
    webPort: 3500,
    apiPort: 8580,
    docs: true,
    json: null,
    slow3g: ['home'],
    pages: null,
    large: true,
  };
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i];
    const [key, ...rest] = raw.replace(/^--/, '').split('=');
    let value = rest.join('=');
    // `--pg URL` as well as `--pg=URL`, for the options that take a value.
    if (!raw.includes('=') && WITH_VALUE.has(key) && i + 1 < argv.length && !argv[i + 1].startsWith('--')) value = argv[++i];
    switch (key) {
      case 'help':
      case 'h':
        console.log(HELP);
        return process.exit(0);
      case 'weight-only':
        args.only = ['weight'];
        break;
      case 'only':
        args.only = value.split(',').filter(Boolean);
        for (const part of args.only) if (!PARTS.includes(part)) fail(`unknown part ${part} in --only (parts: ${PARTS.join(', ')})`);
        break;
      case 'duration':
        args.duration = positive(key, value);
        break;
      case 'connections':
        args.connections = value.split(',').map((v) => positive(key, v));
        break;
      case 'clients':
        args.clients = positive(key, value);
        break;
      case 'rate':
        args.rate = positive(key, value);
        break;
      case 'load-duration':
        args.loadDuration = positive(key, value);
        break;
      case 'load-warmup':
        args.loadWarmup = positive(key, value);
        break;
      case 'loads':
        args.loads = positive(key, value);
        break;
      case 'pg':
        if (!/^postgres(ql)?:\/\//.test(value)) fail(`--pg must be a postgres:// URL`);
        args.pg = value;
        break;
      case 'no-pg':
        args.pg = '';
        break;
      case 'web-port':
        args.webPort = positive(key, value);
        break;
      case 'api-port':
        args.apiPort = positive(key, value);
        break;
      case 'pages':
        args.pages = value.split(',').filter(Boolean);
        break;
      case 'no-large':
        args.large = false;
        break;
      case 'no-docs':
        args.docs = false;
        break;
      case 'json':
        if (!value) fail('--json needs a file name');
        args.json = value;
        break;
      case 'slow3g':
        args.slow3g = value === 'none' ? [] : value.split(',').filter(Boolean);
        break;
      default:
        fail(`unknown option --${key}\n\n${HELP}`);
    }
  }
  return args;
}

function positive(key, value) {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) fail(`--${key} must be a positive number`);
  return n;
}

export function fail(message) {
  console.error(message);
  process.exit(2);
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls a URL until it answers 200 (or throws after the timeout). */
export async function waitForOk(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
      last = `status ${res.status}`;
    } catch (error) {
      last = error.message;
    }
    await sleep(200);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms (${last})`);
}

/**
 * Starts a Node process whose output goes to a log file; resolves once `readyUrl` answers.
 * Returns { pid, stop(), log }.
 */
export async function startProcess({ name, args, env, cwd = ROOT, readyUrl, logDir }) {
  const log = path.join(logDir, `${name}.log`);
  const out = fs.openSync(log, 'w');
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  let exited = null;
  child.on('exit', (code, signal) => (exited = { code, signal }));
  const started = Date.now();
  try {
    await Promise.race([
      waitForOk(readyUrl, 120_000),
      (async () => {
        while (!exited) await sleep(100);
        throw new Error(`${name} exited (${JSON.stringify(exited)}) before it was ready; see ${log}:\n${tail(log)}`);
      })(),
    ]);
  } catch (error) {
    if (!exited) child.kill('SIGKILL');
    throw error;
  }
  return {
    pid: child.pid,
    log,
    startMs: Date.now() - started,
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      const deadline = Date.now() + 12_000;
      while (!exited && Date.now() < deadline) await sleep(100);
      if (!exited) child.kill('SIGKILL');
    },
  };
}

function tail(file) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '';
  }
}

/** Resident memory of a process in MB, read from outside through /proc (no hook in the server). */
export function rssMb(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : null;
  } catch {
    return null;
  }
}

/** The lowest RSS seen over a few seconds of idling: what the process settles to once the GC has run. */
export async function settledRssMb(pid, ms = 5000) {
  let low = Infinity;
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const v = rssMb(pid);
    if (v != null) low = Math.min(low, v);
    await sleep(250);
  }
  return Number.isFinite(low) ? low : null;
}

export function percentile(values, p) {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export const median = (values) => {
  const v = values.filter((x) => x != null && Number.isFinite(x));
  if (!v.length) return null;
  const s = [...v].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

export const kb = (bytes) => (bytes == null ? null : bytes / 1024);

export function machine() {
  let cpu = 'unknown';
  try {
    cpu = /model name\s*:\s*(.*)/.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpu;
  } catch {
    // not Linux: the generic name stays
  }
  return cpu;
}
