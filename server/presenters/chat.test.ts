import { describe, expect, it } from 'vitest';
import { roomMetadataSchema, roomSummarySchema } from '#contract/socket/chat.ts';
import { presentRoom, presentRoomMetadata } from './chat.ts';

const row = (overrides: Partial<Parameters<typeof presentRoom>[0]> = {}) => ({
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Book club: Frankenstein',
  description: 'Demo room with an example conversation.',
  creator_id: 'demo-chat-account',
  creator_name: 'Fatima',
  abuse_detected: false,
  is_demo: false,
  created_at: new Date('2026-11-24T10:00:00Z'),
  member_count: '2',
  ...overrides,
});

describe('a room in available_rooms', () => {
  it('says isDemo: true for a demo room', () => {
    const presented = presentRoom(row({ is_demo: true }));
    expect(presented).toEqual({
      roomName: 'Book club: Frankenstein',
      description: 'Demo room with an example conversation.',
      creator: 'Fatima',
      creatorId: 'demo-chat-account',
      createdAt: '2026-11-24T10:00:00.000Z',
      memberCount: 2,
      abuseDetected: false,
      isDemo: true,
    });
    expect(roomSummarySchema.parse(JSON.parse(JSON.stringify(presented)))).toEqual(presented);
  });

  it('leaves isDemo out for any other room, so its payload is what it always was', () => {
    const presented = presentRoom(row());
    expect(Object.keys(presented)).toEqual([
      'roomName',
      'description',
      'creator',
      'creatorId',
      'createdAt',
      'memberCount',
      'abuseDetected',
    ]);
    expect(roomSummarySchema.parse(presented).isDemo).toBeUndefined();
  });
});

describe("a room's metadata on joining", () => {
  it('says isDemo: true for a demo room, and leaves it out for any other', () => {
    const demo = presentRoomMetadata(row({ is_demo: true }));
    expect(demo).toEqual({
      roomName: 'Book club: Frankenstein',
      creator: 'Fatima',
      creatorId: 'demo-chat-account',
      abuseDetected: false,
      isDemo: true,
    });
    expect(roomMetadataSchema.parse(demo)).toEqual(demo);
    expect(Object.keys(presentRoomMetadata(row()))).not.toContain('isDemo');
  });
});
