import type { Kysely, Selectable } from 'kysely';
import {
  DEFAULT_READING_PREFERENCES,
  HIGHLIGHTS_PER_BOOK_MAX,
  RECENT_READING_MAX,
  type HighlightCreate,
  type ReadingPreferences,
} from '#contract/http/reading.ts';
import { pagePlainText } from '#contract/page-text.ts';
import { findItem, ITEM_CARD_COLUMNS } from '../catalogue/items.ts';
import type { SearchRow } from '../catalogue/search.ts';
import type { Database, HighlightsTable, ItemsTable } from '../db/schema.ts';
import { Refusal } from '../refusal.ts';

/**
 * One person's reading of the library's held texts (issue 24): where they left off, their display
 * preferences, bookmarks and highlights. Every statement names the caller, so nobody (a librarian
 * neither) reads or changes another person's: someone else's highlight is the same 404 as none.
 */

/** A bookmark as stored. */
export type BookmarkRow = { page: number; created_at: Date };
/** A highlight as stored. */
export type HighlightRow = Selectable<HighlightsTable>;

/** What a missing highlight, or someone else's, answers. */
export const NO_SUCH_HIGHLIGHT = 'There is no such highlight.';
/** What a highlight whose quote is not the page's text there answers. */
export const STALE_HIGHLIGHT =
  'The highlighted text is not on that page any more; select it again.';

/** Item `id` for reading: 404 (the catalogue's words) when missing or withdrawn. */
export function readableItem(db: Kysely<Database>, id: string): Promise<Selectable<ItemsTable>> {
  return findItem(db, id);
}

/** Refuses (422) a page the item does not have. */
function checkPage(item: Selectable<ItemsTable>, page: number): void {
  if (item.page_count === 0) throw new Refusal(422, 'This item has no pages to read.');
  if (page > item.page_count) {
    const pages = item.page_count === 1 ? '1 page' : `${item.page_count} pages`;
    throw new Refusal(422, `This book has ${pages}: page ${page} is not one of them.`);
  }
}

/** The caller's state in one book: last page, bookmarks and highlights in reading order. */
export async function readingState(db: Kysely<Database>, userId: string, itemId: string) {
  const item = await readableItem(db, itemId);
  const [progress, bookmarks, highlights] = await Promise.all([
    db
      .selectFrom('reading_progress')
      .select(['page', 'updated_at'])
      .where('user_id', '=', userId)
      .where('item_id', '=', item.id)
      .executeTakeFirst(),
    bookmarksOf(db, userId, item.id),
    highlightsOf(db, userId, item.id),
  ]);
  return { item, progress: progress ?? null, bookmarks, highlights };
}

function bookmarksOf(db: Kysely<Database>, userId: string, itemId: string) {
  return db
    .selectFrom('bookmarks')
    .select(['page', 'created_at'])
    .where('user_id', '=', userId)
    .where('item_id', '=', itemId)
    .orderBy('page')
    .execute();
}

function highlightsOf(db: Kysely<Database>, userId: string, itemId: string) {
  return db
    .selectFrom('highlights')
    .selectAll()
    .where('user_id', '=', userId)
    .where('item_id', '=', itemId)
    .orderBy('page')
    .orderBy('start_offset')
    .orderBy('created_at')
    .execute();
}

/** Keeps `page` as the caller's last page of the book (the last write wins, on any device). */
export async function saveProgress(
  db: Kysely<Database>,
  userId: string,
  itemId: string,
  page: number,
  now: Date,
): Promise<{ itemId: string; page: number; updatedAt: Date }> {
  const item = await readableItem(db, itemId);
  checkPage(item, page);
  await db
    .insertInto('reading_progress')
    .values({ user_id: userId, item_id: item.id, page, updated_at: now })
    .onConflict((conflict) =>
      conflict.columns(['user_id', 'item_id']).doUpdateSet({ page, updated_at: now }),
    )
    .execute();
  return { itemId: item.id, page, updatedAt: now };
}

