/**
 * `npm test`: every test tier, then one plain summary line `N passed, N failed`.
 *
 * 1. Unit and integration (Vitest): against PGlite always and against a private PostgreSQL
 *    cluster that this script starts when PostgreSQL is installed (or TEST_DATABASE_URL).
 * 2. End-to-end (Playwright): the built app in Debian's Chromium.
 *
 * In CI (CI=true) a missing PostgreSQL or Chromium, or a PostgreSQL without pgvector, fails the run.
 * Elsewhere the tier (or the part of one) that could not run is named with the one command that
 * installs what it lacks.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import {
  extensionInstalled,
  findPostgresBin,
  startPostgresCluster,
  type PostgresCluster,
} from './lib/postgres-cluster.ts';
import {
  add,
  playwrightCounts,
  playwrightFailures,
  playwrightStartFailure,
  summaryLine,
  vitestCounts,
  vitestFailures,
  type Counts,
} from './lib/test-reports.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const REPORTS = path.join(ROOT, '.reports');
const CI = ['true', '1'].includes(String(process.env.CI).toLowerCase());
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', () => resolve(1));
  });
}

async function main(): Promise<number> {
  rmSync(REPORTS, { recursive: true, force: true });
  mkdirSync(REPORTS, { recursive: true });
  const notRun: string[] = [];
  const failures: string[] = [];
  const total: Counts = { passed: 0, failed: 0, skipped: 0 };
  /** Tiers that could not run at all, each `<tier>: did not start: <reason>`; any fails the run. */
  const notStarted: string[] = [];

  // PostgreSQL for the integration tier.
  let cluster: PostgresCluster | undefined;
  let databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl) {
    const bin = findPostgresBin();
    if (bin) {
      cluster = await startPostgresCluster(bin);
      databaseUrl = cluster.url;
      console.log(`\n[test] PostgreSQL tier: private cluster at ${databaseUrl}`);
    } else {
      notRun.push('PostgreSQL integration tests (install: apt-get install -y postgresql)');
    }
  }
  const stopCluster = () => {
    try {
      cluster?.stop();
    } catch (error) {
      console.error(`[test] could not stop PostgreSQL: ${(error as Error).message}`);
    }
    cluster = undefined;
  };
  process.once('SIGINT', () => {
    stopCluster();
    process.exit(130);
  });

  try {
    if (CI && !databaseUrl) {
      notStarted.push(
        'PostgreSQL integration: did not start: PostgreSQL is not installed, and CI skips nothing (apt-get install -y postgresql)',
      );
    }
    // Search by meaning's tests skip themselves on a PostgreSQL without pgvector, except in CI.
    if (databaseUrl && !(await extensionInstalled(databaseUrl, 'vector'))) {
      if (CI) {
        notStarted.push(
          'PostgreSQL integration: incomplete: PostgreSQL has no pgvector (the vector extension), and CI skips nothing (sudo scripts/install-pgvector.sh)',
        );
      } else {
        notRun.push(
          'search by meaning on PostgreSQL: this PostgreSQL has no pgvector, so it is untested there (install: sudo scripts/install-pgvector.sh)',
        );
      }
    }

    console.log('\n[test] Tier 1: unit and integration (Vitest)\n');
    const vitestReport = path.join(REPORTS, 'vitest.json');
    const vitestExit = await run(
      'npx',
      [
        'vitest',
        'run',
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${vitestReport}`,
      ],
      databaseUrl ? { TEST_DATABASE_URL: databaseUrl } : {},
    );
    const unit = vitestCounts(vitestReport);
    if (unit) Object.assign(total, add(total, unit));
    failures.push(...vitestFailures(vitestReport, ROOT));
    if (!unit) {
      notStarted.push(
        `unit and integration: did not start: Vitest exited with ${vitestExit} without a report (see above)`,
      );
    } else if (vitestExit !== 0 && unit.failed === 0 && failures.length === 0) {
      notStarted.push(
        `unit and integration: did not finish: Vitest exited with ${vitestExit} (see above)`,
      );
    }
  } finally {
    stopCluster();
  }

  if (existsSync(CHROMIUM)) {
    console.log('\n[test] Tier 2: end-to-end (Playwright in Chromium)\n');
    const buildExit = await run('npx', ['vite', 'build', '--logLevel', 'warn']);
    if (buildExit !== 0) {
      notStarted.push('end-to-end: did not start: the web build failed (see above)');
    } else {
      const e2eReport = path.join(REPORTS, 'playwright.json');
      const e2eExit = await run('npx', ['playwright', 'test'], {
        PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport,
      });
      const e2e = playwrightCounts(e2eReport);
      const startFailure = playwrightStartFailure(e2eReport);
      if (e2e) Object.assign(total, add(total, e2e));
      failures.push(...playwrightFailures(e2eReport));
      if (!e2e) {
        notStarted.push(
          `end-to-end: did not start: Playwright exited with ${e2eExit} without a report (see above)`,
        );
      } else if (startFailure) {
        notStarted.push(`end-to-end: did not start: ${startFailure}`);
      } else if (e2eExit !== 0 && e2e.failed === 0) {
        notStarted.push(
          `end-to-end: did not finish: Playwright exited with ${e2eExit} (see above)`,
        );
      }
    }
  } else {
    notRun.push(
      `end-to-end tests: no Chromium at ${CHROMIUM} (install: apt-get install -y chromium)`,
    );
    if (CI) {
      notStarted.push(
        'end-to-end: did not start: Chromium is not installed, and CI skips nothing (apt-get install -y chromium)',
      );
    }
  }

  console.log('');
  for (const tier of notRun) console.log(`[test] NOT RUN: ${tier}`);
  for (const failure of failures) console.log(`[test] FAILED: ${failure}`);
  for (const tier of notStarted) console.log(`[test] ${tier}`);
  console.log(summaryLine(total, notStarted));
  return total.failed > 0 || notStarted.length > 0 ? 1 : 0;
}

process.exitCode = await main();
