// `npm test`: every test (lint, unit, component, api integration, end to end in Chromium, page weight, load), one summary
// line at the end.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { countChecks } from './bench/report.mjs';
import { benchFailures, failedOutsideItsTests, flakyTests, namedFailures } from './test-failures.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
process.chdir(root);
const reports = path.join(root, '.cache', 'test-reports');
fs.rmSync(reports, { recursive: true, force: true });
fs.mkdirSync(reports, { recursive: true });

function run(command, args, env = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
}

function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
  return candidates.find((candidate) => fs.existsSync(candidate));
}

let chromium = findChromium();
if (!chromium && process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get')) {
  console.log("Chromium is missing: installing Debian's chromium with apt-get…");
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', 'chromium'], { DEBIAN_FRONTEND: 'noninteractive' });
  chromium = findChromium();
}
if (!chromium) {
  console.error('Chromium not found: install it (sudo apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium binary.');
  process.exit(1);
}

// Lint: ESLint, the import boundaries between the folders included, and Prettier's formatting. Each is one
// test in the summary.
const lint = [
  ['eslint', run('npx', ['eslint', '.'])],
  ['prettier', run('npx', ['prettier', '--check', '.', '--log-level=warn'])],
];

if (run('npm', ['run', 'build', '--silent']) !== 0) {
  console.error('The build failed, so no test ran.');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const vitestJson = path.join(reports, 'vitest.json');
const vitestStatus = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]);

const playwrightJson = path.join(reports, 'playwright.json');
const playwrightStatus = run('npx', ['playwright', 'test'], {
  CHROMIUM_PATH: chromium,
  PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson,
});

/**
 * A part of the bench whose budgets do not depend on the machine's speed. Each of its budget checks counts as a
 * test (read back from `name`.json). Its ports sit next to Playwright's, `portOffset` above them, so E2E_WEB_PORT
 * and E2E_API_PORT move them all.
 */
function runBenchPart(name, partArgs, portOffset, env = {}) {
  const json = path.join(reports, `${name}.json`);
  const status = run(
    process.execPath,
    [
      'scripts/bench/index.mjs',
      ...partArgs,
      '--no-docs',
      `--json=${json}`,
      `--web-port=${Number(process.env.E2E_WEB_PORT ?? 3100) + portOffset}`,
      `--api-port=${Number(process.env.E2E_API_PORT ?? 8180) + portOffset}`,
    ],
    env,
  );
  return { json, status };
}

// Page weight: every page loaded cold in Chromium, against the minimal Remix floor.
const weight = runBenchPart('weight', ['--weight-only'], 10, { CHROMIUM_PATH: chromium });
// Load: a minute of 200 fans reading pages, 10 connections asking for pages at full blast and 50 fans
// sending messages, after a minute's warm-up, on PostgreSQL
// when TEST_DATABASE_URL is set (else on PGlite). Its budgets are zero errors and no memory growth; its latencies
// are printed, not judged (the bench's throughput part judges speed).
const load = runBenchPart('load', ['--only=load'], 20);

const counts = { passed: 0, failed: 0, skipped: 0 };
for (const [, status] of lint) counts[status === 0 ? 'passed' : 'failed'] += 1;
const readJson = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined);

const vitest = readJson(vitestJson);
if (vitest) {
  counts.passed += vitest.numPassedTests;
  counts.failed += vitest.numFailedTests;
  counts.skipped += vitest.numPendingTests + vitest.numTodoTests;
  // A file that failed to load, or whose hook failed, has no failed test in it, but it is a failure all the same.
  counts.failed += vitest.testResults.filter(failedOutsideItsTests).length;
}
if (vitestStatus !== 0 && (!vitest || counts.failed === 0)) counts.failed += 1;

const playwright = readJson(playwrightJson);
const before = counts.failed;
if (playwright?.stats) {
  counts.passed += playwright.stats.expected + playwright.stats.flaky;
  counts.failed += playwright.stats.unexpected;
  counts.skipped += playwright.stats.skipped;
}
if (playwrightStatus !== 0 && counts.failed === before) counts.failed += 1;

// Each budget check of a bench part counts as a test. The bench exits 1 when a budget is missed (counted here) and
// 2 when it could not run (no check to count, so the part counts as one failure).
function countBench(file, status) {
  const report = readJson(file);
  const before = counts.failed;
  if (report) {
    const checks = countChecks(report.checks);
    counts.passed += checks.passed;
    counts.failed += checks.failed;
    counts.skipped += checks.skipped;
  }
  if (status !== 0 && counts.failed === before) counts.failed += 1;
}
countBench(weight.json, weight.status);
countBench(load.json, load.status);

// What failed, named just above the summary: CI keeps only the tail of this output.
const failures = [
  ...namedFailures({ vitest, playwright, root }),
  ...benchFailures('weight', readJson(weight.json), weight.status),
  ...benchFailures('load', readJson(load.json), load.status),
];
const flaky = flakyTests({ playwright });
console.log('');
if (flaky.length)
  console.log(`flaky (failed, then passed on the retry; counted as passed):\n${flaky.map((test) => `  ${test}`).join('\n')}`);
if (failures.length) console.log(`failed:\n${failures.map((failure) => `  ${failure}`).join('\n')}`);
console.log(
  `${lint.map(([name, status]) => `${name}: ${status === 0 ? 'ok' : 'FAILED'}`).join('; ')}; vitest: ${vitestStatus === 0 ? 'ok' : 'FAILED'}; playwright: ${playwrightStatus === 0 ? 'ok' : 'FAILED'}; page weight: ${weight.status === 0 ? 'ok' : 'FAILED'}; load: ${load.status === 0 ? 'ok' : 'FAILED'}`,
);
if (counts.skipped) {
  console.log(
    `${counts.skipped} skipped (tests that run on one database only, such as the browser client's reconnect test on PGlite; the PostgreSQL and Redis variants when TEST_DATABASE_URL and REDIS_URL are unset; a page-weight budget while its page is not built)`,
  );
}
// The last line is the summary CI reads: vitest, Playwright and page-weight counts added.
console.log(`${counts.passed} passed, ${counts.failed} failed`);
process.exit(counts.failed > 0 ? 1 : 0);
