import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EMBEDDING_BATCH_CHARACTERS,
  EMBEDDING_BATCH_SIZE,
  EMBEDDING_DIMENSIONS,
  EMBEDDING_MAX_CHARACTERS,
  EMBEDDING_MODEL,
  batchesOf,
  createEmbedder,
  modelInput,
  type Embedder,
} from './embedder.ts';
import { embeddingText } from './item-text.ts';

const cosine = (a: Float32Array, b: Float32Array) => {
  let dot = 0;
  for (let index = 0; index < a.length; index += 1) dot += a[index]! * b[index]!;
  return dot; // both unit length
};
const norm = (vector: Float32Array) => Math.sqrt(cosine(vector, vector));
const maxDifference = (a: Float32Array, b: Float32Array) =>
  Math.max(...a.map((value, index) => Math.abs(value - b[index]!)));

describe('the embedder with the model', () => {
  let embedder: Embedder;

  // One model for the file: it loads in about a second with its first call.
  beforeAll(async () => {
    embedder = createEmbedder();
    await embedder.embed(['warm up']);
  });
  afterAll(() => embedder.close());

  it('names its model and gives unit vectors of 512 numbers', async () => {
    expect(embedder.model).toBe(EMBEDDING_MODEL);
    expect(embedder.dimensions).toBe(512);
    const vectors = await embedder.embed([
      'the history of ancient Rome',
      'Quantenmechanik für Anfänger',
      '日本語のタイトル',
    ]);
    expect(vectors).toHaveLength(3);
    for (const vector of vectors) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(EMBEDDING_DIMENSIONS);
      expect(norm(vector)).toBeCloseTo(1, 4);
      expect(vector.every(Number.isFinite)).toBe(true);
    }
  });

  it('gives a text the same vector alone and in a batch', async () => {
    const [alone] = await embedder.embed(['history of ancient Rome']);
    const [, inBatch] = await embedder.embed([
      'a much longer sentence about something completely different in another field',
      'history of ancient Rome',
      'organic chemistry',
    ]);
    expect(maxDifference(alone!, inBatch!)).toBeLessThan(1e-6);
  });

  // Written before any score was seen: each query must be nearer the first text than the second.
  it.each([
    [
      'deep learning for image recognition',
      'convolutional neural networks',
      'medieval English poetry',
    ],
    [
      'the history of the Roman Empire',
      'Julius Caesar and the fall of the Republic',
      'an introduction to organic chemistry',
    ],
    ['cooking Italian pasta at home', 'a cookbook of recipes from Tuscany', 'quantum field theory'],
    [
      'how to treat a heart attack',
      'cardiology and coronary artery disease',
      'learning to play the guitar',
    ],
    [
      'stock market investing',
      'portfolio management and financial assets',
      'the life cycle of frogs',
    ],
  ])('finds "%s" nearer "%s" than "%s"', async (query, near, far) => {
    const [q, n, f] = await embedder.embed([query, near, far]);
    expect(cosine(q!, n!)).toBeGreaterThan(cosine(q!, f!));
  });

  // The one test of meaning through the catalogue's own texts; every other test of search by
  // meaning uses the test embedder (server/test/embedder.ts), which only sees shared words.
  it('finds an item about deep learning nearer the query "neural networks" than a cookbook', async () => {
    const deepLearning = embeddingText({
      title: 'Deep Learning',
      authors: ['Ian Goodfellow', 'Yoshua Bengio', 'Aaron Courville'],
      subjects: ['Machine learning'],
      description: 'How computers learn layered representations of images, speech and text.',
    });
    const cookbook = embeddingText({
      title: 'Salt, Fat, Acid, Heat',
      authors: ['Samin Nosrat'],
      subjects: ['Cooking'],
      description: 'The four elements of good cooking, with recipes.',
    });
    const [query, near, far] = await embedder.embed(['neural networks', deepLearning, cookbook]);
    expect(cosine(query!, near!)).toBeGreaterThan(cosine(query!, far!) + 0.05);
  });

  it('keeps the order of more texts than one batch holds', async () => {
    const texts = Array.from(
      { length: 2 * EMBEDDING_BATCH_SIZE + 6 },
      (_, index) => `catalogue title number ${index} about subject ${index % 7}`,
    );
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(texts.length);
    for (const index of [
      0,
      EMBEDDING_BATCH_SIZE - 1,
      EMBEDDING_BATCH_SIZE,
      2 * EMBEDDING_BATCH_SIZE,
      texts.length - 1,
    ]) {
      const [alone] = await embedder.embed([texts[index]!]);
      expect(maxDifference(vectors[index]!, alone!), `text ${index}`).toBeLessThan(1e-6);
    }
  });

  it('answers calls made at once each with its own vectors', async () => {
    const calls = [['a cookbook'], ['quantum physics', 'roman law'], ['poetry of the middle ages']];
    const together = await Promise.all(calls.map((texts) => embedder.embed(texts)));
    for (const [index, texts] of calls.entries()) {
      const alone = await embedder.embed(texts);
      expect(together[index]).toHaveLength(texts.length);
      for (const [row, vector] of alone.entries())
        expect(maxDifference(together[index]![row]!, vector)).toBeLessThan(1e-6);
    }
  });

  it('trims texts, so spaces around one change nothing', async () => {
    const [trimmed, padded] = await embedder.embed(['organic chemistry', '  organic chemistry \n']);
    expect(maxDifference(trimmed!, padded!)).toBeLessThan(1e-6);
  });

  it(`cuts a text longer than ${EMBEDDING_MAX_CHARACTERS} characters instead of spending seconds on it`, async () => {
    const long = Array.from({ length: 20_000 }, (_, index) => `word${index % 50}`).join(' ');
    const [whole, cut] = await embedder.embed([long, modelInput(long)!]);
    expect(maxDifference(whole!, cut!)).toBeLessThan(1e-6);
  });

  it('refuses an empty or whitespace-only text, naming it, and embeds nothing for no texts', async () => {
    await expect(embedder.embed(['fine', ''])).rejects.toThrow(
      'Text 2 of 2 is empty or only whitespace',
    );
    await expect(embedder.embed([' \n\t '])).rejects.toThrow('Text 1 of 1 is empty');
    await expect(embedder.embed([])).resolves.toEqual([]);
    // The embedder still works after a refusal.
    await expect(embedder.embed(['fine'])).resolves.toHaveLength(1);
  });
});

