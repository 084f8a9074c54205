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
    // A test file that fails to load has no test in it, only its message.
    if (file.status === 'failed' && file.assertionResults.length === 0) failures.push(`vitest ${where}: ${firstLine(file.message)}`);
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
