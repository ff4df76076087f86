import type { Kysely, UpdateQueryBuilder, UpdateResult } from 'kysely';
import { chatUsernameSchema } from '#contract/socket/chat.ts';
import { impersonatesStaff, nameSkeleton } from '../chat/names.ts';
import type { Database } from '../db/schema.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';

/** What {@link backfillNameSkeletons} did. */
export interface NameBackfill {
  /** Usernames that got their skeleton (normalised, if they were not). */
  usernamesKept: number;
  /** Usernames removed: their owners choose again the next time they open the forum. */
  usernamesCleared: number;
  /** Rooms that got their skeleton. */
  roomsKept: number;
  /** Rooms left without one: an older room looks the same (it stays until someone closes it). */
  roomsUnclaimed: number;
}

/**
 * Gives usernames and rooms stored before names were unique by skeleton (migration
 * 20261127020000_trusted-names.sql) their skeleton, once, at start-up: SQL cannot compute it, as
 * the confusables data lives in the server's code. Rows that have one are never read again.
 *
 * Oldest first, so the first holder of a name keeps it. A username that the rules of today refuse
 * (invisible characters, a look-alike of an older account's, a staff word held by a student or
 * faculty member) is removed, and its owner is asked for a new one in the forum; past messages
 * keep the name they were sent under. A room is never renamed (its address would change): one
 * whose name looks like an older room's stays without a skeleton, so that it blocks nothing, until
 * a librarian or its creator closes it.
 *
 * Safe to run from several processes at once: each row is written only while it still has no
 * skeleton, and the unique indexes decide any race.
 */
export async function backfillNameSkeletons(
  db: Kysely<Database>,
  libraryName: string,
): Promise<NameBackfill> {
  const done: NameBackfill = {
    usernamesKept: 0,
    usernamesCleared: 0,
    roomsKept: 0,
    roomsUnclaimed: 0,
  };

  const users = await db
    .selectFrom('users')
    .select(['id', 'role', 'chat_username'])
    .where('chat_username', 'is not', null)
    .where('chat_username_skeleton', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const user of users) {
    const stored = user.chat_username!;
    const parsed = chatUsernameSchema.shape.username.safeParse(stored);
    const username = parsed.success ? parsed.data : undefined;
    const allowed =
      username !== undefined &&
      (user.role === 'librarian' || !impersonatesStaff(username, [libraryName]));
    // Each write changes the row only as it was read: another process may have been first.
    const unchanged = (query: UpdateQueryBuilder<Database, 'users', 'users', UpdateResult>) =>
      query
        .where('id', '=', user.id)
        .where('chat_username', '=', stored)
        .where('chat_username_skeleton', 'is', null)
        .executeTakeFirst();
    if (allowed) {
      try {
        const kept = await unchanged(
          db
            .updateTable('users')
            .set({ chat_username: username, chat_username_skeleton: nameSkeleton(username) }),
        );
        if (kept.numUpdatedRows > 0n) done.usernamesKept += 1;
        continue;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    }
    const cleared = await unchanged(
      db.updateTable('users').set({ chat_username: null, updated_at: new Date() }),
    );
    if (cleared.numUpdatedRows > 0n) done.usernamesCleared += 1;
  }

  const rooms = await db
    .selectFrom('chat_rooms')
    .select(['id', 'name'])
    .where('name_skeleton', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const room of rooms) {
    try {
      const kept = await db
        .updateTable('chat_rooms')
        .set({ name_skeleton: nameSkeleton(room.name) })
        .where('id', '=', room.id)
        .where('name_skeleton', 'is', null)
        .executeTakeFirst();
      if (kept.numUpdatedRows > 0n) done.roomsKept += 1;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      done.roomsUnclaimed += 1;
    }
  }
  return done;
}
