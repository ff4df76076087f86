import type { Kysely } from 'kysely';
import { createModerator, type Moderator } from '#contract/moderation.ts';
import type { Database } from '../db/schema.ts';
import { roomWords } from './moderation.ts';

/** A room's words are read again after this long, so a change on another process reaches here. */
export const ROOM_WORDS_TTL_MS = 2_000;

/**
 * The matchers of rooms' own word lists (decision 040), kept per process and read again from the
 * database every `ROOM_WORDS_TTL_MS`: the send path asks the database once per room per two
 * seconds at most, not once per message. A change made on this process applies at once
 * (`forget`); one made on another, within two seconds.
 */
export function createRoomWords(db: Kysely<Database>, clock: () => number = Date.now) {
  const held = new Map<string, { at: number; moderator: Moderator | null }>();
  const load = async (roomId: string) => {
    const words = await roomWords(db, roomId);
    const entry = {
      at: clock(),
      // Only the room's words: the library's list and the standard set were checked already.
      moderator: words.length > 0 ? createModerator(words) : null,
    };
    held.set(roomId, entry);
    return entry;
  };
  return {
    /** The room's words caught in `text`, if any; synchronous while the room's list is fresh. */
    matches(roomId: string, text: string): boolean | Promise<boolean> {
      // The standard set in this matcher found nothing: the library's check, which holds it too,
      // already passed the text. So a hit here is one of the room's words.
      const check = (entry: { moderator: Moderator | null }) =>
        entry.moderator?.isAbusive(text) ?? false;
      const entry = held.get(roomId);
      if (entry && clock() - entry.at < ROOM_WORDS_TTL_MS) return check(entry);
      return load(roomId).then(check);
    },
    /** Reads the room's words again on the next message. */
    forget(roomId: string) {
      held.delete(roomId);
    },
    /** Drops rooms not asked about for a while. */
    forgetStale() {
      const at = clock();
      for (const [roomId, entry] of held) if (at - entry.at > 60_000) held.delete(roomId);
    },
  };
}

/** See {@link createRoomWords}. */
export type RoomWords = ReturnType<typeof createRoomWords>;
