import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db/client.ts';
import { startServerProcess } from './test/process.ts';

/**
 * True while a process of the process group `groupId` still runs. Zombies do not count: they have
 * exited and wait for whoever adopted them to collect them, which in a container without an init
 * process (`docker run` without `--init`) is never; esbuild's helpers, whose parent exited first,
 * end up so.
 */
function groupIsAlive(groupId: number): boolean {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // Gone meanwhile.
    }
    // After the command name in parentheses: state, parent, process group.
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(group) === groupId && state !== 'Z') return true;
  }
  return false;
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
      // Its own process group, so that whatever npm starts can be looked for afterwards.
      const npm = await startServerProcess(
        { DATA_DIR: dataDir },
        { command: ['npm', 'start'], detached: true, startTimeoutMs: 90_000 },
      );
      const groupId = npm.child.pid!;
      try {
        expect(npm.output().match(/running at/g)).toHaveLength(1);
        expect(npm.output()).not.toContain('Server listening at');
        expect((await fetch(`${npm.url}/api/health`)).status).toBe(200);

        const asked = Date.now();
        const code = await Promise.race([
          npm.stop(signal),
          new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 10_000)),
        ]);
        expect(code, npm.output()).not.toBe('late');
        expect(Date.now() - asked).toBeLessThan(10_000);
        expect(npm.output()).toContain('shutdown complete');
        expect(groupIsAlive(groupId)).toBe(false);
        await expect(fetch(`${npm.url}/api/health`)).rejects.toThrow();
      } finally {
        if (groupIsAlive(groupId)) process.kill(-groupId, 'SIGKILL');
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
