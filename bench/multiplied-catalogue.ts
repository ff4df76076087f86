import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { importFile } from '#server/catalogue/import/import-file.ts';
import { refreshSearchWords } from '#server/catalogue/words.ts';
import type { Database } from '#server/db/schema.ts';
import { CATALOGUE_FILES, SHARED_DATA } from './lib.ts';

/**
 * The benches' large catalogue (search, known-item, suggestions): the real files from `dataDir`,
 * then variations of their rows ("… (Revised 7)", source 'bench') up to `target` rows, so the
 * indexes see a realistic vocabulary, and a kept database is the same whichever bench made it.
 */
export async function loadMultipliedCatalogue(
  db: Kysely<Database>,
  target: number,
  dataDir = SHARED_DATA,
): Promise<void> {
  for (const [kind, file] of CATALOGUE_FILES) await importFile(db, kind, path.join(dataDir, file));
  const { rows: baseRows } = await sql<{ n: string }>`SELECT count(*) AS n FROM items`.execute(db);
  const base = Number(baseRows[0]?.n);
  const copies = Math.max(0, Math.ceil((target - base) / base));
  for (let first = 1; first <= copies; first += 5) {
    const last = Math.min(copies, first + 4);
    await sql`
      INSERT INTO items (kind, title, authors, year, subjects, description, source, source_id)
      SELECT kind,
             title || ' (' || (ARRAY['Revised', 'Annotated', 'Illustrated', 'Abridged', 'Student', 'Collected'])[1 + g % 6] || ' ' || g || ')',
             authors, year, subjects, description, 'bench', source || ':' || source_id || ':' || g
      FROM items, generate_series(${first}::int, ${last}::int) AS g
      WHERE source <> 'bench'
    `.execute(db);
  }
  await sql`DELETE FROM items WHERE id IN (SELECT id FROM items WHERE source = 'bench' OFFSET ${Math.max(0, target - base)})`.execute(
    db,
  );
  await refreshSearchWords(db);
}
