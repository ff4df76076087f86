import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { SERVER_STALE_MS } from './store.ts';

/** Who is in a room now: how many people, and the first `limit` names by when they came in. */
export interface RoomPeople {
  count: number;
  names: string[];
}

/**
 * The people in `roomId` now, from `chat_presence` (every process's sockets, as the member counts
 * of the room list: a process that stopped beating does not count). A person with several sockets
 * in the room counts once; names are the forum's, else the first name.
 */
export async function roomPeople(
  db: Kysely<Database>,
  roomId: string,
  now: Date,
  limit: number,
): Promise<RoomPeople> {
  const fresh = new Date(now.getTime() - SERVER_STALE_MS);
  const rows = await db
    .selectFrom('chat_presence as p')
    .innerJoin('chat_servers as s', 's.id', 'p.server_id')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select([
      sql<string>`coalesce(u.chat_username, u.first_name)`.as('name'),
      sql<Date>`min(p.joined_at)`.as('since'),
    ])
    .where('p.room_id', '=', roomId)
    .where('s.seen_at', '>', fresh)
    .groupBy(['u.id', 'u.chat_username', 'u.first_name'])
    .orderBy('since')
    .orderBy('name')
    .execute();
  return { count: rows.length, names: rows.slice(0, limit).map((row) => row.name) };
}
