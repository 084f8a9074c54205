import { describe, expect, it } from 'vitest';
import { benchFailures, failedOutsideItsTests, flakyTests, namedFailures } from '../../scripts/test-failures.mjs';

// The shapes are those of vitest's `--reporter=json` and Playwright's json reporter, cut to what is read.
const root = '/repo';

const vitest = {
  testResults: [
    {
      name: '/repo/tests/api/jobs.test.ts',
      status: 'failed',
      message: '',
      assertionResults: [
        { fullName: 'jobs retries a failed send', status: 'passed', failureMessages: [] },
        {
          fullName: 'jobs stops with the api',
          status: 'failed',
          failureMessages: ['\u001b[31mAssertionError: expected 16 to be less than 16\u001b[39m\n    at tests/api/jobs.test.ts:40:5'],
        },
      ],
    },
    { name: '/repo/tests/unit/broken.test.ts', status: 'failed', message: '\nSyntaxError: Unexpected token', assertionResults: [] },
    // A hook failed (afterAll timed out): every test passed, the file failed, and the report says no more.
    { name: '/repo/tests/api/s3.test.ts', status: 'failed', message: '', assertionResults: [{ fullName: 'serves', status: 'passed' }] },
    { name: '/repo/tests/unit/fine.test.ts', status: 'passed', message: '', assertionResults: [{ fullName: 'ok', status: 'passed' }] },
  ],
};

const playwright = {
  suites: [
    {
      file: 'messages.spec.ts',
      specs: [],
      suites: [
        {
          title: 'offline',
          specs: [
            {
              title: 'a message typed offline goes by itself, once',
              tests: [
                { status: 'unexpected', results: [{ error: { message: 'Error: expect(locator).toBeVisible() failed\n\nLocator: …' } }] },
              ],
            },
            { title: 'the composer stays', tests: [{ status: 'expected', results: [{}] }] },
          ],
        },
      ],
    },
    {
      file: 'shell.spec.ts',
      specs: [{ title: 'flaky but passed', tests: [{ status: 'flaky', results: [{ error: { message: 'x' } }, {}] }] }],
    },
  ],
};

describe("npm test's list of what failed", () => {
  it('names each failed test with its file and the first line of its error, colours taken out', () => {
    expect(namedFailures({ vitest, playwright, root })).toEqual([
      'vitest tests/api/jobs.test.ts › jobs stops with the api: AssertionError: expected 16 to be less than 16',
      'vitest tests/unit/broken.test.ts: SyntaxError: Unexpected token',
      'vitest tests/api/s3.test.ts: failed outside its tests (a hook or an error between them: see above)',
      'playwright messages.spec.ts › a message typed offline goes by itself, once: Error: expect(locator).toBeVisible() failed',
    ]);
  });

  it('is empty when nothing failed or when a report is missing', () => {
    expect(namedFailures({ vitest: undefined, playwright: undefined, root })).toEqual([]);
    expect(namedFailures({ vitest: { testResults: [vitest.testResults[3]] }, playwright: { suites: [] }, root })).toEqual([]);
  });

  it('counts a file that failed outside its tests once, and not one whose failure is a failed test', () => {
    expect(vitest.testResults.filter(failedOutsideItsTests).map((file) => file.name)).toEqual([
      '/repo/tests/unit/broken.test.ts',
      '/repo/tests/api/s3.test.ts',
    ]);
  });

  it('adds where a Playwright expectation failed and what it expected and received', () => {
    const message =
      '\u001b[31mError: expect(locator).toHaveAccessibleDescription(expected) failed\u001b[39m\n\nLocator: getByLabel(\'Expiry date\')\nExpected: "Your card’s expiry date is in the past."\nReceived: "Please enter the expiry date as MM/YY."\nTimeout: 10000ms\n\nCall log:\n  - waiting';
    const failed = {
      suites: [
        {
          file: 'subscribe.spec.ts',
          specs: [
            {
              title: 'the payment form checks the card',
              tests: [
                {
                  status: 'unexpected',
                  results: [{ error: { message, location: { file: '/repo/tests/e2e/subscribe.spec.ts', line: 123, column: 5 } } }],
                },
              ],
            },
          ],
        },
      ],
    };
    expect(namedFailures({ vitest: undefined, playwright: failed, root })).toEqual([
      [
        'playwright subscribe.spec.ts › the payment form checks the card: Error: expect(locator).toHaveAccessibleDescription(expected) failed',
        '    at subscribe.spec.ts:123',
        '    Expected: "Your card’s expiry date is in the past."',
        '    Received: "Please enter the expiry date as MM/YY."',
        '    Timeout: 10000ms',
      ].join('\n'),
    ]);
  });

  it('names a test that failed and then passed on its retry, with the first try’s error, apart from the failures', () => {
    expect(flakyTests({ playwright })).toEqual(['playwright shell.spec.ts › flaky but passed: x']);
    expect(flakyTests({ playwright: undefined })).toEqual([]);
  });

  it('says so when a failure has no message', () => {
    const silent = { suites: [{ file: 'a.spec.ts', specs: [{ title: 'times out', tests: [{ status: 'unexpected', results: [{}] }] }] }] };
    expect(namedFailures({ vitest: undefined, playwright: silent, root })).toEqual(['playwright a.spec.ts › times out: (no message)']);
  });

  it('names each missed budget of a bench part, and a part that did not finish', () => {
    const report = {
      checks: [
        { part: 'weight', what: 'login: JavaScript above the floor', value: '39.7 KB', budget: '≤ 60 KB', status: 'ok' },
        { part: 'weight', what: 'studio: edit item: JavaScript above the floor', value: '60.1 KB', budget: '≤ 60 KB', status: 'miss' },
        { part: 'weight', what: 'a page not built yet', value: '—', budget: '≤ 60 KB', status: 'n/a' },
      ],
    };
    expect(benchFailures('weight', report, 1)).toEqual([
      'bench weight › studio: edit item: JavaScript above the floor: 60.1 KB, budget ≤ 60 KB',
    ]);
    expect(benchFailures('load', { checks: [] }, 2)).toEqual(['bench load: did not finish (exit 2; its log is above)']);
    expect(benchFailures('load', undefined, 0)).toEqual([]);
  });
});