/** Bookmarks `page` (again is the same bookmark); answers it. */
export async function addBookmark(
  db: Kysely<Database>,
  userId: string,
  itemId: string,
  page: number,
  now: Date,
): Promise<BookmarkRow> {
  const item = await readableItem(db, itemId);
  checkPage(item, page);
  await db
    .insertInto('bookmarks')
    .values({ user_id: userId, item_id: item.id, page, created_at: now })
    .onConflict((conflict) => conflict.columns(['user_id', 'item_id', 'page']).doNothing())
    .execute();
  return db
    .selectFrom('bookmarks')
    .select(['page', 'created_at'])
    .where('user_id', '=', userId)
    .where('item_id', '=', item.id)
    .where('page', '=', page)
    .executeTakeFirstOrThrow();
}

/** Removes the bookmark on `page`; 404 when there is none. */
export async function removeBookmark(
  db: Kysely<Database>,
  userId: string,
  itemId: string,
  page: number,
): Promise<void> {
  const item = await readableItem(db, itemId);
  const removed = await db
    .deleteFrom('bookmarks')
    .where('user_id', '=', userId)
    .where('item_id', '=', item.id)
    .where('page', '=', page)
    .executeTakeFirst();
  if (Number(removed.numDeletedRows) === 0)
    throw new Refusal(404, `There is no bookmark on page ${page}.`);
}

/**
 * Highlights a passage of a page, with a note. The quote must be exactly the page's plain text
 * between the offsets (the browser and the server read pages with the same `pagePlainText`), so
 * a highlight never names text that is not there. At most `HIGHLIGHTS_PER_BOOK_MAX` per person
 * and book: the count and the insert run under a lock of the person's row, so two at once
 * cannot both take the last place.
 */
