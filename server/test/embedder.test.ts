import { describe, expect, it } from 'vitest';
import { EMBEDDING_MAX_CHARACTERS, modelInput } from '../embeddings/embedder.ts';
import { createTestEmbedder, hashingVector, TEST_EMBEDDING_MODEL } from './embedder.ts';

const cosine = (a: Float32Array, b: Float32Array) =>
  a.reduce((sum, value, index) => sum + value * b[index]!, 0);

describe('the test embedder', () => {
  it('names its own model and gives unit vectors of 512 numbers', async () => {
    const embedder = createTestEmbedder();
    expect(embedder.model).toBe(TEST_EMBEDDING_MODEL);
    expect(embedder.dimensions).toBe(512);
    const vectors = await embedder.embed([
      'the history of ancient Rome',
      'Quantenmechanik für Anfänger',
      '日本語のタイトル',
      // Only stop words and signs: still a vector.
      'The?!',
    ]);
    expect(vectors).toHaveLength(4);
    for (const vector of vectors) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(512);
      expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
    }
  });

  it('gives a text the same vector every time, in any embedder, alone or in a batch', async () => {
    const [alone] = await createTestEmbedder().embed(['Neural networks for image recognition']);
    const [, inBatch] = await createTestEmbedder().embed([
      'organic chemistry',
      'Neural networks for image recognition',
    ]);
    expect(inBatch).toEqual(alone);
    // Fixed numbers, not only equal ones: no seed, no clock, no order of calls.
    expect(hashingVector('neural networks').filter((value) => value !== 0)).toHaveLength(3);
  });

  it('brings texts that share words near, and keeps texts that share none far', async () => {
    const [query, near, far] = await createTestEmbedder().embed([
      'neural networks',
      'Training deep neural networks on images',
      'Italian cooking at home',
    ]);
    expect(cosine(query!, near!)).toBeGreaterThan(0.4);
    expect(Math.abs(cosine(query!, far!))).toBeLessThan(0.2);
  });

  it('lets a plural, -ing and -ed meet their word, and ignores case and stop words', async () => {
    const [network, networks, learning, learned, upper] = await createTestEmbedder().embed([
      'network',
      'networks',
      'learning',
      'learned',
      'THE NETWORK',
    ]);
    expect(cosine(network!, networks!)).toBeCloseTo(1, 5);
    expect(cosine(learning!, learned!)).toBeCloseTo(1, 5);
    expect(cosine(network!, upper!)).toBeCloseTo(1, 5);
    expect(Math.abs(cosine(network!, learning!))).toBeLessThan(0.2);
  });

  it('keeps the real embedder’s contract: trimmed, cut, empty refused, nothing after close', async () => {
    const embedder = createTestEmbedder();
    const [trimmed, padded] = await embedder.embed(['organic chemistry', '  organic chemistry \n']);
    expect(padded).toEqual(trimmed);
    const long = Array.from({ length: 2_000 }, (_, index) => `word${index}`).join(' ');
    expect(long.length).toBeGreaterThan(EMBEDDING_MAX_CHARACTERS);
    const [whole, cut] = await embedder.embed([long, modelInput(long)!]);
    expect(whole).toEqual(cut);
    await expect(embedder.embed(['fine', ' '])).rejects.toThrow(
      'Text 2 of 2 is empty or only whitespace',
    );
    await expect(embedder.embed([])).resolves.toEqual([]);
    // Counted: what it embedded, not what it refused.
    expect(embedder.textsEmbedded).toBe(4);
    await embedder.close();
    await expect(embedder.embed(['fine'])).rejects.toThrow('The embedder is closed.');
  });
});
