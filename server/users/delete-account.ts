import type { Kysely, Transaction } from 'kysely';
import { DELETED_ACCOUNT_NAME } from '#contract/http/users.ts';
import type { Database } from '../db/schema.ts';
import { Refusal } from '../refusal.ts';
import { liveOffer } from '../reservations/claims.ts';
import { offerFreedCopies } from '../reservations/queue.ts';
import { LAST_LIBRARIAN_MESSAGE, lockEnabledLibrarians } from './accounts.ts';

/** A book out on loan to the person, which stops the deletion until it is returned. */
export interface OpenLoan {
  title: string;
  due_at: Date;
}

/** What deleting an account would do, as `deletionPreview` counts it. */
export interface DeletionPreview {
  openLoans: OpenLoan[];
  reservations: number;
  holds: number;
  requests: number;
  roomsCreated: number;
  messagesSent: number;
  materialsPublished: number;
  hasPassword: boolean;
  lastLibrarian: boolean;
}

/** A forum room that went with its creator's account. */
export interface RemovedRoom {
  id: string;
  name: string;
}

type Executor = Kysely<Database> | Transaction<Database>;

/** `userId`'s books out on loan, soonest due first. */
function openLoans(db: Executor, userId: string): Promise<OpenLoan[]> {
  return db
    .selectFrom('loans as l')
    .innerJoin('items as i', 'i.id', 'l.item_id')
    .select(['i.title', 'l.due_at'])
    .where('l.user_id', '=', userId)
    .where('l.returned_at', 'is', null)
    .orderBy('l.due_at')
    .orderBy('i.title')
    .execute();
}

/** The refusal while books are out: how many, which, and where to return them. */
function loansRefusal(loans: readonly OpenLoan[]): Refusal {
  const titles = loans.map((loan) => `"${loan.title}"`).join(', ');
  const count = loans.length === 1 ? '1 book' : `${loans.length} books`;
  const them = loans.length === 1 ? 'it' : 'them';
  return new Refusal(
    409,
    `You have ${count} on loan (${titles}): return ${them} at the desk first.`,
  );
}

