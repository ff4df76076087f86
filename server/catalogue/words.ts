import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Adds the catalogue's distinct title, author and subject words to `search_words`, the table
 * search corrects typos and "did you mean" looks misspellings up in, with how many items hold
 * each; with `itemId`, only that item's words (added to the counts). Call it after an import, a
 * publish or seeding.
 */
export async function refreshSearchWords(db: Kysely<Database>, itemId?: string): Promise<void> {
  // ts_stat takes its query as text; an item id is a uuid (checked here), so it is safe to inline.
  if (itemId !== undefined && !/^[0-9a-f-]{36}$/i.test(itemId))
    throw new Error(`not an item id: ${itemId}`);
  const only = itemId === undefined ? '' : ` WHERE id = '${itemId}'`;
  const documents = `SELECT to_tsvector('simple', digi_title_text(title) || ' ' || digi_join_words(authors) || ' ' || digi_join_words(subjects)) FROM items${only}`;
  await sql`
    INSERT INTO search_words (word, documents)
    SELECT word, ndoc FROM ts_stat(${documents})
    WHERE length(word) BETWEEN 3 AND 40 AND word ~ '^[[:alpha:]]+$'
    ON CONFLICT (word) DO UPDATE SET documents = ${
      // The whole catalogue counts each word exactly; one item adds its own to the count.
      itemId === undefined
        ? sql`excluded.documents`
        : sql`search_words.documents + excluded.documents`
    }
  `.execute(db);
}
