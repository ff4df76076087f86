import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.ts';

/** A private, throwaway PostgreSQL server for one test or benchmark run. */
export interface PostgresCluster {
  /** Connection string of the `postgres` database as the `postgres` superuser. */
  url: string;
  /**
   * Stops the server as an administrator would (`pg_ctl stop -m fast`: sessions are ended with
   * 57P01 admin_shutdown) and keeps its data, for outage tests; `resume()` starts it again.
   */
  pause(): void;
  /** Starts a paused server again on the same data folder and port. */
  resume(): void;
  /** A fast restart: `pause()` then `resume()` at once, as an administrator's `pg_ctl restart`. */
  restart(): void;
  stop(): void;
}

/** The folder holding initdb and pg_ctl of the newest installed PostgreSQL, if any. */
export function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(path.join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : undefined;
}

/**
 * Starts a fresh cluster in a temporary folder on a free loopback port, trusting local
 * connections. PostgreSQL refuses to run as root, so as root it runs as the `postgres` user.
 */
export async function startPostgresCluster(bin: string): Promise<PostgresCluster> {
  const folder = mkdtempSync(path.join(tmpdir(), 'digi-pg-'));
  const dataDir = path.join(folder, 'data');
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[]) => {
    const file = path.join(bin, command);
    const result = asRoot
      ? spawnSync('su', ['postgres', '-s', '/bin/sh', '-c', [file, ...args].map(quote).join(' ')], {
          cwd: '/',
          encoding: 'utf8',
        })
      : spawnSync(file, args, { encoding: 'utf8' });
    if (result.status !== 0) {
      throw new Error(
        `${command} failed: ${result.stderr || result.stdout || result.error?.message}`,
      );
    }
  };
  if (asRoot) {
    chmodSync(folder, 0o755);
    execFileSync('chown', ['postgres', folder]);
  }
  run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const start = () =>
    run('pg_ctl', [
      '-D',
      dataDir,
      '-l',
      path.join(folder, 'server.log'),
      '-o',
      `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
      '-w',
      'start',
    ]);
  start();
  const pause = () => run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    pause,
    resume: start,
    restart() {
      pause();
      start();
    },
    stop() {
      try {
        // A paused server has nothing to stop.
        if (existsSync(path.join(dataDir, 'postmaster.pid')))
          run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}

/** Whether the PostgreSQL server at `url` could create the extension `name` (its files are installed). */
export async function extensionInstalled(url: string, name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT 1 FROM pg_available_extensions WHERE name = $1', [
      name,
    ]);
    return rows.length > 0;
  } finally {
    await client.end();
  }
}

function quote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
