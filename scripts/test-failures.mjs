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
      if (test.status === 'unexpected')
        failures.push(`playwright ${file} › ${spec.title}: ${firstLine(test.results.at(-1)?.error?.message)}`);
    }
  }
  return failures;
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

/** The first line that says something, without the reporters' terminal colours, cut at 300 characters. */
function firstLine(text) {
  // eslint-disable-next-line no-control-regex -- the colour codes start with ESC
  const plain = String(text ?? '').replace(/\u001b\[[0-9;]*m/g, '');
  return (
    plain
      .split('\n')
      .find((line) => line.trim())
      ?.trim()
      .slice(0, 300) ?? '(no message)'
  );
}
