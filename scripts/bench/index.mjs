#!/usr/bin/env node
// `npm run bench` (after `npm run build`): measures the production build against floors measured in the same
// run, prints every figure beside its floor and budget, writes docs/benchmarks.md, and exits non-zero only when
// a budget that applies is missed. See docs/benchmarks.md for the method.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prepareFixtures, startApp } from './app.mjs';
import { launchBrowser } from './browser.mjs';
import { buildFloor, floorDirCleanup, startFloor } from './floor.mjs';
import { machine, parseArgs, PARTS, ROOT } from './lib.mjs';
import { budgetTable, printTable } from './report.mjs';
import { routes as routeList } from './routes.mjs';
import { jsBreakdownTable, measureWeight, weightTable } from './weight.mjs';
import { floorTargets, measureTargets, memoryReport, memorySample, throughputReport, throughputTargets } from './throughput.mjs';
import { measurePaint, paintTable } from './paint.mjs';
import { measureRealtime, realtimeTables } from './realtime.mjs';
import { writeDocs } from './docs.mjs';
import { measureLoad } from './load.mjs';
import { fanoutReport, measureFanout } from './fanout.mjs';
import { measureMedia, mediaReport } from './media.mjs';

const args = parseArgs(process.argv.slice(2));
const parts = new Set(args.only ?? PARTS);
const began = new Date();

if (!fs.existsSync(path.join(ROOT, 'build/server/index.js')) || !fs.existsSync(path.join(ROOT, 'build/web/index.js'))) {
  console.error('No production build: run `npm run build` first (`npm run bench` does).');
  process.exit(2);
}

const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-bench-logs-'));
const ports = {
  web: args.webPort,
  api: args.apiPort,
  floorRemix: args.webPort + 1,
  floorHttp: args.webPort + 2,
  inspect: args.apiPort + 10,
};
const results = {
  args,
  began,
  machine: { cpu: machine(), cores: os.cpus().length, memGb: os.totalmem() / 2 ** 30, node: process.version, loadavg: os.loadavg() },
  tables: [],
  checks: [],
  notes: [],
};
results.timings = {};
// A part that throws is reported (a missed check and a note) and the run goes on with the other parts.
const timed = async (name, fn) => {
  const t = Date.now();
  try {
    return await fn();
  } catch (error) {
    console.error(`${name} failed:`, error);
    const message = String(error?.message ?? error).split('\n')[0];
    results.notes.push(`The ${name} part failed: ${message} (logs in ${logDir}).`);
    results.checks.push({ part: name, what: `${name} ran to the end`, value: 'failed', budget: 'runs', status: 'miss', note: message });
    return null;
  } finally {
    results.timings[name] = (results.timings[name] ?? 0) + (Date.now() - t) / 1000;
  }
};
const cleanups = [];
const cleanup = async () => {
  while (cleanups.length)
    await cleanups
      .pop()()
      .catch((error) => console.error(`cleanup: ${error.message}`));
};
process.on('SIGINT', () => cleanup().finally(() => process.exit(130)));

