import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { Refusal } from '../refusal.ts';
import { PASSWORD_THREAD_NICE } from './password.ts';

/**
 * The lowest zxcvbn score (0 to 4) a new password may have. 3 means zxcvbn estimates at least
 * 10^8 guesses: out of reach online behind our rate limits, and offline at least hours per
 * account even at zxcvbn's cautious 10^4 slow hashes a second (our scrypt is far slower). 4 (10^10)
 * would refuse two-word passphrases such as "file cabinet" that the length rule lets through;
 * below 3, leaked-password lists, keyboard walks and names with a year get in.
 */
export const MIN_PASSWORD_SCORE = 3;

/** The product's own name, which counts against a password whatever LIBRARY_NAME says. */
const PRODUCT_NAME = 'Digi Library';

/**
 * Only the first 64 characters are judged: zxcvbn's time grows steeply with length (a random
 * 128-character password took 3 s), and 64 characters that are hard to guess already are.
 */
const JUDGED_LENGTH = 64;

/**
 * A strength thread with nothing to do exits after this long and gives its memory back: its
 * dictionaries hold about 65 MB, which a server of 2,000 sockets must not keep for a minute after
 * each sign-up (bench/README.md, "Memory"). Someone making a password stronger tries again within
 * seconds; after a longer pause the thread builds its dictionaries again (about 0.3 s).
 */
const IDLE_MS = 10_000;

/**
 * zxcvbn's English feedback, with its warning about personal data said the way our screens speak.
 * The rest of its warnings and suggestions are plain English already.
 */
const WARNINGS = {
  userInputs:
    'Passwords with your name, your e-mail or the library’s name in them are easy to guess.',
};

/** Who and what a new password must not lean on: zxcvbn's "user inputs". */
export interface PasswordContext {
  /** The configured LIBRARY_NAME. */
  libraryName: string;
  email?: string;
  /** The person's names as they gave them: first, last, or a provider's full name. */
  names?: string[];
}

/** zxcvbn's verdict on one password. */
export interface PasswordVerdict {
  score: number;
  warning: string | null;
  suggestions: string[];
}

/**
 * The words zxcvbn counts against a password: each name, e-mail and library name whole, run
 * together, and word by word (zxcvbn matches each entry whole, lower-cased).
 */
export function passwordUserInputs(context: PasswordContext): string[] {
  const inputs = new Set<string>();
  const add = (text: string | undefined) => {
    const whole = text?.trim().toLowerCase();
    if (!whole) return;
    const words = whole.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    inputs.add(whole);
    inputs.add(words.join(''));
    // One- and two-letter pieces would match inside almost any password and mean nothing.
    for (const word of words) if (word.length >= 3) inputs.add(word);
  };
  add(PRODUCT_NAME);
  add(context.libraryName);
  add(context.email);
  add(context.email?.split('@')[0]);
  for (const name of context.names ?? []) add(name);
  add(context.names?.join(''));
  inputs.delete('');
  return [...inputs];
}

/**
 * The thread's whole program, plain JavaScript so it needs no TypeScript loader. zxcvbn is
 * synchronous and takes from milliseconds to half a second per password, and its dictionaries
 * take tens of MB of heap: both stay off the event loop.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { readlinkSync } = require('node:fs');
const { setPriority } = require('node:os');
try {
  // As the hashing threads do (password.ts): the event loop gets a core first.
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), workerData.nice);
} catch {
  // Not Linux, or not allowed: the normal priority.
}
const { ZxcvbnFactory } = require(workerData.modules.core);
const common = require(workerData.modules.common);
const en = require(workerData.modules.en);
const zxcvbn = new ZxcvbnFactory({
  dictionary: { ...common.dictionary, ...en.dictionary },
  graphs: common.adjacencyGraphs,
  translations: {
    ...en.translations,
    warnings: { ...en.translations.warnings, ...workerData.warnings },
  },
  maxLength: workerData.maxLength,
});
parentPort.on('message', ({ id, password, userInputs }) => {
  try {
    const { score, feedback } = zxcvbn.check(password, userInputs);
    parentPort.postMessage({
      id,
      verdict: { score, warning: feedback.warning || null, suggestions: feedback.suggestions },
    });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

interface Job {
  resolve(verdict: PasswordVerdict): void;
  reject(error: Error): void;
}

interface StrengthThread {
  check(password: string, userInputs: string[]): Promise<PasswordVerdict>;
}

let current: StrengthThread | undefined;
let nextId = 0;

/**
 * One thread loads the dictionaries once and judges every password in turn. It holds the process
 * open only while it has work (a script still exits), and leaves after a minute without any.
 */
