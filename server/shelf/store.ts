import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import {
  READING_LIST_ITEMS_MAX,
  READING_LISTS_MAX,
  SAVED_ITEMS_MAX,
  SHARE_TOKEN_PATTERN,
  type CreateReadingList,
  type UpdateReadingList,
} from '#contract/http/shelf.ts';
import type { SearchRow } from '../catalogue/search.ts';
import { ITEM_CARD_COLUMNS, NO_SUCH_ITEM } from '../catalogue/items.ts';
import { isUuid } from '../db/ids.ts';
import type { Database, ReadingListsTable } from '../db/schema.ts';
import { Refusal } from '../refusal.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** Someone else's list is answered exactly as a missing one, so ids cannot be probed. */
export const NO_SUCH_LIST = 'There is no such reading list.';
/** An unknown, or no longer shared, link. */
export const NO_SUCH_SHARED_LIST =
  'This reading list is not shared (any more), or the link is not complete.';
export const ALREADY_IN_LIST = 'That item is already in this list.';
export const NOT_IN_LIST = 'That item is not in this list.';
export const ORDER_MISMATCH =
  'The new order must name every item of the list exactly once, and nothing else.';

/** A saved item: its card's columns and when it was saved. */
export type SavedItemRow = SearchRow & { saved_at: Date };
/** An item of a list: its card's columns and when it was added. */
export type ListItemRow = SearchRow & { added_at: Date };
/** A reading list's own columns and how many items it holds. */
export type ReadingListRow = Selectable<ReadingListsTable> & { item_count: number };
/** A reading list with its items in order. */
export type ReadingListWithItems = ReadingListRow & { items: ListItemRow[] };

/** A new share token: 24 random bytes (192 bits) as base64url, 32 characters. */
function newShareToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Item `itemId`, not withdrawn, or a 404 (what a person may newly save or add). */
async function requireSavableItem(db: Db, itemId: string): Promise<void> {
  const row = isUuid(itemId)
    ? await db
        .selectFrom('items')
        .select('id')
        .where('id', '=', itemId)
        .where('withdrawn_at', 'is', null)
        .executeTakeFirst()
    : undefined;
  if (!row) throw new Refusal(404, NO_SUCH_ITEM);
}

/** `userId`'s saved items, newest first; withdrawn ones too (marked), so they can be removed. */
export async function listSavedItems(db: Db, userId: string): Promise<SavedItemRow[]> {
  return db
    .selectFrom('saved_items as s')
    .innerJoin('items as i', 'i.id', 's.item_id')
    .select([...ITEM_CARD_COLUMNS, 's.saved_at'])
    .where('s.user_id', '=', userId)
    .orderBy('s.saved_at', 'desc')
    .orderBy('s.seq', 'desc')
    .execute();
}

/**
 * Saves item `itemId` to `userId`'s shelf; saving it again changes nothing. The person's row is
 * locked, so parallel saves are counted one after another against {@link SAVED_ITEMS_MAX}.
 */
export async function saveItem(
  db: Kysely<Database>,
  userId: string,
  itemId: string,
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await requireSavableItem(trx, itemId);
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    const already = await trx
      .selectFrom('saved_items')
      .select('item_id')
      .where('user_id', '=', userId)
      .where('item_id', '=', itemId)
      .executeTakeFirst();
    if (already) return;
    const { count } = await trx
      .selectFrom('saved_items')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= SAVED_ITEMS_MAX) {
      throw new Refusal(
        409,
        `Your shelf holds ${SAVED_ITEMS_MAX.toLocaleString('en')} items, the most it can. Remove some first.`,
      );
    }
    await trx
      .insertInto('saved_items')
      .values({ user_id: userId, item_id: itemId, saved_at: now })
      .onConflict((conflict) => conflict.columns(['user_id', 'item_id']).doNothing())
      .execute();
  });
}

/** Takes item `itemId` off `userId`'s shelf; an item not on it changes nothing. */
export async function unsaveItem(db: Db, userId: string, itemId: string): Promise<void> {
  if (!isUuid(itemId)) return;
  await db
    .deleteFrom('saved_items')
    .where('user_id', '=', userId)
    .where('item_id', '=', itemId)
    .execute();
}

/** The lists of `userId`, newest first, each with its item count. */
export async function listReadingLists(db: Db, userId: string): Promise<ReadingListRow[]> {
  const rows = await db
    .selectFrom('reading_lists as l')
    .selectAll('l')
    .select((eb) =>
      eb
        .selectFrom('reading_list_items as r')
        .select(eb.fn.countAll<string>().as('n'))
        .whereRef('r.list_id', '=', 'l.id')
        .as('item_count'),
    )
    .where('l.user_id', '=', userId)
    .orderBy('l.created_at', 'desc')
    .orderBy('l.id')
    .execute();
  return rows.map((row) => ({ ...row, item_count: Number(row.item_count ?? 0) }));
}