describe('modelInput', () => {
  it('trims, and is undefined for nothing', () => {
    expect(modelInput('  a b \n')).toBe('a b');
    expect(modelInput(' \t\n')).toBeUndefined();
    expect(modelInput('')).toBeUndefined();
  });

  it(`cuts at the last space before ${EMBEDDING_MAX_CHARACTERS} characters`, () => {
    const cut = modelInput('abcd '.repeat(2_000))!;
    expect(cut.length).toBeLessThanOrEqual(EMBEDDING_MAX_CHARACTERS);
    expect(cut.endsWith('abcd')).toBe(true);
    expect(modelInput('x'.repeat(10_000))).toHaveLength(EMBEDDING_MAX_CHARACTERS);
  });
});

describe('batchesOf', () => {
  it('makes batches of at most the size, in order', () => {
    const texts = Array.from({ length: 70 }, (_, index) => String(index));
    const batches = batchesOf(texts, 32);
    expect(batches.map((batch) => batch.length)).toEqual([32, 32, 6]);
    expect(batches.flat()).toEqual(texts);
  });

  it(`ends a batch before ${EMBEDDING_BATCH_CHARACTERS} characters, a longer text alone`, () => {
    const long = 'x'.repeat(EMBEDDING_BATCH_CHARACTERS / 2);
    const batches = batchesOf(
      ['a', long, long, 'b', 'y'.repeat(EMBEDDING_BATCH_CHARACTERS + 1), 'c'],
      32,
    );
    expect(batches.map((batch) => batch.length)).toEqual([2, 2, 1, 1]);
    expect(batches.flat()).toHaveLength(6);
  });
});

/**
 * A thread without the model, speaking the same messages: each vector holds its batch's size,
 * the text as a number, the thread's start and the batch's place among the thread's batches;
 * "crash" ends the thread, "refuse" fails the batch.
 */
const fakeWorker = (start: number) => `
const { parentPort } = require('node:worker_threads');
parentPort.postMessage({ type: 'ready', loadMs: 0 });
let handled = 0;
parentPort.on('message', ({ id, texts }) => {
  const batch = handled++;
  if (texts.includes('crash')) process.exit(3);
  if (texts.includes('refuse')) return parentPort.postMessage({ type: 'failed', id, message: 'refused' });
  const vectors = texts.map((text) => Float32Array.of(texts.length, Number(text), ${start}, batch));
  setTimeout(() => parentPort.postMessage({ type: 'vectors', id, vectors }), 5);
});
`;
const FAILS_TO_LOAD = `throw new Error('model files missing');`;

/** An embedder on fake threads; `programs` gives the first starts' programs, fakes after them. */
function fakeEmbedder(programs: string[] = [], idleMs?: number) {
  let starts = 0;
  const embedder = createEmbedder({
    idleMs,
    workerSource: () => {
      starts += 1;
      return programs[starts - 1] ?? fakeWorker(starts);
    },
  });
  return { embedder, starts: () => starts };
}