function startThread(): StrengthThread {
  const require = createRequire(import.meta.url);
  const pending = new Map<number, Job>();
  let idleTimer: NodeJS.Timeout | undefined;
  let failure: Error | undefined;
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    // Not the parent's flags: a TypeScript loader would cost the thread time and memory.
    execArgv: [],
    // Building the dictionaries makes much short-lived garbage: a small young generation halves
    // the thread's memory (about 100 MB to 50 MB) and measured no slower.
    resourceLimits: { maxYoungGenerationSizeMb: 4 },
    workerData: {
      modules: {
        core: require.resolve('@zxcvbn-ts/core'),
        common: require.resolve('@zxcvbn-ts/language-common'),
        en: require.resolve('@zxcvbn-ts/language-en'),
      },
      warnings: WARNINGS,
      maxLength: JUDGED_LENGTH,
      nice: PASSWORD_THREAD_NICE,
    },
  });
  const thread: StrengthThread = {
    check(password, userInputs) {
      clearTimeout(idleTimer);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage({ id, password, userInputs });
      });
    },
  };
  worker.on('message', (message: { id: number; verdict?: PasswordVerdict; error?: string }) => {
    const job = pending.get(message.id);
    pending.delete(message.id);
    if (message.error !== undefined) job?.reject(new Error(message.error));
    else if (message.verdict) job?.resolve(message.verdict);
    if (pending.size > 0) return;
    worker.unref();
    idleTimer = setTimeout(() => {
      if (current === thread) current = undefined;
      void worker.terminate();
    }, IDLE_MS).unref();
  });
  worker.on('error', (error) => {
    failure = error;
  });
  // A thread that dies fails the passwords it held; the next check starts another.
  worker.on('exit', () => {
    if (current === thread) current = undefined;
    clearTimeout(idleTimer);
    for (const job of pending.values())
      job.reject(failure ?? new Error('The password strength thread stopped.'));
    pending.clear();
  });
  return thread;
}

/** zxcvbn's verdict on `password`, counting the person's and the library's names against it. */
export function judgePassword(
  password: string,
  context: PasswordContext,
): Promise<PasswordVerdict> {
  current ??= startThread();
  return current.check(password, passwordUserInputs(context));
}

/**
 * Why `password` is too easy to guess, in words for the person choosing it (zxcvbn's warning and
 * suggestions), or `undefined` when it is strong enough.
 */
export async function weakPasswordMessage(
  password: string,
  context: PasswordContext,
): Promise<string | undefined> {
  const verdict = await judgePassword(password, context);
  if (verdict.score >= MIN_PASSWORD_SCORE) return undefined;
  const advice =
    verdict.suggestions.length > 0 ? verdict.suggestions : ['Add more words that are less common.'];
  return ['This password is too easy to guess.', verdict.warning, ...advice]
    .filter(Boolean)
    .join(' ');
}

/**
 * Refuses a password that is too easy to guess with a 400 naming the field it came in
 * (`password`, unless the form calls it otherwise, as a change of password's `newPassword`).
 */
export async function rejectWeakPassword(
  password: string,
  context: PasswordContext,
  field = 'password',
): Promise<void> {
  const message = await weakPasswordMessage(password, context);
  if (message === undefined) return;
  throw new Refusal(400, 'Some fields are missing or invalid.', [{ path: field, message }]);
}