/** Whether `userId` signs in with a password here (a better-auth credential account). */
export async function hasPassword(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('accounts')
    .select('id')
    .where('user_id', '=', userId)
    .where('provider_id', '=', 'credential')
    .where('password', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether `userId` is the only enabled librarian (who may therefore not go). */
async function isLastLibrarian(db: Executor, userId: string): Promise<boolean> {
  const librarians = await db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'librarian')
    .where('disabled_at', 'is', null)
    .limit(2)
    .execute();
  return librarians.length === 1 && librarians[0]!.id === userId;
}

/**
 * What deleting `userId`'s account would do at `now`, read without writing: the loans that stop
 * it, and how many reservations, waiting-list places, requests, rooms and forum messages it
 * touches and course materials it leaves behind (`GET /api/users/me/deletion`).
 */
export async function deletionPreview(
  db: Kysely<Database>,
  userId: string,
  now: Date,
): Promise<DeletionPreview> {
  const count = (n: { n: string | number | bigint } | undefined) => Number(n?.n ?? 0);
  const [loans, reservations, holds, requests, rooms, messages, materials, password, last] =
    await Promise.all([
      openLoans(db, userId),
      db
        .selectFrom('reservations as r')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('r.user_id', '=', userId)
        .where('r.status', '=', 'active')
        .where('r.expires_at', '>', now)
        .executeTakeFirst(),
      db
        .selectFrom('queued_holds as q')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('q.user_id', '=', userId)
        .where((eb) => eb.or([eb('q.status', '=', 'queued'), liveOffer(now)]))
        .executeTakeFirst(),
      db
        .selectFrom('resource_requests')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('requester_id', '=', userId)
        .executeTakeFirst(),
      db
        .selectFrom('chat_rooms')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('creator_id', '=', userId)
        .executeTakeFirst(),
      db
        .selectFrom('chat_messages as m')
        .innerJoin('chat_rooms as r', 'r.id', 'm.room_id')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('m.sender_id', '=', userId)
        .where('m.is_system', '=', false)
        .where('r.creator_id', '<>', userId)
        .executeTakeFirst(),
      db
        .selectFrom('items')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('created_by', '=', userId)
        .executeTakeFirst(),
      hasPassword(db, userId),
      isLastLibrarian(db, userId),
    ]);
  return {
    openLoans: loans,
    reservations: count(reservations),
    holds: count(holds),
    requests: count(requests),
    roomsCreated: count(rooms),
    messagesSent: count(messages),
    materialsPublished: count(materials),
    hasPassword: password,
    lastLibrarian: last,
  };
}

/**
 * Deletes `userId`'s account at `now`, in one transaction; the caller has checked who asks
 * (password or e-mail). Refused (409) while a book is out on loan to them, naming it, and for
 * the last enabled librarian. Otherwise:
 * - their active reservations and open waiting-list places (offers too) are cancelled, and each
 *   book touched offers its freed copies to the next in line (`offerFreedCopies`), under the
 *   locks a reservation takes: the librarians' rows (for a librarian), the person's, then the
 *   books' in id order;
 * - the desk's records keep the loan history but name them `DELETED_ACCOUNT_NAME`, and so do
 *   their forum messages in other people's rooms, which stay;
 * - the account goes, and with it (by the foreign keys) its sessions and sign-in accounts,
 *   reservations, waiting-list places, resource requests and support, notices, the rooms it
 *   created with all their messages; course materials it published stay, without a publisher.
 * Returns the rooms removed, so the transport can tell their members.
 */
export async function deleteAccount(
  db: Kysely<Database>,
  userId: string,
  now: Date,
): Promise<{ removedRooms: RemovedRoom[] }> {
  return db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('users')
      .select(['role', 'disabled_at'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!before) throw new Refusal(404, 'There is no such account.');
    if (before.role === 'librarian' && before.disabled_at === null) {
      const librarians = await lockEnabledLibrarians(trx);
      const still = librarians.some((librarian) => librarian.id === userId);
      if (still && librarians.length <= 1) throw new Refusal(409, LAST_LIBRARIAN_MESSAGE);
    }
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();

    const loans = await openLoans(trx, userId);
    if (loans.length > 0) throw loansRefusal(loans);

    // The books whose copies or queue places they give up, locked in one order.
    const touched = await trx
      .selectFrom('reservations')
      .select('item_id')
      .where('user_id', '=', userId)
      .where('status', '=', 'active')
      .union(
        trx
          .selectFrom('queued_holds')
          .select('item_id')
          .where('user_id', '=', userId)
          .where('status', 'in', ['queued', 'offered']),
      )
      .execute();
    const itemIds = [...new Set(touched.map((row) => row.item_id))].sort();
    if (itemIds.length > 0) {
      await trx
        .selectFrom('items')
        .select('id')
        .where('id', 'in', itemIds)
        .orderBy('id')
        .forUpdate()
        .execute();
    }
    await trx
      .updateTable('reservations')
      .set({ status: 'cancelled', updated_at: now })
      .where('user_id', '=', userId)
      .where('status', '=', 'active')
      .execute();
    await trx
      .updateTable('queued_holds')
      .set({ status: 'cancelled', updated_at: now })
      .where('user_id', '=', userId)
      .where('status', 'in', ['queued', 'offered'])
      .execute();

    await trx
      .updateTable('circulation_events')
      .set({ borrower_name: DELETED_ACCOUNT_NAME })
      .where('borrower_id', '=', userId)
      .execute();
    // A renewal of one's own loan names the borrower as the actor too.
    await trx
      .updateTable('circulation_events')
      .set({ actor_name: DELETED_ACCOUNT_NAME })
      .where('actor_id', '=', userId)
      .where('borrower_id', '=', userId)
      .execute();
    await trx
      .updateTable('chat_messages')
      .set({ sender_name: DELETED_ACCOUNT_NAME })
      .where('sender_id', '=', userId)
      .execute();
    const removedRooms = await trx
      .selectFrom('chat_rooms')
      .select(['id', 'name'])
      .where('creator_id', '=', userId)
      .execute();

    try {
      await trx.deleteFrom('users').where('id', '=', userId).execute();
    } catch (error) {
      // A loan made at the desk since the check: `loans_open_has_borrower` refuses to orphan it.
      if ((error as { code?: unknown }).code === '23514') {
        throw new Refusal(409, 'A book was lent to you just now: return it at the desk first.');
      }
      throw error;
    }
    for (const itemId of itemIds) await offerFreedCopies(trx, itemId, now);
    return { removedRooms };
  });
}
