import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { barcodeSchema, type CopyStatus, type CopyUpdate } from '#contract/http/copies.ts';
import { PREPARED } from '../db/prepared.ts';
import type { CopiesTable, Database } from '../db/schema.ts';
import { Refusal } from '../refusal.ts';
import { freeCopies, heldCopies } from '../reservations/holds.ts';
import { offerFreedCopies } from '../reservations/queue.ts';
import { recordCopyChange, type Editor } from './editing.ts';
import { findItem } from './items.ts';

/** A copy's row. */
export type CopyRow = Selectable<CopiesTable>;

/** A new copy's fields, as the contract has parsed them. */
export interface NewCopy {
  barcode: string;
  location: string;
  status: CopyStatus;
  note: string;
}

/** How many copies of an item there are, where, and how many can be reserved now. */
export interface CopySummary {
  total: number;
  available: number;
  locations: { location: string; total: number; available: number }[];
}

const NO_SUCH_COPY = 'No copy has that barcode.';

/** The message for a barcode another copy already carries. */
export const barcodeTaken = (barcode: string) =>
  `Barcode ${barcode} is already on another copy. Check the label, or edit that copy instead.`;

/** The copies of an item, by location and barcode. */
export async function listCopies(db: Kysely<Database>, itemId: string): Promise<CopyRow[]> {
  return db
    .selectFrom('copies')
    .selectAll()
    .where('item_id', '=', itemId)
    .orderBy('location')
    .orderBy('barcode')
    .execute();
}

/**
 * What anyone may know of an item's copies: counts and places, no barcodes. `available` is the
 * number the reservation check uses (copies on the shelf less those held for someone), so the
 * two never disagree; per location it counts copies on the shelf.
 */
export async function summariseCopies(
  db: Kysely<Database>,
  itemId: string,
  now: Date,
): Promise<CopySummary> {
  const [item, places] = await Promise.all([
    db
      .selectFrom('items as i')
      .select(['i.copies', 'i.copies_unavailable', (eb) => heldCopies(eb, now)])
      .where('i.id', '=', itemId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('copies')
      .select([
        'location',
        sql<string>`count(*)`.as('total'),
        sql<string>`count(*) FILTER (WHERE status = 'available')`.as('on_shelf'),
      ])
      .where('item_id', '=', itemId)
      .where('status', '<>', 'withdrawn')
      .groupBy('location')
      .orderBy('location')
      .execute(),
  ]);
  return {
    total: item.copies,
    available: freeCopies(item),
    locations: places.map((place) => ({
      location: place.location,
      total: Number(place.total),
      available: Number(place.on_shelf),
    })),
  };
}

/**
 * `summariseCopies` for many items in two statements (a page of search results): only items the
 * library holds copies of are in the answer.
 */
export async function summariseShelves(
  db: Kysely<Database>,
  itemIds: readonly string[],
  now: Date,
): Promise<Map<string, CopySummary>> {
  const shelves = new Map<string, CopySummary>();
  if (itemIds.length === 0) return shelves;
  const [items, places] = await Promise.all([
    db
      .selectFrom('items as i')
      // Prepared (decision 035): one text whatever the number of ids, as an array.
      .modifyFront(PREPARED)
      .select(['i.id', 'i.copies', 'i.copies_unavailable', (eb) => heldCopies(eb, now)])
      .where(sql<boolean>`i.id = ANY (${[...itemIds]}::uuid[])`)
      .where('i.copies', '>', 0)
      .execute(),
    db
      .selectFrom('copies')
      .modifyFront(PREPARED)
      .select([
        'item_id',
        'location',
        sql<string>`count(*)`.as('total'),
        sql<string>`count(*) FILTER (WHERE status = 'available')`.as('on_shelf'),
      ])
      .where(sql<boolean>`item_id = ANY (${[...itemIds]}::uuid[])`)
      .where('status', '<>', 'withdrawn')
      .groupBy(['item_id', 'location'])
      .orderBy('location')
      .execute(),
  ]);
  for (const item of items) {
    shelves.set(item.id, { total: item.copies, available: freeCopies(item), locations: [] });
  }
  for (const place of places) {
    shelves.get(place.item_id)?.locations.push({
      location: place.location,
      total: Number(place.total),
      available: Number(place.on_shelf),
    });
  }
  return shelves;
}

/** True when some copy other than `exceptId` carries `barcode` (in any case). */
async function barcodeInUse(
  db: Kysely<Database> | Transaction<Database>,
  barcode: string,
  exceptId?: string,
): Promise<boolean> {
  let query = db
    .selectFrom('copies')
    .select('id')
    .where(sql<boolean>`upper(barcode) = upper(${barcode})`);
  if (exceptId) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** True when `error` is PostgreSQL's unique violation of the barcode index (a race lost). */
function isBarcodeConflict(error: unknown): boolean {
  const { code, constraint } = error as { code?: string; constraint?: string };
  return code === '23505' && (constraint === undefined || constraint === 'copies_barcode_unique');
}

/**
 * Adds a copy to the item with `itemId` (404 when there is none; a withdrawn item takes copies
 * too): 409 when its barcode is on another copy. The item's history records who added it; a copy
 * on the shelf is offered to the book's waiting list first, in the same transaction.
 */
export async function addCopy(
  db: Kysely<Database>,
  itemId: string,
  copy: NewCopy,
  editor: Editor | null,
  now: Date = new Date(),
): Promise<CopyRow> {
  await findItem(db, itemId, { withdrawn: true });
  if (await barcodeInUse(db, copy.barcode)) throw new Refusal(409, barcodeTaken(copy.barcode));
  try {
    return await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('copies')
        .values({ item_id: itemId, ...copy, updated_by: editor?.id ?? null })
        .returningAll()
        .executeTakeFirstOrThrow();
      if (editor) {
        const added = Object.fromEntries(
          Object.entries(copy).map(([field, value]) => [field, { from: null, to: value }]),
        );
        await recordCopyChange(trx, itemId, editor, 'copy_added', added);
      }
      // Offered to the waiting list first; any new copy also moves the counts cards show.
      await offerFreedCopies(trx, itemId, now);
      return row;
    });
  } catch (error) {
    // Two librarians scanning one label at the same moment: the index decides, and says so.
    if (isBarcodeConflict(error)) throw new Refusal(409, barcodeTaken(copy.barcode));
    throw error;
  }
}

