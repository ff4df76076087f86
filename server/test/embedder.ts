import type { Kysely } from 'kysely';
import { STOP_WORDS } from '../catalogue/stop-words.ts';
import type { Database } from '../db/schema.ts';
import { EMBEDDING_DIMENSIONS } from '../db/vector.ts';
import { modelInputs, type Embedder } from '../embeddings/embedder.ts';

/**
 * The test embedder's name as `item_embeddings.model` stores it: never the real model's, so a
 * test database's vectors cannot pass for the real model's.
 */
export const TEST_EMBEDDING_MODEL = 'test-hashing-512';

/** A bigram counts for this much of a word: shared phrases pull texts nearer than shared words. */
const BIGRAM_WEIGHT = 0.5;

/** An {@link Embedder} that also counts the texts it was asked for. */
export interface TestEmbedder extends Embedder {
  /** Texts embedded so far, over every call (a test of "nothing is embedded" reads it). */
  readonly textsEmbedded: number;
}

/**
 * A crude stem, so "network" and "networks", "learn", "learning" and "learned" meet: a plural
 * s, -ing and -ed come off a word long enough to keep a stem.
 */
function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** 32-bit FNV-1a: a fixed, well-spread hash, the same on every machine and run. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Adds `weight` to the feature's bucket, with a sign of its own so that collisions cancel out. */
function addFeature(vector: Float32Array, feature: string, weight: number): void {
  const hash = fnv1a(feature);
  const bucket = hash % vector.length;
  // The top bit: the bucket took the low ones.
  vector[bucket]! += hash >>> 31 ? -weight : weight;
}

/** The vector of one text (already through `modelInput`): hashed words and bigrams, unit length. */
export function hashingVector(text: string): Float32Array {
  const vector = new Float32Array(EMBEDDING_DIMENSIONS);
  const words = (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  )
    .filter((word) => !STOP_WORDS.has(word))
    .map(stem);
  for (const [index, word] of words.entries()) {
    addFeature(vector, `w:${word}`, 1);
    const next = words[index + 1];
    if (next !== undefined) addFeature(vector, `b:${word} ${next}`, BIGRAM_WEIGHT);
  }
  // Only stop words or signs ("The", "?!"): the text itself, so the vector is never zero.
  if (words.length === 0) addFeature(vector, `t:${text.toLowerCase()}`, 1);
  const norm = Math.hypot(...vector);
  for (let index = 0; index < vector.length; index += 1) vector[index]! /= norm;
  return vector;
}

/**
 * A small deterministic embedder for tests (feature hashing of words and word pairs): texts that
 * share words come out near, texts that share none far, with no thread and no model to load. It
 * keeps the real embedder's contract: texts trimmed and cut, an empty one refused, none after
 * `close`. Meaning itself is tested with the real model (server/embeddings/embedder.test.ts).
 */
export function createTestEmbedder(): TestEmbedder {
  let closed = false;
  let textsEmbedded = 0;
  return {
    model: TEST_EMBEDDING_MODEL,
    dimensions: EMBEDDING_DIMENSIONS,
    get textsEmbedded() {
      return textsEmbedded;
    },
    embed(texts) {
      if (closed) return Promise.reject(new Error('The embedder is closed.'));
      const inputs = modelInputs(texts);
      if (inputs instanceof Error) return Promise.reject(inputs);
      textsEmbedded += inputs.length;
      return Promise.resolve(inputs.map(hashingVector));
    },
    close() {
      closed = true;
      return Promise.resolve();
    },
  };
}

/** A unit vector of {@link EMBEDDING_DIMENSIONS} numbers with `weights` first and zeros after. */
export function unitVector(...weights: number[]): number[] {
  const vector = Array.from({ length: EMBEDDING_DIMENSIONS }, (_, i) => weights[i] ?? 0);
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

/** An item a test of meaning writes, with the vector that says what it means, if any. */
export interface ItemWithMeaning {
  title: string;
  kind?: 'book' | 'paper' | 'course';
  authors?: string[];
  subjects?: string[];
  description?: string;
  withdrawn?: boolean;
  /** Written straight into `item_embeddings`, under `model`, as the embedding job would. */
  embedding?: number[];
}

/** Inserts `item` (source `source`, its title as source id) and its vector; answers its id. */
export async function insertItemWithMeaning(
  db: Kysely<Database>,
  model: string,
  source: string,
  item: ItemWithMeaning,
): Promise<string> {
  const row = await db
    .insertInto('items')
    .values({
      kind: item.kind ?? 'paper',
      title: item.title,
      authors: item.authors ?? [],
      subjects: item.subjects ?? [],
      description: item.description ?? null,
      withdrawn_at: item.withdrawn ? new Date() : null,
      source,
      source_id: item.title,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (item.embedding) {
    await db
      .insertInto('item_embeddings')
      .values({
        item_id: row.id,
        model,
        text_hash: `hash-${item.title}`,
        embedding: item.embedding,
      })
      .execute();
  }
  return row.id;
}

/**
 * An embedder whose meanings are written by the test: each text known to `meanings` gets its
 * vector, any other `otherwise`; a text matching `failsFor` makes the call reject as a dead
 * thread's would. It records every text it is asked (`calls`), so a test sees what was embedded.
 */
export function handMadeEmbedder(
  meanings: ReadonlyMap<string, number[]>,
  { otherwise, failsFor }: { otherwise: number[]; failsFor?: RegExp },
): Embedder & { calls: string[] } {
  const calls: string[] = [];
  return {
    model: 'hand-made-meanings',
    dimensions: EMBEDDING_DIMENSIONS,
    calls,
    embed(texts) {
      calls.push(...texts);
      if (failsFor && texts.some((text) => failsFor.test(text))) {
        return Promise.reject(new Error('The embedding thread stopped (exit code 3).'));
      }
      return Promise.resolve(
        texts.map((text) => Float32Array.from(meanings.get(text) ?? otherwise)),
      );
    },
    close: () => Promise.resolve(),
  };
}
