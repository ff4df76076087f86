import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Adds the catalogue's distinct title, author and subject words to `search_words`, the table
 * "did you mean" looks misspellings up in. Idempotent; call it after an import or a publish.
 */
export async function refreshSearchWords(db: Kysely<Database>): Promise<void> {
  await sql`
    INSERT INTO search_words (word)
    SELECT word FROM ts_stat(
      'SELECT to_tsvector(''simple'', title || '' '' || digi_join_words(authors) || '' '' || digi_join_words(subjects)) FROM items'
    )
    WHERE length(word) BETWEEN 3 AND 40 AND word ~ '^[[:alpha:]]+$'
    ON CONFLICT (word) DO NOTHING
  `.execute(db);
}
