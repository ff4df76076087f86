import { describe, expect, it } from 'vitest';
import {
  NOTIFY_BUDGET_BYTES,
  packRoomNews,
  readRoomNews,
  type RoomEntries,
} from './between-processes.ts';

type Toggle = [by: string, messageId: string, emoji: number, added: 0 | 1];

const isToggle = (entry: unknown): entry is Toggle =>
  Array.isArray(entry) && entry.length === 4 && typeof entry[0] === 'string';

/** 500 people's reactions in one second, each to another message, in two rooms. */
function burst(): Map<string, RoomEntries<Toggle>> {
  const rooms = new Map<string, RoomEntries<Toggle>>();
  for (const [roomId, name] of [
    ['8f0c1a52-7d1e-4f5b-9a43-1c2d3e4f5a6b', 'general'],
    ['0b7e4c2d-3a1f-4e6d-8c9b-5a4f3e2d1c0b', 'Frankenstein — chapters 1–5'],
  ] as const) {
    const entries: Toggle[] = [];
    for (let person = 0; person < 250; person++) {
      entries.push([`user${String(person).padStart(28, '0')}`, String(120_000 + person), 3, 1]);
    }
    rooms.set(roomId, { name, entries });
  }
  return rooms;
}

describe('packRoomNews', () => {
  it('keeps every message within a NOTIFY, envelope included', () => {
    const messages = packRoomNews(burst());
    expect(messages.length).toBeGreaterThan(1);
    for (const message of messages) {
      const envelope = {
        uid: 'x'.repeat(6),
        type: 7,
        nsp: '/',
        data: { packet: ['chat:reactions', message] },
      };
      expect(Buffer.byteLength(JSON.stringify(envelope))).toBeLessThan(8_000);
      expect(Buffer.byteLength(JSON.stringify(message))).toBeLessThanOrEqual(NOTIFY_BUDGET_BYTES);
    }
  });

  it('loses and reorders nothing, repeating a split room’s id and name', () => {
    const rooms = burst();
    const messages = packRoomNews(rooms, 1_500);
    const got = new Map<string, Toggle[]>();
    for (const message of messages) {
      for (const [roomId, name, entries] of message) {
        expect(name).toBe(rooms.get(roomId)?.name);
        expect(entries.length).toBeGreaterThan(0);
        got.set(roomId, [...(got.get(roomId) ?? []), ...entries]);
      }
    }
    for (const [roomId, room] of rooms) expect(got.get(roomId)).toEqual(room.entries);
  });

  it('sends an entry too big for a message alone, and nothing for an empty room', () => {
    const rooms = new Map<string, RoomEntries<string>>([
      ['a', { name: 'a', entries: ['small'] }],
      ['b', { name: 'b', entries: ['x'.repeat(200), 'tiny'] }],
      ['c', { name: 'c', entries: [] }],
    ]);
    expect(packRoomNews(rooms, 100)).toEqual([
      [['a', 'a', ['small']]],
      [['b', 'b', ['x'.repeat(200)]]],
      [['b', 'b', ['tiny']]],
    ]);
  });
});

describe('readRoomNews', () => {
  it('reads what was packed, and skips what is not of its shape', () => {
    const [message] = packRoomNews(
      new Map([['r', { name: 'general', entries: [['u', '1', 0, 1] as Toggle] }]]),
    );
    expect(readRoomNews(message, isToggle)).toEqual([['r', 'general', [['u', '1', 0, 1]]]]);
    expect(readRoomNews({ not: 'an array' }, isToggle)).toEqual([]);
    expect(
      readRoomNews(
        [['r'], [1, 'n', []], ['r', 'n', 'entries'], ['r', 'n', [['u'], 'junk']]],
        isToggle,
      ),
    ).toEqual([['r', 'n', []]]);
  });
});
