import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Mutes and removals in force are read again after this long, so one made elsewhere applies. */
export const POSTING_BANS_TTL_MS = 2_000;
/** At most this many bans in force are held: far more than a library's librarians ever set. */
const BANS_HELD_MAX = 10_000;

/** One mute or removal in force: in one room, or (a mute) everywhere. */
interface Ban {
  roomId: string | null;
  endsAt: number;
}

/**
 * Every mute and removal in force (`chat_sanctions`), by person: one statement for the whole
 * library, the ending soonest last dropped when there are more than `BANS_HELD_MAX`.
 */
async function bansInForce(db: Kysely<Database>): Promise<Map<string, Ban[]>> {
  const rows = await db
    .selectFrom('chat_sanctions')
    .select(['user_id', 'room_id', 'ends_at'])
    .where('ends_at', '>', sql<Date>`now()`)
    .orderBy('ends_at', 'desc')
    .limit(BANS_HELD_MAX)
    .execute();
  const bans = new Map<string, Ban[]>();
  for (const row of rows) {
    const ban = { roomId: row.room_id, endsAt: row.ends_at.getTime() };
    bans.set(row.user_id, [...(bans.get(row.user_id) ?? []), ban]);
  }
  return bans;
}

/**
 * Who may not post where now (a mute in the room or everywhere, a removal from the room: the
 * rules the send statement holds), for what must not ask the database per event: the typing
 * indicator (decision 044). Kept per process and read again, in one statement for every person,
 * at most every `POSTING_BANS_TTL_MS` while asked; a sanction set or ended on any process
 * applies here within that time. The send path keeps its own check in the statement that stores.
 */
export function createPostingBans(db: Kysely<Database>, clock: () => number = Date.now) {
  let held: { at: number; bans: Map<string, Ban[]> } | undefined;
  let loading: Promise<void> | undefined;

  const load = (): Promise<void> =>
    (loading ??= bansInForce(db)
      .then((bans) => {
        held = { at: clock(), bans };
      })
      .finally(() => {
        loading = undefined;
      }));

  return {
    /** Settles once what is held is at most `POSTING_BANS_TTL_MS` old (one read for all callers). */
    async fresh(): Promise<void> {
      if (held && clock() - held.at < POSTING_BANS_TTL_MS) return;
      await load();
    },
    /**
     * True when `userId` may not post in `roomId` by what was last read (false before any read):
     * synchronous, so a caller may ask for every event. An ended ban stops counting at its end.
     * Asked while what is held is stale, it starts a read for the next ask (a failed read is
     * tried again on a later ask; `fresh` reports failures).
     */
    barred(userId: string, roomId: string): boolean {
      const now = clock();
      if (!held || now - held.at >= POSTING_BANS_TTL_MS) load().catch(() => {});
      return (
        held?.bans
          .get(userId)
          ?.some((ban) => ban.endsAt > now && (ban.roomId === null || ban.roomId === roomId)) ??
        false
      );
    },
  };
}

/** See {@link createPostingBans}. */
export type PostingBans = ReturnType<typeof createPostingBans>;
