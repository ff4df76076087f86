import { createHash, randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The lock file's name inside DATA_DIR. */
export const LOCK_FILE_NAME = 'pglite.lock';

/**
 * How long a start waits for another process that is taking over the same stale lock: the
 * takeover is a few file operations, so only a process stopped half-way (a debugger, SIGSTOP)
 * makes anyone wait this long.
 */
export const TAKEOVER_WAIT_MS = 2_000;

/** Nested takeovers before giving up: each level needs a process killed inside a takeover. */
const TAKEOVER_DEPTH_MAX = 3;

/**
 * The world as the lock sees it. The server uses the real one; tests replace the process id and
 * the liveness check to stand for other processes, and use `onStep` to run a rival's whole
 * attempt inside this one's, at the two points where a race matters.
 */
export interface LockEnvironment {
  pid: number;
  isAlive(pid: number): boolean;
  /** Tokens of the locks this process holds now: a lock naming one of them is its own. */
  heldTokens: Set<string>;
  takeoverWaitMs: number;
  /** `stale`: a dead owner's lock was just read. `guarded`: its takeover guard was just won. */
  onStep?(step: 'stale' | 'guarded', file: string): void;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const REAL_ENVIRONMENT: LockEnvironment = {
  pid: process.pid,
  isAlive: processIsAlive,
  heldTokens: new Set(),
  takeoverWaitMs: TAKEOVER_WAIT_MS,
};

/** Thrown when the same process asks again for a folder it already holds. */
export class AlreadyLockedError extends Error {}

/** Another live process holds the folder's lock (a running server, most often). */
export class HeldByAnotherProcessError extends Error {}

/**
 * PGlite's files may be opened by one process only; a second one would corrupt them. A lock file
 * naming the owner's pid refuses a second server (or `db:migrate`) on the same DATA_DIR, and a
 * lock left by a process that died is taken over. Returns the function that releases it.
 *
 * Every change to the lock file is atomic, so two processes starting together cannot both go on:
 * - A new lock is written whole to a temporary file and hard-linked to `pglite.lock`, which fails
 *   when the name exists: exactly one creator wins, and nobody ever reads a half-written lock.
 * - A stale lock is replaced only by the one process that creates its takeover guard,
 *   `pglite.lock.takeover-<hash of the stale content>` (the same exclusive link). The winner checks
 *   that the lock still holds that same stale content and renames its own lock over it (a rename
 *   replaces atomically, so the name never goes missing for a third process to grab). A process
 *   that read the same stale lock and finds the guard taken waits for the winner, then sees a live
 *   owner and stops. Each lock carries a random token, so a lock that was replaced and went stale
 *   again has another guard. A guard left by a process killed mid-takeover is itself stale, and is
 *   taken over the same way one level down.
 *
 * The same process asking again for a folder it holds is refused (AlreadyLockedError): two PGlite
 * instances on the same files corrupt them as surely as two processes. A lock that names this
 * process's pid but none of its tokens was left by an earlier process that had the same pid (a
 * container's server is often pid 1 on every start), and is stale.
 */
export function lockDataDir(
  dataDir: string,
  environment: LockEnvironment = REAL_ENVIRONMENT,
): () => void {
  const lockFile = path.join(dataDir, LOCK_FILE_NAME);
  const token = randomBytes(12).toString('hex');
  const content = `${environment.pid}\n${token}\n`;
  const owner = acquire(lockFile, content, environment, 0);
  if (owner === 'self') {
    throw new AlreadyLockedError(
      `This process already has the database in ${dataDir} open; close it before opening it again.`,
    );
  }
  if (owner !== undefined) {
    throw new HeldByAnotherProcessError(
      `Another Digi Library process (pid ${owner}) is using the database in ${dataDir}. Stop it first, or set DATA_DIR to another folder.`,
    );
  }
  environment.heldTokens.add(token);
  return () => {
    environment.heldTokens.delete(token);
    removeIfHolding(lockFile, content);
  };
}

/** What a lock file says: its owner's pid and token (an older version wrote the pid alone). */
function parseLock(text: string): { pid: number; token: string } {
  const [pid = '', token = ''] = text.trim().split(/\s+/);
  return { pid: Number(pid), token };
}

/**
 * Makes `file` hold `content` when it is absent or stale. Returns undefined when it does, the
 * live owner's pid when another process holds it, or 'self' when this process already does.
 */
function acquire(
  file: string,
  content: string,
  environment: LockEnvironment,
  depth: number,
): number | 'self' | undefined {
  const deadline = Date.now() + environment.takeoverWaitMs;
  for (;;) {
    if (createExclusive(file, content)) return undefined;
    const current = readText(file);
    // Released between our attempt and our read: try to create it again.
    if (current === undefined) continue;
    const owner = parseLock(current);
    if (environment.heldTokens.has(owner.token)) return 'self';
    const live =
      Number.isInteger(owner.pid) &&
      owner.pid > 0 &&
      owner.pid !== environment.pid &&
      environment.isAlive(owner.pid);
    if (live) return owner.pid;

    environment.onStep?.('stale', file);
    if (depth >= TAKEOVER_DEPTH_MAX) {
      throw new Error(
        `Could not take over the stale lock ${file}: stop every Digi Library process using ${path.dirname(file)}, then delete the files named ${LOCK_FILE_NAME}*.`,
      );
    }
    const guard = `${file}.takeover-${createHash('sha256').update(current).digest('hex').slice(0, 16)}`;
    const taker = acquire(guard, content, environment, depth + 1);
    if (taker === undefined) {
      try {
        environment.onStep?.('guarded', file);
        // Only the guard's holder replaces this stale content, so if the file still holds it
        // now, nobody else can change it before the rename.
        if (readText(file) === current) {
          replaceWith(file, content);
          return undefined;
        }
      } finally {
        removeIfHolding(guard, content);
      }
      continue;
    }
    // Another live process is taking the same stale lock over; in a moment it holds the lock.
    if (Date.now() >= deadline) return taker;
    pause(10);
  }
}

/** A file beside `file` that nobody else names. */
const temporaryName = (file: string) => `${file}.${randomBytes(8).toString('hex')}.tmp`;

/** Creates `file` holding `content`, complete from its first instant; false when it exists. */
function createExclusive(file: string, content: string): boolean {
  const temporary = temporaryName(file);
  writeFileSync(temporary, content, { flag: 'wx' });
  try {
    linkSync(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(temporary);
  }
}

/** Replaces `file` with one holding `content`, in one step. */
function replaceWith(file: string, content: string): void {
  const temporary = temporaryName(file);
  writeFileSync(temporary, content, { flag: 'wx' });
  try {
    renameSync(temporary, file);
  } catch (error) {
    unlinkSync(temporary);
    throw error;
  }
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Deletes `file` if it is still ours: nobody replaces a live holder's lock, so it cannot change in between. */
function removeIfHolding(file: string, content: string): void {
  try {
    if (readText(file) === content) unlinkSync(file);
  } catch {
    // Already gone: nothing to release.
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Blocks for `ms`: the lock is taken once at start-up, before anything else runs. */
function pause(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