try {
  console.log(
    `Stagedoor bench: ${[...parts].join(', ')}${parts.has('throughput') ? ` (${args.duration} s per run)` : ''}${parts.has('load') ? ` (load ${args.loadDuration} s)` : ''}; logs in ${logDir}`,
  );
  // The floors are what weight, paint and throughput compare against; realtime and load have absolute budgets.
  let floor = null;
  if (parts.has('weight') || parts.has('paint') || parts.has('throughput')) {
    console.log('floor: building a minimal Remix 2 page with the same config …');
    const floorDir = await buildFloor();
    cleanups.push(async () => floorDirCleanup(floorDir));
    floor = await startFloor({ dir: floorDir, remixPort: ports.floorRemix, httpPort: ports.floorHttp, logDir });
    cleanups.push(floor.stop);
  }

  // PGlite for the parts measured on it (weight, paint, throughput), and whenever PostgreSQL is not available;
  // PostgreSQL for throughput, and for realtime and load, which run once, on the last database.
  const onPg = ['throughput', 'realtime', 'load'].some((p) => parts.has(p));
  const databases = [];
  // Fan-out and media start apps of their own: alone, they need none of these.
  const onShared = ['weight', 'paint', 'throughput', 'realtime', 'load'].some((p) => parts.has(p));
  if (onShared && (!args.pg || !onPg || ['weight', 'paint', 'throughput'].some((p) => parts.has(p)))) databases.push({ db: 'pglite' });
  if (args.pg && onPg) databases.push({ db: 'pg', pgUrl: args.pg });
  else if (onPg)
    results.notes.push(
      'PostgreSQL was not available (no TEST_DATABASE_URL or --pg): the PostgreSQL budgets are not applicable in this run, and realtime and load ran on PGlite.',
    );
  const throughput = { floor: [], db: [] };
  const memory = [];
  const realtime = [];

  for (let i = 0; i < databases.length; i++) {
    const { db, pgUrl } = databases[i];
    console.log(
      `app: starting the production build on ${db === 'pg' ? 'PostgreSQL (a fresh database)' : 'PGlite (a fresh data directory)'} …`,
    );
    let app;
    try {
      app = await startApp({ db, pgUrl, webPort: ports.web, apiPort: ports.api, inspectPort: ports.inspect, logDir });
    } catch (error) {
      if (db !== 'pg') throw error;
      // PostgreSQL is optional: without it the PostgreSQL budgets are not applicable, as without --pg.
      console.error(`app: could not start on PostgreSQL (${error.message.split('\n')[0]}); going on without it`);
      results.notes.push(
        `PostgreSQL could not be used (${error.message.split('\n')[0]}): the PostgreSQL budgets are not applicable in this run.`,
      );
      databases.pop();
      // Without PostgreSQL the parts that wanted it run on PGlite.
      if (!databases.length) {
        databases.push({ db: 'pglite' });
        i--;
      }
      continue;
    }
    let stopped = false;
    const stopApp = async () => {
      if (!stopped) await app.stop();
      stopped = true;
    };
    cleanups.push(stopApp);
    const mem = { label: app.label, startMs: app.startMs };
    memory.push(mem);
    if (parts.has('throughput')) mem.idle = await memorySample(app);
    // The large club is seeded where the throughput budgets are judged: on the last database of the run
    // (PostgreSQL when there is one).
    const large = parts.has('throughput') && args.large && i === databases.length - 1;
    if (large) console.log(`club: seeding the large club on ${app.label} too …`);
    const fixtures = await prepareFixtures(app, { large });
    const pick = (rows) => (args.pages ? rows.filter((r) => args.pages.includes(r.id)) : rows);
    const routes = pick(routeList(fixtures.clubs.small));

    if (db === 'pglite' && (parts.has('weight') || parts.has('paint'))) {
      const browser = await launchBrowser();
      cleanups.push(() => browser.close());
      if (parts.has('weight')) {
        console.log('weight: loading every page in Chromium, cold …');
        const weight = await timed('weight', () =>
          measureWeight({ browser, app, floor, routes, token: fixtures.fanToken, artistToken: fixtures.artistToken }),
        );
        if (weight) {
          results.tables.push(weightTable(weight), jsBreakdownTable(weight));
          results.checks.push(...weight.checks);
        }
      }
      if (parts.has('paint')) {
        console.log(
          `paint: ${args.loads} cold loads per page on Slow 4G${args.slow3g.length ? ` and (${args.slow3g.join(', ')}) Slow 3G` : ''} …`,
        );
        const paint = await timed('paint', () =>
          measurePaint({ browser, app, floor, routes: routes.filter((r) => r.paint), fixtures, loads: args.loads, slow3g: args.slow3g }),
        );
        if (paint) {
          results.tables.push(paintTable(paint));
          results.checks.push(...paint.checks);
        }
      }
      await browser.close();
    }

    if (parts.has('throughput')) {
      const clubs = Object.values(fixtures.clubs).map((club) => ({ club, rows: pick(routeList(club)) }));
      const targets = await throughputTargets(app, fixtures, clubs);
      // With PostgreSQL in the run (where the budgets are judged), PGlite's figures are shown at the highest
      // connection count only: 34 pages at every count on both databases would take most of an hour.
      const connections = db === 'pglite' && databases.some((d) => d.db === 'pg') ? [Math.max(...args.connections)] : args.connections;
      // The floors are measured again next to each database's runs: the machine's load changes over minutes, and a
      // ratio should compare figures taken under the same load.
      console.log(`throughput: floors (next to the ${app.label} runs) …`);
      const floorRuns =
        (await timed('throughput', () =>
          measureTargets(floorTargets(floor), {
            connections,
            duration: args.duration,
            label: `floor (${app.label})`,
            warmup: true,
          }),
        )) ?? [];
      for (const r of floorRuns) r.forLabel = app.label;
      throughput.floor.push(...floorRuns);
      console.log(`throughput: ${app.label} …`);
      // One pass over every target first, so modules loaded on first use do not count as growth.
      for (const t of [...targets.ssr, ...targets.api].filter((t) => t.built)) {
        for (let i = 0; i < 20; i++) await (await fetch(t.url, { headers: t.headers })).arrayBuffer();
      }
      mem.warm = await memorySample(app);
      throughput.db.push(
        ...((await timed('throughput', () =>
          measureTargets([...targets.ssr, ...targets.api], { connections, duration: args.duration, label: app.label }),
        )) ?? []),
      );
      mem.after = await memorySample(app);
    }

    // Realtime runs once, on the last database: PostgreSQL when there is one (production), else PGlite.
    if (parts.has('realtime') && db === databases[databases.length - 1].db) {
      console.log(`realtime: ${args.clients} clients on ${app.label} …`);
      const rt = await timed('realtime', () => measureRealtime({ app, fixtures, clients: args.clients, rate: args.rate, duration: 15 }));
      if (rt) {
        realtime.push(rt);
        results.checks.push(...rt.checks);
      }
    }

    // Load runs once, on the last database, like realtime.
    if (parts.has('load') && db === databases[databases.length - 1].db) {
      console.log(`load: 200 fans reading, 10 connections at full blast and 50 fans sending for ${args.loadDuration} s on ${app.label} …`);
      const load = await timed('load', () => measureLoad({ app, fixtures, duration: args.loadDuration, warmup: args.loadWarmup }));
      if (load) {
        results.load = load;
        results.tables.push(load.table);
        results.checks.push(...load.checks);
        if (app.db !== 'pg')
          results.notes.push('The load part ran on PGlite: PostgreSQL was not available, and production runs on PostgreSQL.');
      }
    }
    await stopApp();
  }

  if (parts.has('throughput')) {
    const report = throughputReport(throughput.floor, throughput.db, { hasPg: databases.some((d) => d.db === 'pg') });
    results.tables.push(report.table);
    if (report.sizes.rows.length) results.tables.push(report.sizes);
    results.checks.push(...report.checks);
    const m = memoryReport(memory);
    results.tables.push(m.table);
    results.checks.push(...m.checks);
  }
  if (realtime.length) results.tables.push(...realtimeTables(realtime));

  // The fan-out runs on an app of its own (with an SMTP server), on PostgreSQL: its 10,000 fans are made in SQL.
  if (parts.has('fanout')) {
    if (!args.pg) results.notes.push('The fan-out part needs PostgreSQL (TEST_DATABASE_URL or --pg): not run.');
    else {
      console.log('fanout: one post to 10,000 subscribers through a local SMTP server …');
      const fanout = await timed('fanout', () =>
        measureFanout({ pgUrl: args.pg, webPort: ports.web, apiPort: ports.api, inspectPort: ports.inspect, logDir }),
      );
      if (fanout) {
        const report = fanoutReport(fanout);
        results.tables.push(report.table);
        results.checks.push(...report.checks);
      }
    }
  }

  // Media runs on an app of its own: it processes real uploads (ffmpeg) and takes a 200 MB tus upload through a
  // proxy that cuts its connection. PostgreSQL when there is one, else PGlite.
  if (parts.has('media')) {
    console.log('media: an audio and a 1080p video transcode, the artist home during one, 200 MB through tus cut twice …');
    const media = await timed('media', () =>
      measureMedia({
        pgUrl: args.pg,
        webPort: ports.web,
        apiPort: ports.api,
        inspectPort: ports.inspect,
        logDir,
        onStop: (stop) => cleanups.push(stop),
      }),
    );
    if (media) {
      const report = mediaReport(media);
      results.tables.push(report.table);
      results.checks.push(...report.checks);
    }
  }
} catch (error) {
  console.error(error);
  await cleanup();
  process.exit(2);
}
await cleanup();

for (const table of results.tables) printTable(table);
printTable(budgetTable(results.checks));
const missed = results.checks.filter((c) => c.status === 'miss');
results.finished = new Date();
results.loadEnd = os.loadavg();
console.log(
  `\ntime per part (s): ${Object.entries(results.timings)
    .map(([k, v]) => `${k} ${v.toFixed(0)}`)
    .join(', ')}`,
);
if (args.docs) {
  writeDocs(results);
  console.log('\nwrote docs/benchmarks.md');
}
if (args.json) fs.writeFileSync(args.json, JSON.stringify({ checks: results.checks, notes: results.notes }, null, 2));
console.log(
  `\n${missed.length ? `${missed.length} budget(s) missed` : 'every budget that applies holds'} (${results.checks.filter((c) => c.status === 'n/a').length} not applicable yet); ${((results.finished - began) / 1000).toFixed(0)} s`,
);
process.exit(missed.length ? 1 : 0);
