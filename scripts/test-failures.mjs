import path from 'node:path';

/**
 * Every failed test of a run, one line each ("vitest tests/x.test.ts › name: first line of the error"), read from
 * vitest's and Playwright's JSON reports (either may be missing). `npm test` prints them just above its summary,
 * since CI keeps only the tail of the output.
 */
export function namedFailures({ vitest, playwright, root }) {
  const failures = [];
  for (const file of vitest?.testResults ?? []) {
    const where = path.relative(root, file.name);
    if (failedOutsideItsTests(file)) {
      failures.push(
        `vitest ${where}: ${firstLine(file.message || 'failed outside its tests (a hook or an error between them: see above)')}`,
      );
    }
    for (const test of file.assertionResults) {
      if (test.status === 'failed') failures.push(`vitest ${where} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    }
  }
  for (const { spec, file } of playwrightSpecs(playwright?.suites ?? [])) {
    for (const test of spec.tests) {
      if (test.status === 'unexpected') failures.push(described(file, spec, test.results.at(-1)?.error));
    }
  }
  return failures;
}

/**
 * The missed budgets of a bench part (`name`: weight, load), one line each ("bench weight › what: measured, budget
 * …"), read from its JSON report; a part that could not run (no report, or a non-zero exit with no missed budget)
 * is one line saying so. `status` is the part's exit code.
 */
export function benchFailures(name, report, status) {
  const missed = (report?.checks ?? []).filter((check) => check.status !== 'ok' && check.status !== 'n/a');
  const lines = missed.map((check) => `bench ${name} › ${check.what}: ${check.value}, budget ${check.budget}`);
  if (status !== 0 && lines.length === 0) lines.push(`bench ${name}: did not finish (exit ${status}; its log is above)`);
  return lines;
}

/** Playwright tests that failed and then passed on their retry: each with the first try's failure. */
export function flakyTests({ playwright }) {
  return playwrightSpecs(playwright?.suites ?? []).flatMap(({ spec, file }) =>
    spec.tests
      .filter((test) => test.status === 'flaky')
      .map((test) => described(file, spec, test.results.find((result) => result.error)?.error)),
  );
}

/**
 * A vitest file that failed although none of its tests did: it did not load (its message says why), or a hook
 * (afterAll…) or an unhandled error failed it, which the JSON report does not describe. It counts as one failure.
 */
export function failedOutsideItsTests(file) {
  return file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed');
}

/** Playwright's suites nest (a file, its describe blocks); each spec is named with the file it is in. */
function playwrightSpecs(suites, file) {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? []).map((spec) => ({ spec, file: file ?? suite.file })),
    ...playwrightSpecs(suite.suites ?? [], file ?? suite.file),
  ]);
}

/** A Playwright test named with its file, the first line of its error, and where and what it expected. */
function described(file, spec, error) {
  return [`playwright ${file} › ${spec.title}: ${firstLine(error?.message)}`, ...expectation(error)].join('\n    ');
}

/**
 * Where a Playwright expectation failed and what it expected and received: a flaky test that fails on CI only can
 * then be read from the tail CI keeps, without the run's artefacts.
 */
function expectation(error) {
  const lines = plain(error?.message).split('\n');
  const said = ['Expected', 'Received', 'Timeout'].flatMap((label) => {
    const line = lines.find((candidate) => candidate.trim().startsWith(label));
    return line ? [line.trim().slice(0, 300)] : [];
  });
  const at = error?.location ? [`at ${path.basename(error.location.file)}:${error.location.line}`] : [];
  return [...at, ...said];
}

/** Text without the reporters' terminal colours. */
function plain(text) {
  // eslint-disable-next-line no-control-regex -- the colour codes start with ESC
  return String(text ?? '').replace(/\u001b\[[0-9;]*m/g, '');
}

/** The first line that says something, without the reporters' terminal colours, cut at 300 characters. */
function firstLine(text) {
  return (
    plain(text)
      .split('\n')
      .find((line) => line.trim())
      ?.trim()
      .slice(0, 300) ?? '(no message)'
  );
}
