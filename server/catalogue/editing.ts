import { sql, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import type { PostBookRequest } from '#contract/http/catalogue.ts';
import type { ItemCreate, ItemUpdate } from '#contract/http/items.ts';
import type { Database, ItemChangesTable, ItemsTable } from '../db/schema.ts';
import { isUuid } from '../db/ids.ts';
import { Refusal } from '../refusal.ts';
import { normaliseIsbn } from './isbn.ts';
import { NO_SUCH_ITEM } from './items.ts';
import { refreshSearchWords } from './words.ts';

type ItemRow = Selectable<ItemsTable>;
type Change = ItemChangesTable['action'];

/** Who makes a change: their id and the name the history shows. */
export interface Editor {
  id: string;
  name: string;
}

/** Who changes an item through the API: an editor and their role, which decides what they may change. */
export interface ItemEditor extends Editor {
  role: 'student' | 'faculty' | 'librarian';
}

/** A signed-in person as the history names them. */
export function editorOf(user: {
  id: string;
  name: string;
  first_name: string;
  last_name: string;
  role: ItemEditor['role'];
}): ItemEditor {
  const name = `${user.first_name} ${user.last_name}`.trim() || user.name;
  return { id: user.id, name, role: user.role };
}

/** What a faculty member hears when the item is not a course material they published. */
export const NOT_YOUR_MATERIAL = 'You can change only the course materials you published.';

/**
 * A librarian may change any item; anyone else only a course material they published, and not
 * into another type (it would leave their materials). Checked on the locked row, so the item
 * cannot become someone else's between the check and the change.
 */
function assertMayChange(item: ItemRow, editor: ItemEditor, fields: ItemUpdate = {}): void {
  if (editor.role === 'librarian') return;
  const own = item.kind === 'course' && item.created_by === editor.id;
  const keepsType = fields.type === undefined || fields.type === item.kind;
  if (!own || !keepsType) throw new Refusal(403, NOT_YOUR_MATERIAL);
}

/** The course materials `editor` published, newest first, withdrawn ones too. */
export async function itemsPublishedBy(
  db: Kysely<Database>,
  editor: Editor,
  limit = 500,
): Promise<ItemRow[]> {
  return db
    .selectFrom('items')
    .selectAll()
    .where('created_by', '=', editor.id)
    .where('kind', '=', 'course')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** The `source` of items librarians add by hand. */
export const CATALOGUE_SOURCE = 'catalogue';

/** Each contract field and the column that holds it. */
const COLUMNS = {
  type: 'kind',
  title: 'title',
  authors: 'authors',
  year: 'year',
  isbn: 'isbn',
  subjects: 'subjects',
  description: 'description',
  coverUrl: 'cover_url',
  url: 'url',
  language: 'language',
  institution: 'institution',
  genre: 'genre',
  publishedDate: 'published_date',
  driveLink: 'drive_link',
} as const satisfies Record<keyof ItemUpdate, keyof ItemsTable>;

type Field = keyof typeof COLUMNS;

/** The ISBN-13 of `isbn`, or a 400 naming the field when it is not a valid ISBN. */
function checkedIsbn(isbn: string | null | undefined): string | null | undefined {
  if (isbn === undefined || isbn === null) return isbn;
  const normalised = normaliseIsbn(isbn);
  if (!normalised) {
    throw new Refusal(400, 'Some fields are missing or invalid.', [
      { path: 'isbn', message: 'This is not a valid ISBN: check the digits, the last one too.' },
    ]);
  }
  return normalised;
}

/** The fields a patch gives (the ISBN checked and normalised), each with its column. */
function givenFields(
  fields: ItemUpdate,
): { field: Field; column: keyof ItemRow; value: unknown }[] {
  return (Object.entries(fields) as [Field, unknown][])
    .filter(([, value]) => value !== undefined)
    .map(([field, value]) => ({
      field,
      column: COLUMNS[field],
      value: field === 'isbn' ? checkedIsbn(value as string | null) : value,
    }));
}

/** The columns the given fields set. */
const columnsOf = (given: ReturnType<typeof givenFields>) =>
  Object.fromEntries(given.map(({ column, value }) => [column, value])) as Updateable<ItemsTable>;

/** A stored value as the history keeps it (dates as `YYYY-MM-DD`, arrays as they are). */
const comparable = (value: unknown) =>
  value instanceof Date ? value.toISOString() : value === undefined ? null : value;

/** Fails with a 409 naming the item that already has `isbn` (another than `exceptId`). */
async function assertIsbnFree(
  trx: Transaction<Database>,
  isbn: string | null | undefined,
  exceptId?: string,
): Promise<void> {
  if (!isbn) return;
  let query = trx.selectFrom('items').select(['id', 'title']).where('isbn', '=', isbn);
  if (exceptId) query = query.where('id', '<>', exceptId);
  const other = await query.executeTakeFirst();
  if (other) {
    throw new Refusal(409, `"${other.title}" already has ISBN ${isbn}. Edit that item instead.`);
  }
}

/** Records one change in the item's history. */
async function record(
  trx: Transaction<Database>,
  itemId: string,
  editor: Editor,
  action: Change,
  changes: Record<string, { from: unknown; to: unknown }> = {},
): Promise<void> {
  await trx
    .insertInto('item_changes')
    .values({
      item_id: itemId,
      changed_by: editor.id,
      changed_by_name: editor.name,
      action,
      changes: JSON.stringify(changes),
    })
    .execute();
}

/** The item with `id`, locked for this transaction; 404 when there is none. */
async function lockedItem(trx: Transaction<Database>, id: string): Promise<ItemRow> {
  const row = isUuid(id)
    ? await trx.selectFrom('items').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
    : undefined;
  if (!row) throw new Refusal(404, NO_SUCH_ITEM);
  return row;
}

/** Adds an item a librarian describes, with its words for "did you mean", and records it. */
export async function createItem(
  db: Kysely<Database>,
  fields: ItemCreate,
  editor: Editor,
): Promise<ItemRow> {
  const given = givenFields(fields);
  const columns = columnsOf(given);
  return db.transaction().execute(async (trx) => {
    await assertIsbnFree(trx, columns.isbn as string | null | undefined);
    const row = await trx
      .insertInto('items')
      .values({
        ...(columns as Required<Pick<ItemsTable, 'kind' | 'title' | 'authors'>>),
        source: CATALOGUE_SOURCE,
        source_id: sql<string>`gen_random_uuid()::text`,
        created_by: editor.id,
        updated_by: editor.id,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const changes = Object.fromEntries(
      given.map(({ field, value }) => [field, { from: null, to: value }]),
    );
    await record(trx, row.id, editor, 'created', changes);
    await refreshSearchWords(trx);
    return row;
  });
}

/**
 * Adds a course material that a faculty member (or a librarian) publishes through the spec's
 * `POST /api/faculty/post-book`, records it in the item's history as created by them, and adds
 * its words to "did you mean".
 */
export async function publishCourseMaterial(
  db: Kysely<Database>,
  body: PostBookRequest,
  editor: Editor,
): Promise<ItemRow> {
  const fields = {
    type: 'course',
    title: body.title,
    authors: [body.author],
    year: Number(body.publishedDate.slice(0, 4)),
    subjects: [body.genre],
    genre: body.genre,
    institution: body.instituteName,
    publishedDate: body.publishedDate,
    driveLink: body.driveLink,
  } as const satisfies ItemCreate;
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('items')
      .values({
        ...(columnsOf(givenFields(fields)) as Required<
          Pick<ItemsTable, 'kind' | 'title' | 'authors'>
        >),
        source: 'faculty',
        source_id: crypto.randomUUID(),
        created_by: editor.id,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const changes = Object.fromEntries(
      Object.entries(fields).map(([field, value]) => [field, { from: null, to: value }]),
    );
    await record(trx, row.id, editor, 'created', changes);
    await refreshSearchWords(trx, row.id);
    return row;
  });
}

/**
 * Changes an item's fields and records what changed, each field from and to; a patch that
 * changes nothing records nothing. Withdrawn items can be edited too (librarians see them).
 * Librarians change any item; faculty only the course materials they published.
 */
export async function editItem(
  db: Kysely<Database>,
  id: string,
  fields: ItemUpdate,
  editor: ItemEditor,
): Promise<ItemRow> {
  const given = givenFields(fields);
  return db.transaction().execute(async (trx) => {
    const before = await lockedItem(trx, id);
    assertMayChange(before, editor, fields);
    const changed = given.filter(
      ({ column, value }) => JSON.stringify(comparable(before[column])) !== JSON.stringify(value),
    );
    if (changed.length === 0) return before;
    const changes = Object.fromEntries(
      changed.map(({ field, column, value }) => [
        field,
        { from: comparable(before[column]), to: value },
      ]),
    );
    const columns = columnsOf(changed);
    if ('isbn' in changes) await assertIsbnFree(trx, columns.isbn as string | null, id);
    const row = await trx
      .updateTable('items')
      .set({ ...columns, updated_at: new Date(), updated_by: editor.id })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await record(trx, id, editor, 'edited', changes);
    if ('title' in changes || 'authors' in changes || 'subjects' in changes) {
      await refreshSearchWords(trx);
    }
    return row;
  });
}

/**
 * Withdraws an item (hidden from everyone but librarians) or restores it; faculty withdraw
 * ("unpublish") and restore only their own course materials. Doing what is already
 * done changes nothing and records nothing.
 */
export async function setWithdrawn(
  db: Kysely<Database>,
  id: string,
  withdrawn: boolean,
  editor: ItemEditor,
): Promise<ItemRow> {
  return db.transaction().execute(async (trx) => {
    const before = await lockedItem(trx, id);
    assertMayChange(before, editor);
    if ((before.withdrawn_at !== null) === withdrawn) return before;
    const row = await trx
      .updateTable('items')
      .set({ withdrawn_at: withdrawn ? new Date() : null, updated_by: editor.id })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await record(trx, id, editor, withdrawn ? 'withdrawn' : 'restored');
    return row;
  });
}

/** Records a change to one of an item's copies in the item's history, in `trx`. */
export async function recordCopyChange(
  trx: Transaction<Database>,
  itemId: string,
  editor: Editor,
  action: 'copy_added' | 'copy_changed',
  changes: Record<string, { from: unknown; to: unknown }>,
): Promise<void> {
  await record(trx, itemId, editor, action, changes);
}

/** An item's recorded changes, newest first (at most `limit`). */
export async function itemHistory(db: Kysely<Database>, id: string, limit = 200) {
  if (!isUuid(id)) throw new Refusal(404, NO_SUCH_ITEM);
  const item = await db.selectFrom('items').select('id').where('id', '=', id).executeTakeFirst();
  if (!item) throw new Refusal(404, NO_SUCH_ITEM);
  return db
    .selectFrom('item_changes')
    .selectAll()
    .where('item_id', '=', id)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
