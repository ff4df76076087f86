import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * better-auth's password hash, unchanged: scrypt with N = 16384, r = 16, p = 1, a 64-byte key,
 * stored as `<salt>:<key>` in hex, the salt's 32 hex characters themselves being scrypt's salt
 * (`@better-auth/utils/password`). Hashes made before and after this module verify alike.
 */
export const SCRYPT = { N: 16384, r: 16, p: 1, keyLength: 64 } as const;

/**
 * How many passwords are hashed at once: one per core, at most 4 (libuv's default pool, which
 * better-auth's own hashing used; each hash holds 32 MiB while it runs).
 */
export const PASSWORD_THREADS = Math.max(1, Math.min(4, availableParallelism()));

/**
 * The hashing threads' nice value. On Linux each lowers its own priority, so the event loop
 * (chat, pages, every other request) gets a core first and a sign-in storm takes what is left;
 * elsewhere the threads keep the normal priority. The lowest there is: at 10 a thread sharing a
 * core with the event loop still had a tenth of it, and on PGlite (whose database runs in that
 * loop) the chat's p99 in a storm was 2.0–2.4 × quiet; at 19, 1.7–1.9 × with as many sign-ins
 * (bench/README.md, "Sign-in storm"; decision 011).
 */
export const PASSWORD_THREAD_NICE = 19;

/**
 * A hashing thread with nothing to do for this long exits. Each keeps what its last scrypt used
 * (about 35 MB: its 32 MiB stays in the thread's allocator) for as long as it lives, so after a
 * burst of sign-ins the server gives that back instead of holding it beside its sockets
 * (bench/README.md, "Memory"). A minute, not less: at 10 s every storm of sign-ins a little apart
 * started its threads again on busy cores, and the chat's p99 in a storm rose from under 2 × quiet
 * to 2.2–3.5 × on PGlite (bench/README.md, "Sign-in storm"); at a minute the 2,000-socket memory
 * budget still holds.
 */
export const PASSWORD_THREAD_IDLE_MS = 60_000;

/**
 * The worker's whole program, plain JavaScript so it needs no TypeScript loader. It hashes with
 * the synchronous scrypt: in a worker that blocks only the worker, and keeps libuv's pool (files,
 * DNS, WebCrypto's HMAC for cookies) free.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { randomBytes, scryptSync, timingSafeEqual } = require('node:crypto');
const { readlinkSync } = require('node:fs');
const { setPriority } = require('node:os');
const { N, r, p, keyLength, nice } = workerData;
try {
  // /proc/thread-self names this thread; setpriority on a thread id changes that thread alone.
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), nice);
} catch {
  // Not Linux, or not allowed: the normal priority.
}
const derive = (password, salt) =>
  scryptSync(password.normalize('NFKC'), salt, keyLength, { N, r, p, maxmem: 128 * N * r * 2 });
parentPort.on('message', ({ id, op, password, hash }) => {
  try {
    if (op === 'hash') {
      const salt = randomBytes(16).toString('hex');
      parentPort.postMessage({ id, result: salt + ':' + derive(password, salt).toString('hex') });
      return;
    }
    const [salt, key] = String(hash).split(':');
    if (!salt || !key) throw new Error('Invalid password hash');
    const expected = Buffer.from(key, 'hex');
    const actual = derive(password, salt);
    parentPort.postMessage({
      id,
      result: expected.length === actual.length && timingSafeEqual(expected, actual),
    });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

interface Job {
  id: number;
  op: 'hash' | 'verify';
  password: string;
  hash?: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** Hashes and verifies passwords the way better-auth does, in a few low-priority threads. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(input: { hash: string; password: string }): Promise<boolean>;
}

/**
 * A pool of `threads` hashing workers, started on first use. A worker holds the process open only
 * while it has a job (a script awaiting a hash still finishes; an idle server exits as before).
 */
export function createPasswordHasher(
  options: { threads?: number; nice?: number; idleMs?: number } = {},
): PasswordHasher & { readonly threads: number } {
  const threads = options.threads ?? PASSWORD_THREADS;
  const nice = options.nice ?? PASSWORD_THREAD_NICE;
  const idleMs = options.idleMs ?? PASSWORD_THREAD_IDLE_MS;
  /** The idle workers, each with the timer that ends it after `idleMs`. */
  const idle = new Map<Worker, NodeJS.Timeout>();
  const busy = new Map<Worker, Job>();
  const queue: Job[] = [];
  let started = 0;
  let nextId = 0;

  const dispatch = (worker: Worker) => {
    const job = queue.shift();
    if (!job) {
      worker.unref();
      idle.set(worker, setTimeout(() => void worker.terminate(), idleMs).unref());
      return;
    }
    busy.set(worker, job);
    worker.ref();
    worker.postMessage({ id: job.id, op: job.op, password: job.password, hash: job.hash });
  };

  const start = () => {
    started += 1;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      // Not the parent's flags: a TypeScript loader would cost every worker time and memory.
      execArgv: [],
      workerData: { ...SCRYPT, nice },
    });
    worker.on('message', (message: { id: number; result?: unknown; error?: string }) => {
      const job = busy.get(worker);
      busy.delete(worker);
      if (job?.id === message.id) {
        if (message.error !== undefined) job.reject(new Error(message.error));
        else job.resolve(message.result);
      }
      dispatch(worker);
    });
    // A worker that dies (out of memory, terminated) fails its job only; another replaces it.
    worker.on('exit', () => {
      started -= 1;
      clearTimeout(idle.get(worker));
      idle.delete(worker);
      const job = busy.get(worker);
      busy.delete(worker);
      job?.reject(new Error('The password hashing thread stopped.'));
      if (queue.length > 0) dispatch(start());
    });
    worker.on('error', () => {}); // 'exit' follows
    return worker;
  };

  /** An idle worker, its exit called off, if there is one. */
  const takeIdle = () => {
    for (const [worker, timer] of idle) {
      clearTimeout(timer);
      idle.delete(worker);
      return worker;
    }
    return undefined;
  };

  const run = <T>(op: Job['op'], password: string, hash?: string) =>
    new Promise<T>((resolve, reject) => {
      queue.push({
        id: nextId++,
        op,
        password,
        hash,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      const worker = takeIdle() ?? (started < threads ? start() : undefined);
      if (worker) dispatch(worker);
    });

  return {
    hash: (password) => run<string>('hash', password),
    verify: ({ hash, password }) => run<boolean>('verify', password, hash),
    /** How many hashing threads are running now, busy or idle. */
    get threads() {
      return started;
    },
  };
}

/** The process's one pool: every better-auth instance (the app's, the tests') shares it. */
export const passwordHasher = createPasswordHasher();
