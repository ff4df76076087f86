import type { Kysely, Selectable } from 'kysely';
import type { DatabaseHandle } from '../db/client.ts';
import { isUuid } from '../db/ids.ts';
import type { Database, ItemsTable } from '../db/schema.ts';
import { Refusal } from '../refusal.ts';

/** How many course materials `users/get-books` lists. */
export const COURSE_MATERIALS_LIMIT = 200;

/**
 * The columns a result card needs (`presentCatalogueItem`), read from `items as i`: one list for
 * every place that shows items as cards beside rows of its own (a shelf, a reading list, the books
 * one is reading).
 */
export const ITEM_CARD_COLUMNS = [
  'i.id',
  'i.kind',
  'i.title',
  'i.authors',
  'i.year',
  'i.subjects',
  'i.description',
  'i.cover_url',
  'i.drive_link',
  'i.url',
  'i.page_count',
  'i.withdrawn_at',
] as const;
/** The columns a course material is shown with: the list selects only these. */
export const COURSE_MATERIAL_COLUMNS = [
  'id',
  'title',
  'authors',
  'published_date',
  'year',
  'drive_link',
  'url',
  'institution',
  'genre',
  'subjects',
] as const;

/** A course material as `courseMaterials` and `publishCourseMaterial` (editing.ts) read it. */
export type CourseMaterialRow = Pick<
  Selectable<ItemsTable>,
  (typeof COURSE_MATERIAL_COLUMNS)[number]
>;

/** What anyone is told of an item that is not there, or not there for them (withdrawn). */
export const NO_SUCH_ITEM = 'There is no such item in the catalogue.';

/**
 * The catalogue item with `id`; 404 when there is none, or when it was withdrawn and
 * `withdrawn` (librarians may see it) is not set.
 */
export async function findItem(
  db: Kysely<Database>,
  id: string,
  { withdrawn = false }: { withdrawn?: boolean } = {},
): Promise<Selectable<ItemsTable>> {
  const row = isUuid(id)
    ? await db.selectFrom('items').selectAll().where('id', '=', id).executeTakeFirst()
    : undefined;
  if (!row || (row.withdrawn_at !== null && !withdrawn)) {
    throw new Refusal(404, NO_SUCH_ITEM);
  }
  return row;
}

/** Item `id` and page `page` of its held text; 404 when it has no such page. */
export async function readItemPage(
  db: Kysely<Database>,
  id: string,
  page: number,
): Promise<{ item: Selectable<ItemsTable>; content: string }> {
  const item = await findItem(db, id);
  if (item.page_count === 0) throw new Refusal(404, 'No content available for this book.');
  if (page > item.page_count) throw new Refusal(404, `This book has ${item.page_count} pages.`);
  const row = await db
    .selectFrom('item_pages')
    .select('content')
    .where('item_id', '=', item.id)
    .where('page_number', '=', page)
    .executeTakeFirst();
  if (!row) throw new Refusal(404, 'No content available for this book.');
  return { item, content: row.content };
}

/** The newest course materials, up to `COURSE_MATERIALS_LIMIT`. */
export async function courseMaterials(db: Kysely<Database>): Promise<CourseMaterialRow[]> {
  // Only what the answer shows: every column (the search vector, descriptions) cost PGlite
  // twice the time to read and hand over.
  return db
    .selectFrom('items')
    .select(COURSE_MATERIAL_COLUMNS)
    .where('kind', '=', 'course')
    .where('withdrawn_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('published_date', 'desc')
    .orderBy('title')
    .limit(COURSE_MATERIALS_LIMIT)
    .execute();
}

/**
 * What a trigger notifies, in the transaction of every statement that changes `items`, after
 * bumping the items' version in `data_versions` (migration `..._items-version.sql`).
 */
export const ITEMS_CHANGED = 'items_changed';

/** The items' version: it moves with every committed change to `items`. */
async function itemsVersion(db: Kysely<Database>): Promise<string> {
  const row = await db
    .selectFrom('data_versions')
    .select('version')
    .where('name', '=', 'items')
    .executeTakeFirstOrThrow();
  return String(row.version);
}

/** The course list kept in memory until the items change. */
export interface CourseMaterialsCache {
  /** `courseMaterials`, from memory while the items are as they were when it was read. */
  read(): Promise<readonly CourseMaterialRow[]>;
  /** Stops listening for changes. */
  close(): Promise<void>;
}

/**
 * `courseMaterials` answered from memory until the items change (decision 019). Every change to
 * `items`, whoever makes it (a publish, the importer, the seed), bumps their version and
 * notifies ITEMS_CHANGED in its own transaction (a trigger). On PostgreSQL, where other
 * processes change items too, a read asks the version first (one cheap statement) and reads
 * the list again when it moved, so a change is seen at once by every process; on PGlite this
 * process makes every change and hears it before the changing statement returns, so a read
 * costs no statement at all.
 */
export async function cacheCourseMaterials(
  database: DatabaseHandle,
): Promise<CourseMaterialsCache> {
  const { db } = database;
  let cached: { version: string; rows: Promise<readonly CourseMaterialRow[]> } | undefined;
  // The version is read before the list, so a list is never older than the version it is kept
  // under: at worst it is read again once more.
  const readAt = (version: string) => {
    if (cached?.version === version) return cached.rows;
    const entry = { version, rows: courseMaterials(db) };
    cached = entry;
    // A failed read is not kept: the next one tries again.
    entry.rows.catch(() => {
      if (cached === entry) cached = undefined;
    });
    return entry.rows;
  };
  if (database.listen) {
    let changes = 0;
    const stop = await database.listen(ITEMS_CHANGED, () => {
      changes += 1;
    });
    return {
      read: async () => readAt(String(changes)),
      // Nothing to stop once the database is closed.
      close: () => stop().catch(() => {}),
    };
  }
  return { read: async () => readAt(await itemsVersion(db)), close: async () => {} };
}
