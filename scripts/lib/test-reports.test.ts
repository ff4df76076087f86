import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  playwrightCounts,
  playwrightFailures,
  playwrightStartFailure,
  summaryLine,
  vitestCounts,
  vitestFailures,
} from './test-reports.ts';

const folder = mkdtempSync(path.join(tmpdir(), 'digi-reports-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function write(name: string, report: unknown): string {
  const file = path.join(folder, name);
  writeFileSync(file, JSON.stringify(report));
  return file;
}

describe('the test report summary', () => {
  it('names each failed Vitest test with the first line of its reason, colours removed', () => {
    const file = write('vitest.json', {
      numPassedTests: 1,
      numFailedTests: 1,
      numPendingTests: 2,
      numTodoTests: 0,
      testResults: [
        {
          name: '/repo/server/a.test.ts',
          status: 'failed',
          message: '',
          assertionResults: [
            {
              fullName: 'group fails',
              status: 'failed',
              failureMessages: ['\u001b[31mError: Test timed out in 30000ms.\u001b[39m\n    at x'],
            },
            { fullName: 'group passes', status: 'passed', failureMessages: [] },
          ],
        },
        // A file that failed before any test ran (an import error) names the file.
        {
          name: '/repo/server/b.test.ts',
          status: 'failed',
          message: 'Cannot find module x\nmore',
          assertionResults: [],
        },
      ],
    });
    expect(vitestCounts(file)).toEqual({ passed: 1, failed: 1, skipped: 2 });
    expect(vitestFailures(file, '/repo')).toEqual([
      'server/a.test.ts › group fails: Error: Test timed out in 30000ms.',
      'server/b.test.ts: Cannot find module x',
    ]);
  });

  it('names each failed Playwright test by file, line and titles', () => {
    const file = write('playwright.json', {
      stats: { expected: 3, unexpected: 1, flaky: 1, skipped: 0 },
      suites: [
        {
          title: 'chat.spec.ts',
          file: 'chat.spec.ts',
          specs: [],
          suites: [
            {
              title: 'the discussion forum',
              file: 'chat.spec.ts',
              specs: [
                {
                  title: 'two people chat',
                  file: 'chat.spec.ts',
                  line: 19,
                  tests: [
                    {
                      status: 'unexpected',
                      results: [
                        { error: { message: 'expect(locator).toBeVisible() failed\nLocator: x' } },
                      ],
                    },
                  ],
                },
                {
                  title: 'fits',
                  file: 'chat.spec.ts',
                  line: 90,
                  tests: [{ status: 'flaky', results: [{}] }],
                },
              ],
            },
          ],
        },
      ],
    });
    expect(playwrightCounts(file)).toEqual({ passed: 4, failed: 1, skipped: 0 });
    expect(playwrightFailures(file)).toEqual([
      'chat.spec.ts:19 › the discussion forum › two people chat: expect(locator).toBeVisible() failed',
    ]);
  });

  it('reads a missing report as no report', () => {
    expect(vitestCounts(path.join(folder, 'none.json'))).toBeUndefined();
    expect(vitestFailures(path.join(folder, 'none.json'), '/repo')).toEqual([]);
  });

  it('tells a Playwright run whose web server never started from one that ran', () => {
    const stalled = write('stalled.json', {
      stats: { expected: 0, unexpected: 0, flaky: 0, skipped: 0 },
      errors: [
        { message: '\u001b[31mError: Timed out waiting 120000ms from config.webServer.\u001b[39m' },
      ],
      suites: [],
    });
    expect(playwrightStartFailure(stalled)).toBe(
      'Error: Timed out waiting 120000ms from config.webServer.',
    );
    const ran = write('ran.json', {
      stats: { expected: 2, unexpected: 1, flaky: 0, skipped: 0 },
      errors: [{ message: 'a worker crashed' }],
      suites: [],
    });
    expect(playwrightStartFailure(ran)).toBeUndefined();
  });

  it('ends with real counts and names each tier that did not start', () => {
    expect(summaryLine({ passed: 1055, failed: 0, skipped: 0 }, [])).toBe('1055 passed, 0 failed');
    expect(
      summaryLine({ passed: 1055, failed: 2, skipped: 3 }, [
        'end-to-end: did not start: Error: Timed out waiting 120000ms from config.webServer.',
      ]),
    ).toBe(
      '1055 passed, 2 failed, 3 skipped; end-to-end: did not start: Error: Timed out waiting 120000ms from config.webServer.',
    );
  });
});
