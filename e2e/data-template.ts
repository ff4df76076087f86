/**
 * `node --import tsx e2e/data-template.ts <DATA_DIR>`: fills a new end-to-end data folder before
 * Playwright starts the server on it.
 *
 * The server must listen within Playwright's start-up limit, and a 2-core machine busy with other
 * work took over a minute just to import the 10,000-book catalogue first. So the database is built
 * once (real catalogue when the shared data is beside the repository, the desk's librarian, demo
 * data), kept as a template under node_modules/.cache, and each run gets a copy, which takes a
 * second. The template is rebuilt whenever a file that shapes its contents changes (migrations,
 * importers, seed, accounts), so a run never starts from a stale schema.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import { E2E_LIBRARIAN } from './accounts.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'digi-e2e-data');

/** The real catalogue the end-to-end server imports when the shared data is there (always in CI). */
export const SHARED_BOOKS = path.resolve(
  ROOT,
  '..',
  'shared',
  'data',
  'books',
  'goodbooks-10k_books.csv',
);

/** What the template's contents depend on: the code that writes them, and the books file. */
const INPUTS = [
  'server/db',
  'server/catalogue',
  'server/auth',
  'server/commands',
  'server/users',
  'server/chat',
  'server/config.ts',
  'scripts/import.ts',
  'scripts/user-create.ts',
  'e2e/accounts.ts',
  'e2e/data-template.ts',
];

function sourceFiles(entry: string): string[] {
  const full = path.join(ROOT, entry);
  if (!statSync(full).isDirectory()) return [full];
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .map((name) => path.join(full, name))
    .filter((file) => /\.(ts|sql|csv|json|txt)$/.test(file) && !/\.test\.ts$/.test(file))
    .sort();
}

/** A short hash of every input, so a change to any of them builds a new template. */
export function templateKey(realCatalogue: boolean): string {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(sourceFiles)) {
    hash.update(path.relative(ROOT, file));
    hash.update(readFileSync(file));
  }
  if (realCatalogue) {
    const { size, mtimeMs } = statSync(SHARED_BOOKS);
    hash.update(`books:${size}:${mtimeMs}`);
  }
  return hash.digest('hex').slice(0, 16);
}

function runNode(args: string[], dataDir: string, input?: string): void {
  execFileSync(process.execPath, args, {
    cwd: ROOT,
    input,
    stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'inherit'],
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'development' },
  });
}

/** Builds the template in a folder of its own, then moves it into place whole. */
function buildTemplate(template: string, realCatalogue: boolean): void {
  const building = `${template}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  try {
    const started = Date.now();
    console.log(
      '[e2e] preparing the end-to-end database once (it is reused until its code changes)',
    );
    if (realCatalogue) {
      // As `npm run import` runs it: compiled ahead, with its small-memory flags.
      runNode(
        [
          '--v8-pool-size=1',
          '--max-semi-space-size=4',
          'scripts/run-compiled.mjs',
          'scripts/import.ts',
          'books',
          SHARED_BOOKS,
        ],
        building,
      );
    }
    // The desk's librarian, made the only way a librarian is made: the user:create command.
    runNode(
      [
        '--import',
        'tsx',
        'scripts/user-create.ts',
        '--email',
        E2E_LIBRARIAN.email,
        '--role',
        'librarian',
        '--first-name',
        E2E_LIBRARIAN.firstName,
        '--last-name',
        E2E_LIBRARIAN.lastName,
      ],
      building,
      `${E2E_LIBRARIAN.password}\n`,
    );
    // Migrations and demo data, as the server's own start applies them.
    runNode(['--import', 'tsx', 'e2e/seed-data-dir.ts'], building);
    try {
      renameSync(building, template);
    } catch (error) {
      // Another run built the same template meanwhile: theirs is as good as ours.
      if (!existsSync(template)) throw error;
      rmSync(building, { recursive: true, force: true });
    }
    console.log(`[e2e] database prepared in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    throw error;
  }
}

/** Fills `dataDir` (new or empty) with a copy of the current template, building it if needed. */
export function prepareDataDir(dataDir: string): void {
  const realCatalogue = existsSync(SHARED_BOOKS);
  const key = templateKey(realCatalogue);
  const template = path.join(CACHE, key);
  mkdirSync(CACHE, { recursive: true });
  if (!existsSync(template)) {
    buildTemplate(template, realCatalogue);
    // Older templates are for code that is gone.
    for (const entry of readdirSync(CACHE)) {
      if (entry !== key && !entry.includes('.building-')) {
        rmSync(path.join(CACHE, entry), { recursive: true, force: true });
      }
    }
  }
  cpSync(template, dataDir, { recursive: true });
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const target = process.argv[2];
  if (!target) {
    console.error('Usage: node --import tsx e2e/data-template.ts <DATA_DIR>');
    process.exit(1);
  }
  try {
    prepareDataDir(path.resolve(target));
  } catch (error) {
    // The step's own message is above (its standard error is passed through); say which step.
    console.error(
      `[e2e] could not prepare the database: ${(error as Error).message.split('\n')[0]}`,
    );
    process.exit(1);
  }
}