const numbers = (count: number) => Array.from({ length: count }, (_, index) => String(index));

describe('the embedding thread', () => {
  it('sends batches of at most 32 and answers in order', async () => {
    const { embedder } = fakeEmbedder();
    const vectors = await embedder.embed(numbers(100));
    expect(vectors.map((vector) => vector[1])).toEqual(numbers(100).map(Number));
    expect(Math.max(...vectors.map((vector) => vector[0]!))).toBe(32);
    await embedder.close();
  });

  it('answers a short call after the batch of a long one that runs, not after the rest', async () => {
    const { embedder } = fakeEmbedder();
    const long = embedder.embed(numbers(320));
    const [short] = await embedder.embed(['7']);
    expect(short![3]).toBe(1); // the thread's second batch
    const vectors = await long;
    expect(vectors.map((vector) => vector[1])).toEqual(numbers(320).map(Number));
    expect(new Set(vectors.map((vector) => vector[3]))).not.toContain(1);
    await embedder.close();
  });

  it('answers an urgent call before calls that waited longer', async () => {
    const { embedder } = fakeEmbedder();
    const first = embedder.embed(numbers(64));
    const second = embedder.embed(['8']);
    const [urgent] = await embedder.embed(['9'], { urgent: true });
    // The thread's second batch: after the one it held, before the other waiting call.
    expect(urgent![3]).toBe(1);
    const [other] = await second;
    expect(other![3]).toBe(2);
    await first;
    await embedder.close();
  });

  it('rejects every waiting call when the model cannot load, and starts again on the next', async () => {
    const { embedder, starts } = fakeEmbedder([FAILS_TO_LOAD]);
    const calls = [embedder.embed(['1']), embedder.embed(numbers(40))];
    await Promise.all(
      calls.map((call) =>
        expect(call).rejects.toThrow(
          'The embedding model could not be loaded (model files missing).',
        ),
      ),
    );
    const [vector] = await embedder.embed(['5']);
    expect([...vector!]).toEqual([1, 5, 2, 0]);
    expect(starts()).toBe(2);
    await embedder.close();
  });

  it('rejects every waiting call when the thread dies, and starts again on the next', async () => {
    const { embedder, starts } = fakeEmbedder();
    const calls = [embedder.embed(['crash']), embedder.embed(['2'])];
    await Promise.all(
      calls.map((call) =>
        expect(call).rejects.toThrow('The embedding thread stopped (exit code 3).'),
      ),
    );
    const [vector] = await embedder.embed(['5']);
    expect([...vector!]).toEqual([1, 5, 2, 0]);
    expect(starts()).toBe(2);
    await embedder.close();
  });

  it('fails only the call whose batch the model refused', async () => {
    const { embedder, starts } = fakeEmbedder();
    await Promise.all([
      expect(embedder.embed([...numbers(40), 'refuse'])).rejects.toThrow(
        'The embedding model failed: refused',
      ),
      expect(embedder.embed(['3'])).resolves.toHaveLength(1),
    ]);
    expect(starts()).toBe(1);
    await embedder.close();
  });

  it('rejects waiting and later calls once closed', async () => {
    const { embedder } = fakeEmbedder();
    const waiting = expect(embedder.embed(numbers(100))).rejects.toThrow('The embedder is closed.');
    await embedder.close();
    await waiting;
    await expect(embedder.embed(['1'])).rejects.toThrow('The embedder is closed.');
    await embedder.close(); // twice is fine
  });

  it('ends an idle thread and starts another for the next call', async () => {
    const { embedder, starts } = fakeEmbedder([], 50);
    await embedder.embed(['1']);
    await embedder.embed(['2']);
    expect(starts()).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [vector] = await embedder.embed(['3']);
    expect(vector![2]).toBe(2);
    await embedder.close();
  });

  it('lets a script that embeds and never closes exit', () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'embedder-'));
    const script = path.join(folder, 'script.mjs');
    const module = pathToFileURL(path.join(import.meta.dirname, 'embedder.ts')).href;
    writeFileSync(
      script,
      `import { createEmbedder } from ${JSON.stringify(module)};\n` +
        `const [vector] = await createEmbedder().embed(['a short query']);\n` +
        `console.log(vector.length);\n`,
    );
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], {
      cwd: path.resolve(import.meta.dirname, '..', '..'),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.stderr).toBe('');
    expect(run.signal).toBeNull();
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe('512');
  });
});
