import { describe, expect, it } from 'vitest';
import type { Embedder } from '../embeddings/embedder.ts';
import { queryMeaning, topicText } from './meaning.ts';

describe('topicText', () => {
  it('leaves out how a request is phrased around its topic', () => {
    expect(topicText('books about AI')).toBe('AI');
    expect(topicText('research about neural networks')).toBe('neural networks');
    expect(topicText('Papers on reinforcement learning for robots')).toBe(
      'reinforcement learning for robots',
    );
    expect(topicText('I need something on  black holes')).toBe('black holes');
    expect(topicText('linear algebra and calculus textbooks')).toBe('linear algebra and calculus');
  });

  it('keeps a query that is its topic, and never leaves nothing', () => {
    expect(topicText('learn java')).toBe('learn java');
    expect(topicText('books')).toBe('books');
    expect(topicText('The Book Thief')).toBe('The Book Thief');
  });
});

describe('queryMeaning', () => {
  function counting(fail = false) {
    const asked: string[] = [];
    const embedder: Embedder = {
      model: 'counting',
      dimensions: 1,
      embed: (texts, options) => {
        asked.push(...texts.map((text) => `${text}${options?.urgent ? ' (urgent)' : ''}`));
        return fail
          ? Promise.reject(new Error('thread stopped'))
          : Promise.resolve(texts.map(() => Float32Array.of(1)));
      },
      close: () => Promise.resolve(),
    };
    return { embedder, asked };
  }

  it('embeds each topic once, as an urgent call, whatever the case and spacing', async () => {
    const { embedder, asked } = counting();
    const meaning = queryMeaning(embedder);
    await meaning.embed('Books about  Black Holes');
    await meaning.embed('black holes');
    expect(asked).toEqual(['black holes (urgent)']);
    expect(meaning.model).toBe('counting');
  });

  it('asks again after a failure, and logs it', async () => {
    const { embedder, asked } = counting(true);
    const warnings: string[] = [];
    const meaning = queryMeaning(embedder, { warn: (_, message) => warnings.push(message) });
    await expect(meaning.embed('stars')).rejects.toThrow('thread stopped');
    await expect(meaning.embed('stars')).rejects.toThrow('thread stopped');
    expect(asked).toHaveLength(2);
    expect(warnings).toHaveLength(2);
  });
});
