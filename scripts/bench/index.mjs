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
import { machine, parseArgs, ROOT } from './lib.mjs';
import { budgetTable, printTable } from './report.mjs';
import { routes as routeList } from './routes.mjs';
import { jsBreakdownTable, measureWeight, weightTable } from './weight.mjs';
import { writeDocs } from './docs.mjs';

const args = parseArgs(process.argv.slice(2));
const parts = new Set(args.only ?? ['weight', 'throughput', 'paint', 'realtime']);
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
const results = { args, began, machine: { cpu: machine(), cores: os.cpus().length, memGb: os.totalmem() / 2 ** 30, node: process.version, loadavg: os.loadavg() }, tables: [], checks: [], notes: [] };
const cleanups = [];
const cleanup = async () => {
  while (cleanups.length) await cleanups.pop()().catch((error) => console.error(`cleanup: ${error.message}`));
};
process.on('SIGINT', () => cleanup().finally(() => process.exit(130)));

try {
  console.log(`Stagedoor bench: ${[...parts].join(', ')}${parts.has('throughput') ? ` (${args.duration} s per run)` : ''}; logs in ${logDir}`);
  console.log('floor: building a minimal Remix 2 page with the same config …');
  const floorDir = await buildFloor();
  cleanups.push(async () => floorDirCleanup(floorDir));
  const floor = await startFloor({ dir: floorDir, remixPort: ports.floorRemix, httpPort: ports.floorHttp, logDir });
  cleanups.push(floor.stop);

  console.log('app: starting the production build on PGlite …');
  const app = await startApp({ db: 'pglite', webPort: ports.web, apiPort: ports.api, inspectPort: ports.inspect, logDir });
  const stopApp = app.stop;
  cleanups.push(stopApp);
  const fixtures = await prepareFixtures(app);
  const routes = routeList(fixtures);

  if (parts.has('weight') || parts.has('paint')) {
    const browser = await launchBrowser();
    cleanups.push(() => browser.close());
    if (parts.has('weight')) {
      console.log('weight: loading every page in Chromium, cold …');
      const weight = await measureWeight({ browser, app, floor, routes, token: fixtures.fanToken });
      results.weight = weight;
      results.tables.push(weightTable(weight), jsBreakdownTable(weight));
      results.checks.push(...weight.checks);
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
if (args.docs) {
  writeDocs(results);
  console.log('\nwrote docs/benchmarks.md');
}
console.log(
  `\n${missed.length ? `${missed.length} budget(s) missed` : 'every budget that applies holds'} (${results.checks.filter((c) => c.status === 'n/a').length} not applicable yet); ${((results.finished - began) / 1000).toFixed(0)} s`,
);
process.exit(missed.length ? 1 : 0);