export async function addHighlight(
  db: Kysely<Database>,
  userId: string,
  itemId: string,
  input: HighlightCreate,
  now: Date,
): Promise<HighlightRow> {
  const item = await readableItem(db, itemId);
  checkPage(item, input.page);
  const row = await db
    .selectFrom('item_pages')
    .select('content')
    .where('item_id', '=', item.id)
    .where('page_number', '=', input.page)
    .executeTakeFirst();
  if (!row || pagePlainText(row.content).slice(input.start, input.end) !== input.quote)
    throw new Refusal(422, STALE_HIGHLIGHT);
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    const count = await trx
      .selectFrom('highlights')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', userId)
      .where('item_id', '=', item.id)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= HIGHLIGHTS_PER_BOOK_MAX)
      throw new Refusal(
        409,
        `You have ${HIGHLIGHTS_PER_BOOK_MAX} highlights in this book, the most one book keeps: delete some first.`,
      );
    return trx
      .insertInto('highlights')
      .values({
        user_id: userId,
        item_id: item.id,
        page: input.page,
        start_offset: input.start,
        end_offset: input.end,
        quote: input.quote,
        note: input.note,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/** Changes the note of the caller's highlight `id`; 404 when it is not theirs (or not at all). */
export async function updateHighlightNote(
  db: Kysely<Database>,
  userId: string,
  id: string,
  note: string,
  now: Date,
): Promise<HighlightRow> {
  const row = await db
    .updateTable('highlights')
    .set({ note, updated_at: now })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new Refusal(404, NO_SUCH_HIGHLIGHT);
  return row;
}

/** Deletes the caller's highlight `id`; 404 when it is not theirs (or not at all). */
export async function removeHighlight(
  db: Kysely<Database>,
  userId: string,
  id: string,
): Promise<void> {
  const removed = await db
    .deleteFrom('highlights')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (Number(removed.numDeletedRows) === 0) throw new Refusal(404, NO_SUCH_HIGHLIGHT);
}

/** The caller's display preferences: the defaults for what they never chose. */
export async function readingPreferences(
  db: Kysely<Database>,
  userId: string,
): Promise<ReadingPreferences> {
  const row = await db
    .selectFrom('reading_preferences')
    .select(['theme', 'text_size', 'line_width'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row
    ? { theme: row.theme, textSize: row.text_size, lineWidth: row.line_width }
    : { ...DEFAULT_READING_PREFERENCES };
}

/** Changes some of the caller's display preferences; the others stay. Answers all three. */
export async function setReadingPreferences(
  db: Kysely<Database>,
  userId: string,
  change: Partial<ReadingPreferences>,
  now: Date,
): Promise<ReadingPreferences> {
  const values = {
    theme: change.theme ?? DEFAULT_READING_PREFERENCES.theme,
    text_size: change.textSize ?? DEFAULT_READING_PREFERENCES.textSize,
    line_width: change.lineWidth ?? DEFAULT_READING_PREFERENCES.lineWidth,
  };
  // Only the fields sent change an existing row: two devices changing different ones both keep.
  const row = await db
    .insertInto('reading_preferences')
    .values({ user_id: userId, ...values, updated_at: now })
    .onConflict((conflict) =>
      conflict.column('user_id').doUpdateSet({
        ...(change.theme ? { theme: change.theme } : {}),
        ...(change.textSize ? { text_size: change.textSize } : {}),
        ...(change.lineWidth ? { line_width: change.lineWidth } : {}),
        updated_at: now,
      }),
    )
    .returning(['theme', 'text_size', 'line_width'])
    .executeTakeFirstOrThrow();
  return { theme: row.theme, textSize: row.text_size, lineWidth: row.line_width };
}

/** A book of "Continue reading": the item's card columns and where the caller is in it. */
export type RecentRow = SearchRow & { page: number; read_at: Date };

/** The caller's books, most recently read first, withdrawn ones left out. */
export function recentReading(db: Kysely<Database>, userId: string): Promise<RecentRow[]> {
  return db
    .selectFrom('reading_progress as r')
    .innerJoin('items as i', 'i.id', 'r.item_id')
    .select([...ITEM_CARD_COLUMNS, 'r.page', 'r.updated_at as read_at'])
    .where('r.user_id', '=', userId)
    .where('i.withdrawn_at', 'is', null)
    .orderBy('r.updated_at', 'desc')
    .orderBy('i.title')
    .limit(RECENT_READING_MAX)
    .execute();
}

/** The book and the caller's bookmarks and highlights in it, for the Markdown export. */
export async function readingNotes(db: Kysely<Database>, userId: string, itemId: string) {
  const item = await readableItem(db, itemId);
  const [bookmarks, highlights] = await Promise.all([
    bookmarksOf(db, userId, item.id),
    highlightsOf(db, userId, item.id),
  ]);
  return { item, bookmarks, highlights };
}

/**
 * Everything reading keeps about one person, for "Download my data": last pages, preferences,
 * bookmarks and highlights with notes, each naming its book by title.
 */
export async function collectReadingData(db: Kysely<Database>, userId: string) {
  const [progress, preferences, bookmarks, highlights] = await Promise.all([
    db
      .selectFrom('reading_progress as r')
      .innerJoin('items as i', 'i.id', 'r.item_id')
      .select(['i.id as itemId', 'i.title', 'r.page', 'r.updated_at as readAt'])
      .where('r.user_id', '=', userId)
      .orderBy('r.updated_at', 'desc')
      .execute(),
    db
      .selectFrom('reading_preferences')
      .select(['theme', 'text_size as textSize', 'line_width as lineWidth'])
      .where('user_id', '=', userId)
      .executeTakeFirst(),
    db
      .selectFrom('bookmarks as b')
      .innerJoin('items as i', 'i.id', 'b.item_id')
      .select(['i.id as itemId', 'i.title', 'b.page', 'b.created_at as createdAt'])
      .where('b.user_id', '=', userId)
      .orderBy('i.title')
      .orderBy('b.page')
      .execute(),
    db
      .selectFrom('highlights as h')
      .innerJoin('items as i', 'i.id', 'h.item_id')
      .select([
        'i.id as itemId',
        'i.title',
        'h.page',
        'h.quote',
        'h.note',
        'h.created_at as createdAt',
        'h.updated_at as updatedAt',
      ])
      .where('h.user_id', '=', userId)
      .orderBy('i.title')
      .orderBy('h.page')
      .orderBy('h.start_offset')
      .execute(),
  ]);
  return { lastPages: progress, preferences: preferences ?? null, bookmarks, highlights };
}
