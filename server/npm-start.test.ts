import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../scripts/lib/free-port.ts';
import { openDatabase } from './db/client.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

/** True while any process of the process group `groupId` is alive. */
function groupIsAlive(groupId: number): boolean {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// What a process manager or a container stop does: SIGTERM (or SIGINT) to the npm process, not to
// the server under it. Before, npm's shell went and left the server running.
describe('npm start', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'digi-npm-start-'));
  });
  afterAll(async () => rm(dataDir, { recursive: true, force: true }));

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`stops within 10 s on ${signal} to npm, leaves no process behind, and the data reopens`, async () => {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      // Its own process group, so that whatever npm starts can be looked for afterwards.
      const npm = spawn('npm', ['start'], {
        cwd: ROOT,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          NODE_ENV: 'production',
          AUTH_SECRET: 'npm-start-test-secret-0123456789abcdefghij',
          LOG_LEVEL: 'info',
          HOST: '127.0.0.1',
          PORT: String(port),
          PUBLIC_URL: url,
          DATA_DIR: dataDir,
        },
      });
      let output = '';
      const exited = new Promise<number | null>((resolve) =>
        npm.once('exit', (code) => resolve(code)),
      );
      try {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no start in time:\n${output}`)), 90_000);
          const onData = (chunk: Buffer) => {
            output += chunk.toString();
            if (output.includes('Digi Library is running at')) {
              clearTimeout(timer);
              resolve();
            }
          };
          npm.stdout.on('data', onData);
          npm.stderr.on('data', onData);
          void exited.then((code) =>
            reject(new Error(`npm start exited with ${code}:\n${output}`)),
          );
        });
        expect(output.match(/running at/g)).toHaveLength(1);
        expect(output).not.toContain('Server listening at');
        expect((await fetch(`${url}/api/health`)).status).toBe(200);

        const asked = Date.now();
        npm.kill(signal);
        const code = await Promise.race([
          exited,
          new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 10_000)),
        ]);
        expect(code, output).not.toBe('late');
        expect(Date.now() - asked).toBeLessThan(10_000);
        expect(output).toContain('shutdown complete');
        expect(groupIsAlive(npm.pid!)).toBe(false);
        await expect(fetch(`${url}/api/health`)).rejects.toThrow();
      } finally {
        if (groupIsAlive(npm.pid!)) process.kill(-npm.pid!, 'SIGKILL');
      }

      // Closed cleanly: the lock is released and the database opens and answers.
      const database = await openDatabase({ dataDir });
      try {
        const { rows } = await sql<{
          count: number;
        }>`SELECT count(*)::int AS count FROM items`.execute(database.db);
        expect(rows[0]!.count).toBeGreaterThan(0);
      } finally {
        await database.close();
      }
    }, 120_000);
  }
});
