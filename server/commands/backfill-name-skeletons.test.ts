import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client.ts';
import { openTestDatabase, testDatabaseKinds } from '../test/databases.ts';
import { backfillNameSkeletons } from './backfill-name-skeletons.ts';

/*
 * Usernames and rooms stored before names were unique by skeleton (as the migration leaves them:
 * no skeleton) get one at start-up; what today's rules refuse is resolved, the oldest holder first.
 */
describe.each(testDatabaseKinds())('the names backfill on %s', (kind) => {
  let handle: DatabaseHandle;
  beforeEach(async () => {
    handle = await openTestDatabase(kind);
  });
  afterEach(async () => handle.close());

  /** A user made `minute` minutes into the day, with a username and no skeleton. */
  const user = (id: string, minute: number, chatUsername: string | null, role = 'student') =>
    handle.db
      .insertInto('users')
      .values({
        id,
        name: id,
        email: `${id}@uni.example`,
        role: role as 'student',
        chat_username: chatUsername,
        created_at: new Date(Date.UTC(2026, 10, 1, 0, minute)),
      })
      .execute();
  const room = (name: string, minute: number) =>
    handle.db
      .insertInto('chat_rooms')
      .values({
        name,
        creator_id: 'ada',
        creator_name: 'Ada',
        created_at: new Date(Date.UTC(2026, 10, 1, 0, minute)),
      })
      .execute();

  it('keeps the oldest holder of each name, normalises, and asks the others to choose again', async () => {
    await user('ada', 1, 'Ada  L');
    await user('mallory', 2, 'ADA L');
    await user('eve', 3, 'Libr\u0430rian');
    await user('lib', 4, 'Desk Librarian', 'librarian');
    await user('zed', 5, 'Zed\u200B');
    await user('grace', 6, 'Digi Library');
    await user('nobody', 7, null);
    await room('General', 1);
    await room('Gen\u200Beral', 2);
    await room('Physics', 3);

    expect(await backfillNameSkeletons(handle.db, 'Digi Library')).toEqual({
      usernamesKept: 2,
      usernamesCleared: 4,
      roomsKept: 2,
      roomsUnclaimed: 1,
    });
    const users = await handle.db
      .selectFrom('users')
      .select(['id', 'chat_username', 'chat_username_skeleton'])
      .orderBy('created_at')
      .execute();
    expect(users).toEqual([
      { id: 'ada', chat_username: 'Ada L', chat_username_skeleton: 'ada l' },
      { id: 'mallory', chat_username: null, chat_username_skeleton: null },
      { id: 'eve', chat_username: null, chat_username_skeleton: null },
      { id: 'lib', chat_username: 'Desk Librarian', chat_username_skeleton: 'desk librarian' },
      { id: 'zed', chat_username: null, chat_username_skeleton: null },
      { id: 'grace', chat_username: null, chat_username_skeleton: null },
      { id: 'nobody', chat_username: null, chat_username_skeleton: null },
    ]);
    const rooms = await handle.db
      .selectFrom('chat_rooms')
      .select(['name', 'name_skeleton'])
      .orderBy('created_at')
      .execute();
    // A room is never renamed: the later look-alike stays, claiming nothing, until it is closed.
    expect(rooms).toEqual([
      { name: 'General', name_skeleton: 'general' },
      { name: 'Gen\u200Beral', name_skeleton: null },
      { name: 'Physics', name_skeleton: 'physics' },
    ]);

    // Done once: a second start finds only the unclaimed room, which still looks like the first.
    expect(await backfillNameSkeletons(handle.db, 'Digi Library')).toEqual({
      usernamesKept: 0,
      usernamesCleared: 0,
      roomsKept: 0,
      roomsUnclaimed: 1,
    });
  });

  it('lets two processes backfill at once without a conflict reaching either', async () => {
    await user('ada', 1, 'Ada');
    await user('ada2', 2, 'ADA');
    for (let index = 0; index < 20; index += 1)
      await user(`u${index}`, 10 + index, `Reader ${index}`);
    const [first, second] = await Promise.all([
      backfillNameSkeletons(handle.db, 'Digi Library'),
      backfillNameSkeletons(handle.db, 'Digi Library'),
    ]);
    expect(first.usernamesKept + second.usernamesKept).toBe(21);
    expect(first.usernamesCleared + second.usernamesCleared).toBe(1);
    const held = await handle.db
      .selectFrom('users')
      .select(['id', 'chat_username'])
      .where('chat_username_skeleton', 'is not', null)
      .execute();
    expect(held).toHaveLength(21);
    expect(held.find((row) => row.id === 'ada')?.chat_username).toBe('Ada');
    expect(held.some((row) => row.id === 'ada2')).toBe(false);
  });
});
