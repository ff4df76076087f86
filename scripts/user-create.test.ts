import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.ts';
import { openDatabase } from '#server/db/client.ts';
import { migrate } from '#server/db/migrate.ts';
import { testConfig } from '#server/test/app.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

function userCreate(dataDir: string, args: string[], input: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'scripts/user-create.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'development' },
    input,
    encoding: 'utf8',
  });
}

describe('npm run user:create', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'digi-user-create-'));
  });
  afterAll(async () => rm(dataDir, { recursive: true, force: true }));

  it('creates a librarian who can sign in and lands as staff', async () => {
    const result = userCreate(
      dataDir,
      ['--email', 'Desk@Uni.Example', '--role', 'librarian', '--first-name', 'Mary'],
      'a librarian passphrase\n',
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Created librarian desk@uni.example');

    const config = testConfig({ DATA_DIR: dataDir });
    const database = await openDatabase({ dataDir });
    const app = await buildApp({
      config: { ...config, authSecret: undefined },
      database,
      webRoot: '/nonexistent',
    });
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/api/users/login',
        payload: { email: 'desk@uni.example', password: 'a librarian passphrase' },
      });
      expect(login.json()).toEqual({
        success: true,
        payload: { role: 'librarian' },
        message: 'Login successful',
      });
      // Staff made the account: its address counts as verified (decision 026).
      const made = await database.db
        .selectFrom('users')
        .select('email_verified')
        .where('email', '=', 'desk@uni.example')
        .executeTakeFirstOrThrow();
      expect(made.email_verified).toBe(true);
    } finally {
      await app.close();
      await database.close();
    }
  });

  it('gives an existing account a new role without touching its password', () => {
    const result = userCreate(dataDir, ['--email', 'desk@uni.example', '--role', 'faculty'], '');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('its role is now faculty (was librarian)');
  });

  it('refuses a bad role, a bad e-mail and a weak password, saying why', () => {
    expect(
      userCreate(dataDir, ['--email', 'x@uni.example', '--role', 'admin'], '').stderr,
    ).toContain('--role must be one of');
    expect(userCreate(dataDir, ['--email', 'nope'], '').stderr).toContain('Give a valid --email');
    const weak = userCreate(dataDir, ['--email', 'weak@uni.example'], 'short\n');
    expect(weak.status).toBe(1);
    expect(weak.stderr).toContain('Password must be at least 8 characters');
    expect(userCreate(dataDir, ['--email', 'weak@uni.example'], 'password123\n').stderr).toContain(
      'This password is too easy to guess. This is a commonly used password.',
    );
    // The person's own e-mail, and nothing at all piped in.
    expect(
      userCreate(dataDir, ['--email', 'weak@uni.example'], 'Weak@Uni.Example\n').stderr,
    ).toContain('your name, your e-mail or the library’s name');
    const nothing = userCreate(dataDir, ['--email', 'weak@uni.example'], '');
    expect(nothing.status).toBe(1);
    expect(nothing.stderr).toContain('Password must be at least 8 characters');
  });

  it('works while the server has the embedded database open: the server applies it', async () => {
    const running = await mkdtemp(path.join(tmpdir(), 'digi-user-create-running-'));
    const config = testConfig({ DATA_DIR: running });
    const database = await openDatabase({ dataDir: running });
    await migrate(database);
    const app = await buildApp({
      config: { ...config, authSecret: undefined },
      database,
      webRoot: '/nonexistent',
    });
    try {
      const created = await userCreateAsync(
        running,
        ['--email', 'night@uni.example', '--role', 'librarian', '--first-name', 'Nia'],
        'a night desk passphrase\n',
      );
      expect(created.stdout).toContain('The server is running on this database');
      expect(created.stdout).toContain('Created librarian night@uni.example');
      expect(created.status).toBe(0);
      const login = await app.inject({
        method: 'POST',
        url: '/api/users/login',
        payload: { email: 'night@uni.example', password: 'a night desk passphrase' },
      });
      expect(login.json()).toMatchObject({ success: true, payload: { role: 'librarian' } });

      const changed = await userCreateAsync(
        running,
        ['--email', 'night@uni.example', '--role', 'faculty'],
        '',
      );
      expect(changed.stdout).toContain('its role is now faculty (was librarian)');
      const me = await database.db
        .selectFrom('users')
        .select(['role', 'first_name', 'profile_completed', 'email_verified'])
        .where('email', '=', 'night@uni.example')
        .executeTakeFirstOrThrow();
      expect(me).toEqual({
        role: 'faculty',
        first_name: 'Nia',
        profile_completed: true,
        email_verified: true,
      });
    } finally {
      await app.close();
      await database.close();
      await rm(running, { recursive: true, force: true });
    }
  }, 60_000);
});

/** `userCreate` without blocking this process, whose server must answer the command meanwhile. */
function userCreateAsync(dataDir: string, args: string[], input: string) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/user-create.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'development' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end(input);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
