import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { Refusal } from '../refusal.ts';
import { actionColumns, personName, type ActionRow } from './moderation.ts';

/*
 * Mutes and removals in force, and ending one early (issue 26, decision 044). Statements only: the
 * route tells the person, whose sends and joins read `chat_sanctions` on every process at once.
 */

/** A mute or removal in force, as the librarians' queue lists it. */
export interface SanctionRow {
  id: string;
  kind: 'mute' | 'remove';
  user_id: string;
  person: string;
  room_id: string | null;
  room_name: string | null;
  reason: string;
  ends_at: Date;
}

/** Every mute and removal in force, ending soonest first (at most `limit`). */
export async function sanctionsInForce(db: Kysely<Database>, limit = 100): Promise<SanctionRow[]> {
  return db
    .selectFrom('chat_sanctions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('chat_rooms as r', 'r.id', 's.room_id')
    .select([
      sql<string>`s.id::text`.as('id'),
      's.kind',
      's.user_id',
      sql<string>`coalesce(u.chat_username, u.first_name)`.as('person'),
      's.room_id',
      'r.name as room_name',
      's.reason',
      's.ends_at',
    ])
    .where('s.ends_at', '>', sql<Date>`now()`)
    .orderBy('s.ends_at')
    .orderBy('s.id')
    .limit(limit)
    .execute();
}

/**
 * Ends the mute or removal `sanctionId` now and records it as a `lift` action with who and why;
 * the person may post (or join) again at once, on every process. Refused when it has ended
 * already (or never existed).
 */
export async function endSanctionEarly(
  db: Kysely<Database>,
  actor: { id: string },
  request: { sanctionId: string; reason: string },
): Promise<{ action: ActionRow; sanction: SanctionRow }> {
  const actorName = await personName(db, actor.id);
  return db.transaction().execute(async (trx) => {
    const ended = await trx
      .updateTable('chat_sanctions')
      .set({ ends_at: sql<Date>`now()` })
      .where('id', '=', sql<string>`${request.sanctionId}::bigint`)
      .where('ends_at', '>', sql<Date>`now()`)
      .returning([
        sql<string>`id::text`.as('id'),
        'kind',
        'user_id',
        'room_id',
        'reason',
        'ends_at',
      ])
      .executeTakeFirst();
    if (!ended) {
      throw new Refusal(409, 'That mute or removal has already ended.');
    }
    const room = ended.room_id
      ? await trx
          .selectFrom('chat_rooms')
          .select('name')
          .where('id', '=', ended.room_id)
          .executeTakeFirst()
      : undefined;
    const person = await personName(trx, ended.user_id);
    const action = await trx
      .insertInto('moderation_actions')
      .values({
        actor_id: actor.id,
        actor_name: actorName,
        action: 'lift',
        target_user_id: ended.user_id,
        target_name: person,
        room_id: ended.room_id,
        room_name: room?.name ?? '',
        scope: ended.kind === 'mute' ? (ended.room_id ? 'room' : 'everywhere') : 'room',
        reason: request.reason.trim(),
        ends_at: ended.ends_at,
      })
      .returning(actionColumns)
      .executeTakeFirstOrThrow();
    return {
      action,
      sanction: { ...ended, person, room_name: room?.name ?? null },
    };
  });
}