/** `userId`'s list `listId`, locked for the change to come when `lock`; else a 404. */
async function ownList(
  db: Db,
  userId: string,
  listId: string,
  lock = false,
): Promise<Selectable<ReadingListsTable>> {
  if (!isUuid(listId)) throw new Refusal(404, NO_SUCH_LIST);
  let query = db
    .selectFrom('reading_lists')
    .selectAll()
    .where('id', '=', listId)
    .where('user_id', '=', userId);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw new Refusal(404, NO_SUCH_LIST);
  return row;
}

/** The items of list `listId` in order; `withdrawn: false` leaves withdrawn ones out. */
async function listItems(
  db: Db,
  listId: string,
  { withdrawn }: { withdrawn: boolean },
): Promise<ListItemRow[]> {
  let query = db
    .selectFrom('reading_list_items as r')
    .innerJoin('items as i', 'i.id', 'r.item_id')
    .select([...ITEM_CARD_COLUMNS, 'r.added_at'])
    .where('r.list_id', '=', listId);
  if (!withdrawn) query = query.where('i.withdrawn_at', 'is', null);
  return query.orderBy('r.position').orderBy('r.added_at').execute();
}

async function withItems(
  db: Db,
  list: Selectable<ReadingListsTable>,
): Promise<ReadingListWithItems> {
  // The owner sees withdrawn items too (marked), so they can take them out.
  const items = await listItems(db, list.id, { withdrawn: true });
  return { ...list, item_count: items.length, items };
}

/** `userId`'s list `listId` with its items in order; 404 for anyone else's or a missing one. */
export async function readingList(
  db: Db,
  userId: string,
  listId: string,
): Promise<ReadingListWithItems> {
  return withItems(db, await ownList(db, userId, listId));
}

/**
 * A new, private, empty list of `userId`. The person's row is locked, so parallel creations are
 * counted one after another against {@link READING_LISTS_MAX}.
 */
export async function createReadingList(
  db: Kysely<Database>,
  userId: string,
  fields: CreateReadingList,
  now: Date,
): Promise<ReadingListWithItems> {
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    const { count } = await trx
      .selectFrom('reading_lists')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= READING_LISTS_MAX) {
      throw new Refusal(
        409,
        `You have ${READING_LISTS_MAX} reading lists, the most you can keep. Delete one first.`,
      );
    }
    const list = await trx
      .insertInto('reading_lists')
      .values({
        user_id: userId,
        name: fields.name,
        description: fields.description ?? '',
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { ...list, item_count: 0, items: [] };
  });
}

/**
 * Changes `userId`'s list `listId`: its name, description, or sharing. Sharing makes a new
 * token; unsharing forgets it, so its link never works again; asking for what already is (shared
 * when shared) keeps the current link.
 */
