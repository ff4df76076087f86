import { describe, expect, it } from 'vitest';
import {
  packedReactionsBatchSchema,
  packReactionsBatch,
  REACTION_NAMES_MAX,
  unpackReactionsBatch,
  type ReactionsBatch,
} from './chat.ts';

describe('a room’s reactions batch on the wire', () => {
  const batch: ReactionsBatch = {
    roomName: 'Physics 101',
    messages: [
      {
        messageId: '9',
        reactions: [
          { emoji: '👍', count: 5, names: ['Ada', 'Alan', 'Grace'] },
          { emoji: '🙏', count: 1, names: ['Émile'] },
        ],
      },
      // Its last reaction taken back: none left.
      { messageId: '12', reactions: [] },
    ],
  };

  it('packs each reaction as [emoji index, count, names] and unpacks to the same batch', () => {
    const packed = packReactionsBatch(batch);
    expect(packed).toEqual({
      roomName: 'Physics 101',
      messages: [
        [
          '9',
          [
            [0, 5, ['Ada', 'Alan', 'Grace']],
            [5, 1, ['Émile']],
          ],
        ],
        ['12', []],
      ],
    });
    expect(packedReactionsBatchSchema.parse(packed)).toEqual(packed);
    expect(unpackReactionsBatch(packed)).toEqual(batch);
  });

  it('is well under half the bytes of the same batch as objects', () => {
    const full: ReactionsBatch = {
      roomName: 'Physics 101',
      messages: Array.from({ length: 100 }, (_, index) => ({
        messageId: String(120_000 + index),
        reactions: [{ emoji: '👍' as const, count: 1, names: [`Member ${index}`] }],
      })),
    };
    const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
    expect(bytes(packReactionsBatch(full))).toBeLessThan(bytes(full) / 2);
  });

  it('refuses an emoji it does not offer, a count below one and too many names', () => {
    const fits = (reaction: unknown[]) =>
      packedReactionsBatchSchema.safeParse({ roomName: 'R', messages: [['1', [reaction]]] })
        .success;
    expect(fits([6, 1, []])).toBe(false);
    expect(fits([0, 0, []])).toBe(false);
    expect(fits([0, 9, Array.from({ length: REACTION_NAMES_MAX + 1 }, () => 'A')])).toBe(false);
    expect(fits([0, 9, ['A']])).toBe(true);
  });

  it('leaves out a reaction whose emoji this browser does not know', () => {
    expect(
      unpackReactionsBatch({
        roomName: 'R',
        messages: [
          [
            '1',
            [
              [0, 1, ['Ada']],
              [42, 1, ['Alan']],
            ],
          ],
        ],
      }),
    ).toEqual({
      roomName: 'R',
      messages: [{ messageId: '1', reactions: [{ emoji: '👍', count: 1, names: ['Ada'] }] }],
    });
  });
});
