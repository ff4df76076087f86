import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AlreadyLockedError,
  LOCK_FILE_NAME,
  lockDataDir,
  type LockEnvironment,
} from './data-dir-lock.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const DEAD_PID = 999_999_999;

/** Stands for another process: its own pid, with `alive` the pids it believes are running. */
function processNamed(pid: number, alive: number[], extra: Partial<LockEnvironment> = {}) {
  return {
    pid,
    isAlive: (candidate: number) => alive.includes(candidate),
    heldTokens: new Set<string>(),
    takeoverWaitMs: 50,
    ...extra,
  } satisfies LockEnvironment;
}

const busy = (pid: number, dataDir: string) =>
  `Another Digi Library process (pid ${pid}) is using the database in ${dataDir}. Stop it first, or set DATA_DIR to another folder.`;

describe('the DATA_DIR lock', () => {
  let dataDir: string;
  let lockFile: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'digi-lock-'));
    lockFile = path.join(dataDir, LOCK_FILE_NAME);
  });
  afterEach(async () => rm(dataDir, { recursive: true, force: true }));

  it('names its owner, leaves no temporary files, and is gone once released', async () => {
    const release = lockDataDir(dataDir);
    expect(readFileSync(lockFile, 'utf8').split('\n')[0]).toBe(String(process.pid));
    expect(await readdir(dataDir)).toEqual([LOCK_FILE_NAME]);
    release();
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('refuses a folder held by another live process, naming the process and the folder', async () => {
    // pid 1 is always alive.
    await writeFile(lockFile, '1\nsome-token\n');
    expect(() => lockDataDir(dataDir)).toThrow(busy(1, dataDir));
    expect(readFileSync(lockFile, 'utf8')).toBe('1\nsome-token\n');
  });

  it('refuses the same process opening the folder twice, and allows it again once released', () => {
    const release = lockDataDir(dataDir);
    expect(() => lockDataDir(dataDir)).toThrow(AlreadyLockedError);
    release();
    lockDataDir(dataDir)();
  });

  it("takes over a lock with this process's pid but not its token: an earlier process with the same pid (pid 1 in a container)", async () => {
    await writeFile(lockFile, String(process.pid));
    const release = lockDataDir(dataDir);
    expect(readFileSync(lockFile, 'utf8')).not.toBe(String(process.pid));
    release();
  });

  it('of two takeovers of one stale lock, exactly one wins: a rival that finishes first', async () => {
    await writeFile(lockFile, `${DEAD_PID}\nstale\n`);
    const outcomes: string[] = [];
    const rival = processNamed(2002, [1001, 2002]);
    const first = processNamed(1001, [1001, 2002], {
      // The rival reads the same stale lock and takes it over while this one is between its
      // read and its takeover.
      onStep: (step, file) => {
        if (step !== 'stale' || file !== lockFile || outcomes.length > 0) return;
        lockDataDir(dataDir, rival);
        outcomes.push('rival won');
      },
    });
    expect(() => lockDataDir(dataDir, first)).toThrow(busy(2002, dataDir));
    expect(outcomes).toEqual(['rival won']);
    expect(readFileSync(lockFile, 'utf8').split('\n')[0]).toBe('2002');
    expect(await readdir(dataDir)).toEqual([LOCK_FILE_NAME]);
  });

  it('of two takeovers of one stale lock, exactly one wins: a rival arriving once the first holds the guard', async () => {
    await writeFile(lockFile, `${DEAD_PID}\nstale\n`);
    let rivalError: unknown;
    const rival = processNamed(2002, [1001, 2002]);
    const first = processNamed(1001, [1001, 2002], {
      onStep: (step, file) => {
        if (step !== 'guarded' || file !== lockFile || rivalError) return;
        try {
          lockDataDir(dataDir, rival);
        } catch (error) {
          rivalError = error;
        }
      },
    });
    const release = lockDataDir(dataDir, first);
    // The rival waited for the takeover it found under way, then gave up naming its taker.
    expect(rivalError).toEqual(new Error(busy(1001, dataDir)));
    expect(readFileSync(lockFile, 'utf8').split('\n')[0]).toBe('1001');
    release();
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('takes over a takeover guard left by a process killed half-way, one level down', async () => {
    const stale = `${DEAD_PID}\nstale\n`;
    await writeFile(lockFile, stale);
    const guardName = `${LOCK_FILE_NAME}.takeover-${createHash('sha256').update(stale).digest('hex').slice(0, 16)}`;
    await writeFile(path.join(dataDir, guardName), `${DEAD_PID - 1}\nkilled\n`);
    const release = lockDataDir(dataDir);
    expect(await readdir(dataDir)).toEqual([LOCK_FILE_NAME]);
    release();
  });

  it('lets exactly one of several processes started at once take over a stale lock', async () => {
    await writeFile(lockFile, `${DEAD_PID}\nstale\n`);
    const script = `
      const { pathToFileURL } = await import('node:url');
      const [modulePath, dataDir] = process.argv.slice(1);
      const { lockDataDir } = await import(pathToFileURL(modulePath).href);
      process.stdout.write('ready\\n');
      process.stdin.once('data', () => {
        try {
          const release = lockDataDir(dataDir);
          process.stdout.write('won\\n');
          setTimeout(() => { release(); process.exit(0); }, 1500);
        } catch (error) {
          process.stdout.write('lost: ' + error.message + '\\n');
          process.exit(0);
        }
      });
    `;
    const children = Array.from({ length: 4 }, () => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          '--input-type=module',
          '--eval',
          script,
          path.join(ROOT, 'server/db/data-dir-lock.ts'),
          dataDir,
        ],
        { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const ready = new Promise<void>((resolve) =>
        child.stdout.on('data', () => output.includes('ready') && resolve()),
      );
      const exited = new Promise<string>((resolve) => child.once('exit', () => resolve(output)));
      return { child, ready, exited };
    });
    await Promise.all(children.map((entry) => entry.ready));
    // All of them go at once, each between reading the stale lock and taking it over.
    for (const { child } of children) child.stdin.write('go\n');
    const outputs = await Promise.all(children.map((entry) => entry.exited));
    const results = outputs.map((output) => output.replace('ready\n', '').trim());
    expect(results.filter((result) => result === 'won')).toHaveLength(1);
    const winner = children[results.indexOf('won')]!.child.pid;
    for (const result of results.filter((line) => line !== 'won'))
      expect(result).toBe(`lost: ${busy(winner!, dataDir)}`);
    expect(await readdir(dataDir)).toEqual([]);
  }, 30_000);
});