/** The copy whose barcode is `barcode` (in any case), or a 404. */
export async function findCopy(db: Kysely<Database>, barcode: string): Promise<CopyRow> {
  // Text no label can carry (a NUL would make PostgreSQL refuse the query) has no copy.
  if (!barcodeSchema.safeParse(barcode).success || barcode !== barcode.trim()) {
    throw new Refusal(404, NO_SUCH_COPY);
  }
  const row = await db
    .selectFrom('copies')
    .selectAll()
    .where(sql<boolean>`upper(barcode) = upper(${barcode})`)
    .executeTakeFirst();
  if (!row) throw new Refusal(404, NO_SUCH_COPY);
  return row;
}

/**
 * Changes a copy's barcode label, location, status or note (404 for an unknown barcode, 409 for
 * a new barcode another copy carries). The item's counts follow in the same statement (the
 * copies' trigger); a copy back on the shelf is offered to the book's waiting list first.
 */
export async function updateCopy(
  db: Kysely<Database>,
  barcode: string,
  patch: CopyUpdate,
  editor: Editor | null,
  now: Date = new Date(),
): Promise<CopyRow> {
  const copy = await findCopy(db, barcode);
  if (patch.barcode !== undefined && (await barcodeInUse(db, patch.barcode, copy.id))) {
    throw new Refusal(409, barcodeTaken(patch.barcode));
  }
  const changes = Object.fromEntries(
    (Object.entries(patch) as [keyof CopyUpdate, string][])
      .filter(([field, value]) => copy[field] !== value)
      .map(([field, value]) => [field, { from: copy[field], to: value }]),
  );
  try {
    return await db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('copies')
        .set({ ...patch, updated_at: new Date(), updated_by: editor?.id ?? null })
        .where('id', '=', copy.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      if (editor && Object.keys(changes).length > 0) {
        // The history names the copy by the label it had, so a relabelling reads plainly.
        await recordCopyChange(trx, copy.item_id, editor, 'copy_changed', {
          copy: { from: copy.barcode, to: row.barcode },
          ...changes,
        });
      }
      // A copy back on the shelf goes to the waiting list first; any change of status moves what
      // is free, which the seam tells the chat's cards (decision 045).
      if (row.status !== copy.status) {
        await offerFreedCopies(trx, copy.item_id, now);
      }
      return row;
    });
  } catch (error) {
    if (isBarcodeConflict(error) && patch.barcode)
      throw new Refusal(409, barcodeTaken(patch.barcode));
    throw error;
  }
}

