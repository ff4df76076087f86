import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

function migrateCommand(env: Record<string, string>) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'scripts/db-migrate.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
}

describe('npm run db:migrate', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'digi-migrate-'));
  });
  afterAll(async () => rm(dataDir, { recursive: true, force: true }));

  it('applies pending migrations, then reports the database up to date', () => {
    const first = migrateCommand({ DATA_DIR: dataDir });
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/Applied \d+ migration\(s\) to pglite:\n {2}\d{14}_/);
    const second = migrateCommand({ DATA_DIR: dataDir });
    expect(second.status).toBe(0);
    expect(second.stdout).toContain('Database (pglite) is up to date.');
  });

  it('fails with a clear message on bad configuration', () => {
    const result = migrateCommand({ DATA_DIR: dataDir, DATABASE_URL: 'mysql://nope' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('DATABASE_URL: must be a postgres:// or postgresql:// URL');
  });
});
