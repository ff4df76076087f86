import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { SHARED_BOOKS } from './e2e/data-template.ts';

/*
 * This file is loaded by the runner and again by every worker. The port and data folder are
 * chosen once, by the runner, and handed to the workers through the environment they inherit.
 */
const freePort = () =>
  execFileSync(process.execPath, [
    '-e',
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
  ]).toString();
process.env.E2E_PORT ??= freePort();
process.env.E2E_SMTP_PORT ??= freePort();
process.env.E2E_OIDC_PORT ??= freePort();
if (!process.env.E2E_DATA_DIR) {
  // The runner: a copy of the prepared database (e2e/data-template.ts), built before any server
  // starts, so the server's start-up limit covers only its own start. The folder goes when the
  // runner exits, after Playwright has stopped the server.
  const dataDir = mkdtempSync(path.join(tmpdir(), 'digi-e2e-'));
  process.env.E2E_DATA_DIR = dataDir;
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  execFileSync(process.execPath, ['--import', 'tsx', 'e2e/data-template.ts', dataDir], {
    cwd: import.meta.dirname,
    stdio: 'inherit',
  });
}
process.env.E2E_MAIL_DIR ??= path.join(process.env.E2E_DATA_DIR, 'received-mail');

const port = Number(process.env.E2E_PORT);
const smtpPort = Number(process.env.E2E_SMTP_PORT);
const oidcPort = Number(process.env.E2E_OIDC_PORT);
const baseURL = `http://127.0.0.1:${port}`;

// With the shared data beside the repository (always in CI), the prepared database holds the
// real 10k-book catalogue, so searches page through real results.
process.env.E2E_REAL_CATALOGUE = existsSync(SHARED_BOOKS) ? '1' : '';
const node = `"${process.execPath}" --import tsx`;

/** End-to-end tests: the built app on its real server, a fresh database, Debian's Chromium. */
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? '.reports/playwright.json' }],
  ],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    { name: 'chromium', testIgnore: '**/*.after-clock.spec.ts' },
    // Specs that move the server's clock forward (TEST_CLOCK) run last, after all the others.
    { name: 'after-clock', testMatch: '**/*.after-clock.spec.ts', dependencies: ['chromium'] },
  ],
  webServer: [
    {
      command: `"${process.execPath}" --import tsx e2e/smtp-sink.ts`,
      port: smtpPort,
      reuseExistingServer: false,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
      env: { PORT: String(smtpPort), MAIL_DIR: process.env.E2E_MAIL_DIR },
    },
    {
      command: `"${process.execPath}" --import tsx e2e/oidc-server.ts`,
      url: `http://127.0.0.1:${oidcPort}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
      env: { PORT: String(oidcPort), REDIRECT_URI: `${baseURL}/api/auth/callback/oidc` },
    },
    {
      command: `${node} server/index.ts`,
      url: `${baseURL}/api/health`,
      reuseExistingServer: false,
      // Its own start only (the database is prepared above): generous for a busy 2-core machine.
      timeout: 120_000,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        NODE_ENV: 'production',
        AUTH_SECRET: 'e2e-only-secret-0123456789abcdefghijklmnop',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: baseURL,
        DATA_DIR: process.env.E2E_DATA_DIR,
        LOG_LEVEL: 'warn',
        TRUST_PROXY: 'true',
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        OIDC_ISSUER: `http://127.0.0.1:${oidcPort}`,
        OIDC_CLIENT_ID: 'digi-library',
        OIDC_CLIENT_SECRET: 'e2e-oidc-client-secret',
        OIDC_LABEL: 'Campus Login',
        // The e2e accounts' domain (e2e/accounts.ts): their faculty sign-ups are faculty at once.
        FACULTY_EMAIL_DOMAINS: 'uni.example',
        // The circulation journey moves the clock forward, after every other spec has run.
        TEST_CLOCK: 'on',
      },
    },
  ],
});