/**
 * Gives an item `count` copies at `location`, the last `unavailable` of them in repair (or
 * `unavailableStatus`), with
 * barcodes from the library's own sequence (`DL0000001`). For the demo library and for tests
 * that need a book with copies; a librarian adds copies one by one with their real labels.
 */
export async function addNumberedCopies(
  db: Kysely<Database> | Transaction<Database>,
  itemId: string,
  {
    count,
    unavailable = 0,
    unavailableStatus = 'in_repair',
    location = 'Main library',
  }: {
    count: number;
    unavailable?: number;
    unavailableStatus?: Exclude<CopyStatus, 'available' | 'withdrawn'>;
    location?: string;
  },
): Promise<void> {
  if (count <= 0) return;
  await sql`
    INSERT INTO copies (item_id, barcode, status, location)
    SELECT ${itemId}::uuid,
           'DL' || lpad(nextval('copy_barcode_seq')::text, 7, '0'),
           CASE WHEN n > ${count - unavailable} THEN ${unavailableStatus} ELSE 'available' END,
           ${location}
    FROM generate_series(1, ${count}::int) AS n
  `.execute(db);
}

/**
 * Makes an item hold exactly `count` copies, `unavailable` of them in repair (tests that set the
 * shelf up as they need it): its copies are replaced by new numbered ones.
 */
export async function setNumberedCopies(
  db: Kysely<Database> | Transaction<Database>,
  itemId: string,
  count: number,
  unavailable = 0,
): Promise<void> {
  await db.deleteFrom('copies').where('item_id', '=', itemId).execute();
  await addNumberedCopies(db, itemId, { count, unavailable });
}

/** A copy an import attaches to an item: matched by barcode (ignoring case) on a re-run. */
export interface ImportedCopy {
  itemId: string;
  barcode: string;
  location: string;
  status: CopyStatus;
  note?: string;
}

/** What writing a batch of imported copies did. */
export interface ImportedCopyCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

/**
 * Inserts imported copies, or updates the copy that already carries each barcode (its item,
 * location, status and note), in one statement: a re-run never duplicates a copy. Within one
 * batch the last row of a barcode wins (one statement cannot touch a row twice). `touched` names
 * the items whose copies changed (a copy moved to another item: both), for the live
 * availability the caller says once its transaction has committed (decision 045).
 */
export async function upsertImportedCopies(
  db: Kysely<Database> | Transaction<Database>,
  copies: readonly ImportedCopy[],
): Promise<ImportedCopyCounts & { touched: string[] }> {
  const byBarcode = new Map<string, ImportedCopy>();
  for (const copy of copies) byBarcode.set(copy.barcode.toUpperCase(), copy);
  const rows = [...byBarcode.values()];
  const counts = { inserted: 0, updated: 0, unchanged: rows.length };
  if (rows.length === 0) return { ...counts, touched: [] };
  const returned = await db
    .insertInto('copies')
    .values(
      rows.map((copy) => ({
        item_id: copy.itemId,
        barcode: copy.barcode,
        location: copy.location,
        status: copy.status,
        note: copy.note ?? '',
      })),
    )
    .onConflict((conflict) =>
      conflict
        .expression(sql`upper(barcode)`)
        .doUpdateSet({
          item_id: sql.ref('excluded.item_id'),
          location: sql.ref('excluded.location'),
          status: sql.ref('excluded.status'),
          note: sql.ref('excluded.note'),
          updated_at: sql`now()`,
        })
        // An unchanged copy is not rewritten, so its item's counts and history stay quiet.
        .where(
          sql<boolean>`(copies.item_id, copies.location, copies.status, copies.note) IS DISTINCT FROM (excluded.item_id, excluded.location, excluded.status, excluded.note)`,
        ),
    )
    .returning([
      sql<boolean>`xmax = 0`.as('inserted'),
      'item_id',
      // The statement's subqueries read the table as it was before it: the item a copy left.
      sql<string | null>`(SELECT before.item_id FROM copies before WHERE before.id = copies.id)`.as(
        'item_before',
      ),
    ])
    .execute();
  const touched = new Set<string>();
  for (const row of returned) {
    counts[row.inserted ? 'inserted' : 'updated'] += 1;
    touched.add(row.item_id);
    if (row.item_before) touched.add(row.item_before);
  }
  counts.unchanged -= returned.length;
  return { ...counts, touched: [...touched] };
}
