import type { Kysely } from 'kysely';
import type { NoticesChanged } from '#contract/socket/notices.ts';
import type { Database } from '../db/schema.ts';
import { unreadCounts } from '../notices/store.ts';
import type { ChatServer } from './chat/context.ts';
import { userRoom } from './index.ts';

/**
 * Tells every socket of each of `userIds` its unread count (`notices_changed`), after notices
 * were made or read. Sent to the person's room through the adapter, so a job run by another
 * process sharing PostgreSQL reaches sockets connected here too. A failure only leaves a bell
 * behind until the next change or page load: it is logged by the caller, never thrown at a
 * change that already happened.
 */
export async function announceUnread(
  io: ChatServer,
  db: Kysely<Database>,
  userIds: readonly string[],
): Promise<void> {
  const counts = await unreadCounts(db, [...new Set(userIds)]);
  for (const [userId, unread] of counts) {
    const payload: NoticesChanged = { unread };
    io.to(userRoom(userId)).emit('notices_changed', payload);
  }
}