export async function updateReadingList(
  db: Kysely<Database>,
  userId: string,
  listId: string,
  patch: UpdateReadingList,
  now: Date,
): Promise<ReadingListWithItems> {
  return db.transaction().execute(async (trx) => {
    const list = await ownList(trx, userId, listId, true);
    let shareToken = list.share_token;
    if (patch.shared === true && shareToken === null) shareToken = newShareToken();
    if (patch.shared === false) shareToken = null;
    const updated = await trx
      .updateTable('reading_lists')
      .set({
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        share_token: shareToken,
        updated_at: now,
      })
      .where('id', '=', list.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return withItems(trx, updated);
  });
}

/** Deletes `userId`'s list `listId` and its entries (never the items themselves). */
export async function deleteReadingList(db: Db, userId: string, listId: string): Promise<void> {
  if (!isUuid(listId)) throw new Refusal(404, NO_SUCH_LIST);
  const deleted = await db
    .deleteFrom('reading_lists')
    .where('id', '=', listId)
    .where('user_id', '=', userId)
    .returning('id')
    .executeTakeFirst();
  if (!deleted) throw new Refusal(404, NO_SUCH_LIST);
}

/** Marks list `listId` changed at `now` and answers it with its items (after an item change). */
async function touchedList(
  trx: Transaction<Database>,
  listId: string,
  now: Date,
): Promise<ReadingListWithItems> {
  const updated = await trx
    .updateTable('reading_lists')
    .set({ updated_at: now })
    .where('id', '=', listId)
    .returningAll()
    .executeTakeFirstOrThrow();
  return withItems(trx, updated);
}

/**
 * Appends item `itemId` to `userId`'s list `listId`: 409 when it is in it already or the list is
 * full. The list's row is locked, so parallel appends take turns for the next position.
 */
export async function addListItem(
  db: Kysely<Database>,
  userId: string,
  listId: string,
  itemId: string,
  now: Date,
): Promise<ReadingListWithItems> {
  return db.transaction().execute(async (trx) => {
    const list = await ownList(trx, userId, listId, true);
    await requireSavableItem(trx, itemId);
    const stats = await trx
      .selectFrom('reading_list_items')
      .select((eb) => [
        eb.fn.countAll<string>().as('count'),
        eb.fn.max<number | null>('position').as('last'),
        sql<boolean>`bool_or(item_id = ${itemId})`.as('present'),
      ])
      .where('list_id', '=', list.id)
      .executeTakeFirstOrThrow();
    if (stats.present === true) throw new Refusal(409, ALREADY_IN_LIST);
    if (Number(stats.count) >= READING_LIST_ITEMS_MAX) {
      throw new Refusal(
        409,
        `A reading list holds at most ${READING_LIST_ITEMS_MAX} items. Start another list.`,
      );
    }
    await trx
      .insertInto('reading_list_items')
      .values({
        list_id: list.id,
        item_id: itemId,
        position: (stats.last ?? 0) + 1,
        added_at: now,
      })
      .execute();
    return touchedList(trx, list.id, now);
  });
}

/** Takes item `itemId` out of `userId`'s list `listId`; 404 when it is not in it. */
export async function removeListItem(
  db: Kysely<Database>,
  userId: string,
  listId: string,
  itemId: string,
  now: Date,
): Promise<ReadingListWithItems> {
  return db.transaction().execute(async (trx) => {
    const list = await ownList(trx, userId, listId, true);
    const removed = isUuid(itemId)
      ? await trx
          .deleteFrom('reading_list_items')
          .where('list_id', '=', list.id)
          .where('item_id', '=', itemId)
          .returning('item_id')
          .executeTakeFirst()
      : undefined;
    if (!removed) throw new Refusal(404, NOT_IN_LIST);
    return touchedList(trx, list.id, now);
  });
}

/**
 * Puts `userId`'s list `listId` in the order of `itemIds`, which must name every item of the list
 * once and nothing else (422 otherwise: the list changed in another tab, most likely).
 */
export async function reorderList(
  db: Kysely<Database>,
  userId: string,
  listId: string,
  itemIds: readonly string[],
  now: Date,
): Promise<ReadingListWithItems> {
  return db.transaction().execute(async (trx) => {
    const list = await ownList(trx, userId, listId, true);
    const current = await trx
      .selectFrom('reading_list_items')
      .select('item_id')
      .where('list_id', '=', list.id)
      .execute();
    const held = new Set(current.map((row) => row.item_id));
    const asked = new Set(itemIds.map((id) => id.toLowerCase()));
    if (
      asked.size !== itemIds.length ||
      asked.size !== held.size ||
      [...asked].some((id) => !held.has(id))
    ) {
      throw new Refusal(422, ORDER_MISMATCH);
    }
    if (itemIds.length > 0) {
      // One statement: each item's new position is its place in the array.
      await sql`
        UPDATE reading_list_items AS r SET position = o.ord
        FROM unnest(${[...asked]}::uuid[]) WITH ORDINALITY AS o (item_id, ord)
        WHERE r.list_id = ${list.id} AND r.item_id = o.item_id
      `.execute(trx);
    }
    return touchedList(trx, list.id, now);
  });
}

/** A shared list as anyone signed in reads it: its owner's name and items in order. */
export interface SharedListView {
  list: Selectable<ReadingListsTable>;
  ownerName: string;
  items: ListItemRow[];
}

/**
 * The list shared by `token`, without its withdrawn items; 404 for a token no list holds (never
 * made, or forgotten when sharing was turned off).
 */
export async function sharedList(db: Db, token: string): Promise<SharedListView> {
  const row = SHARE_TOKEN_PATTERN.test(token)
    ? await db
        .selectFrom('reading_lists as l')
        .innerJoin('users as u', 'u.id', 'l.user_id')
        .selectAll('l')
        .select('u.name as owner_name')
        .where('l.share_token', '=', token)
        .executeTakeFirst()
    : undefined;
  if (!row) throw new Refusal(404, NO_SUCH_SHARED_LIST);
  const { owner_name: ownerName, ...list } = row;
  return { list, ownerName, items: await listItems(db, list.id, { withdrawn: false }) };
}

/** `userId`'s shelf and lists for "Download my data": titles, dates and order. */
export async function shelfForExport(db: Db, userId: string) {
  const [saved, lists, entries] = await Promise.all([
    db
      .selectFrom('saved_items as s')
      .innerJoin('items as i', 'i.id', 's.item_id')
      .select(['i.id as itemId', 'i.title', 's.saved_at as savedAt'])
      .where('s.user_id', '=', userId)
      .orderBy('s.saved_at', 'desc')
      .orderBy('s.seq', 'desc')
      .execute(),
    db
      .selectFrom('reading_lists')
      .select([
        'id',
        'name',
        'description',
        'share_token',
        'created_at as createdAt',
        'updated_at as updatedAt',
      ])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('reading_list_items as r')
      .innerJoin('reading_lists as l', 'l.id', 'r.list_id')
      .innerJoin('items as i', 'i.id', 'r.item_id')
      .select(['r.list_id', 'i.id as itemId', 'i.title', 'r.added_at as addedAt'])
      .where('l.user_id', '=', userId)
      .orderBy('r.list_id')
      .orderBy('r.position')
      .execute(),
  ]);
  return {
    savedItems: saved,
    readingLists: lists.map(({ id, share_token, ...list }) => ({
      ...list,
      // Whether it is shared; the link's key stays out of a file that may be passed around.
      shared: share_token !== null,
      items: entries
        .filter((entry) => entry.list_id === id)
        .map(({ itemId, title, addedAt }) => ({ itemId, title, addedAt })),
    })),
  };
}
