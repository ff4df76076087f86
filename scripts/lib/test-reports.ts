/**
 * Reading the Vitest and Playwright JSON reports that `npm test` writes: how many tests passed,
 * failed and were skipped, and which failed and why, for its summary.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Test counts of one tier, or of all. */
export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The counts of a Vitest JSON report, or undefined when there is none. */
export function vitestCounts(file: string): Counts | undefined {
  const report = readJson(file) as
    | {
        numPassedTests: number;
        numFailedTests: number;
        numPendingTests: number;
        numTodoTests: number;
      }
    | undefined;
  if (!report) return undefined;
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + report.numTodoTests,
  };
}

/**
 * The failed tests of a Vitest JSON report, one line each with the first line of the reason, so that
 * a CI log that keeps only its tail still says what broke.
 */
export function vitestFailures(file: string, root: string): string[] {
  const report = readJson(file) as
    | {
        testResults?: {
          name: string;
          message?: string;
          assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[];
        }[];
      }
    | undefined;
  const lines: string[] = [];
  for (const suite of report?.testResults ?? []) {
    const relative = path.relative(root, suite.name);
    const failed = (suite.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failed) {
      lines.push(`${relative} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    }
    if (failed.length === 0 && suite.message)
      lines.push(`${relative}: ${firstLine(suite.message)}`);
  }
  return lines;
}

interface PlaywrightSuite {
  title: string;
  file?: string;
  suites?: PlaywrightSuite[];
  specs?: {
    title: string;
    file: string;
    line: number;
    tests: { status: string; results: { error?: { message?: string } }[] }[];
  }[];
}

/** The failed tests of a Playwright JSON report, like {@link vitestFailures}. */
export function playwrightFailures(file: string): string[] {
  const report = readJson(file) as { suites?: PlaywrightSuite[] } | undefined;
  const lines: string[] = [];
  const visit = (suite: PlaywrightSuite, titles: string[]) => {
    const here = suite.file && suite.title === suite.file ? titles : [...titles, suite.title];
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        if (test.status !== 'unexpected') continue;
        const error = test.results.at(-1)?.error?.message;
        lines.push(
          `${spec.file}:${spec.line} › ${[...here, spec.title].join(' › ')}: ${firstLine(error)}`,
        );
      }
    }
    for (const child of suite.suites ?? []) visit(child, here);
  };
  for (const suite of report?.suites ?? []) visit(suite, []);
  return lines;
}

function firstLine(text: string | undefined): string {
  // Reporter messages carry ANSI colours; the summary is read as plain text.
  // eslint-disable-next-line no-control-regex
  const plain = (text ?? 'no reason given').replace(/\u001b\[[0-9;]*m/g, '');
  return (
    plain
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim()
      .slice(0, 300) ?? ''
  );
}

/** The counts of a Playwright JSON report (a retried test that passed counts as passed). */
export function playwrightCounts(file: string): Counts | undefined {
  const report = readJson(file) as
    { stats: { expected: number; unexpected: number; flaky: number; skipped: number } } | undefined;
  if (!report) return undefined;
  const { expected, unexpected, flaky, skipped } = report.stats;
  return { passed: expected + flaky, failed: unexpected, skipped };
}

/**
 * Why a Playwright run never got to its tests (its web server did not start, its configuration
 * failed), or undefined when it ran them: the first line of the report's first top-level error.
 */
export function playwrightStartFailure(file: string): string | undefined {
  const report = readJson(file) as
    | {
        stats?: { expected: number; unexpected: number; flaky: number; skipped: number };
        errors?: { message?: string }[];
      }
    | undefined;
  if (!report) return undefined;
  const ran = report.stats
    ? report.stats.expected + report.stats.unexpected + report.stats.flaky
    : 0;
  const error = report.errors?.[0];
  return ran === 0 && error ? firstLine(error.message) : undefined;
}

/**
 * The last line `npm test` prints: real counts, then each tier that did not start and why, so a
 * tier that never ran is never mistaken for a test that failed.
 */
export function summaryLine(total: Counts, notStarted: string[]): string {
  const skipped = total.skipped > 0 ? `, ${total.skipped} skipped` : '';
  const tiers = notStarted.map((tier) => `; ${tier}`).join('');
  return `${total.passed} passed, ${total.failed} failed${skipped}${tiers}`;
}

/** The sum of two counts. */
export function add(a: Counts, b: Counts): Counts {
  return {
    passed: a.passed + b.passed,
    failed: a.failed + b.failed,
    skipped: a.skipped + b.skipped,
  };
}
