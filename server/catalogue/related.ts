import { sql, type Kysely, type RawBuilder } from 'kysely';
import { RELATED_ITEMS_MAX, type RelatedReason } from '#contract/http/catalogue.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { Database } from '../db/schema.ts';
import { EMBEDDING_DIMENSIONS } from '../db/vector.ts';
import { containsPattern, type SearchRow } from './search.ts';

/** A related item's row and why it is listed. */
export type RelatedRow = SearchRow & { reason: RelatedReason };

/** What `relatedItems` found, and whether nearness by meaning was used. */
export interface Related {
  rows: RelatedRow[];
  byMeaning: boolean;
}

/**
 * Nearest neighbours asked of the HNSW index: more than are shown, since withdrawn items and the
 * item itself are left out after the index has answered.
 */
export const RELATED_NEIGHBOURS = 24;

/**
 * Neighbours farther than this cosine distance are not called similar: in a small catalogue the
 * nearest items can still be about something else entirely.
 */
export const RELATED_MAX_DISTANCE = 0.6;

/** At most this many of the list share an author, so it is not all one author's books. */
export const RELATED_SAME_AUTHOR_MAX = 3;

/** Candidates read by shared author and by shared subject, each. */
const CANDIDATES = 24;

const COLUMNS = sql.raw(
  'i.id, i.kind, i.title, i.authors, i.year, i.subjects, i.description, i.cover_url, ' +
    'i.drive_link, i.url, i.page_count, i.withdrawn_at',
);

const popularity = sql`(coalesce(i.ratings_count, 0) + i.circulation)`;

const lowered = (values: readonly string[]) => [
  ...new Set(values.map((value) => value.trim().toLowerCase()).filter((value) => value !== '')),
];

/**
 * Only an item's first authors and subjects are looked for: a physics paper can list hundreds,
 * which say little of what it is about (as its embedded text, server/embeddings/item-text.ts).
 */
const AUTHORS_ASKED = 5;
const SUBJECTS_ASKED = 10;

/**
 * `column` holds one of `values`, ignoring case. The ILIKE on the joined words first, which the
 * columns' trigram indexes serve; the exact comparison of whole names after.
 */
export const sharesAny = (
  column: 'authors' | 'subjects',
  values: readonly string[],
): RawBuilder<boolean> => {
  const words = sql`digi_join_words(i.${sql.raw(column)})`;
  const likely = values.map((value) => sql`${words} ILIKE ${containsPattern(value)}`);
  return sql<boolean>`(${sql.join(likely, sql` OR `)})
    AND EXISTS (SELECT 1 FROM unnest(i.${sql.raw(column)}) AS v(name)
                 WHERE lower(v.name) IN (${sql.join(values)}))`;
};

/**
 * "More like this" for `item`: up to {@link RELATED_ITEMS_MAX} other items that are not
 * withdrawn. When search by meaning is available and the item has an embedding of `model` (the
 * app's embedder's), its nearest neighbours of that model by cosine distance (through the HNSW
 * index) come first, with up to
 * {@link RELATED_SAME_AUTHOR_MAX} items by the same author among them and items sharing a
 * subject after; otherwise only shared authors and subjects are asked, so a reason never claims
 * a likeness that was not measured.
 */
export async function relatedItems(
  database: DatabaseHandle,
  item: Pick<SearchRow, 'id' | 'authors' | 'subjects'>,
  model: string,
): Promise<Related> {
  const { db } = database;
  const authors = lowered(item.authors.slice(0, AUTHORS_ASKED));
  const subjects = lowered(item.subjects.slice(0, SUBJECTS_ASKED));
  const [neighbours, sameAuthor, sameSubject] = await Promise.all([
    database.searchByMeaning.available ? nearestItems(db, item.id, model) : undefined,
    authors.length > 0 ? sharing(db, item.id, 'authors', authors) : [],
    subjects.length > 0 ? sharing(db, item.id, 'subjects', subjects) : [],
  ]);

  const chosen = new Map<string, RelatedRow>();
  let byAuthor = 0;
  const sharesAuthor = (row: SearchRow) =>
    row.authors.some((name) => authors.includes(name.trim().toLowerCase()));
  const add = (row: SearchRow, otherwise: RelatedReason) => {
    if (chosen.size >= RELATED_ITEMS_MAX || chosen.has(row.id)) return;
    const reason = sharesAuthor(row) ? 'Same author' : otherwise;
    if (reason === 'Same author') {
      if (byAuthor >= RELATED_SAME_AUTHOR_MAX) return;
      byAuthor += 1;
    }
    chosen.set(row.id, { ...row, reason });
  };

  if (neighbours) {
    // The nearest first, then in turn an item by the same author that is not a neighbour and the
    // next neighbour: an author's other books rank high without taking the whole list.
    const near = [...neighbours];
    const others = sameAuthor.filter((row) => !neighbours.some((n) => n.id === row.id));
    const first = near.shift();
    if (first) add(first, meaningReason(first, subjects));
    while (near.length > 0 || others.length > 0) {
      const other = others.shift();
      if (other) add(other, 'Same author');
      const next = near.shift();
      if (next) add(next, meaningReason(next, subjects));
    }
  } else {
    for (const row of sameAuthor) add(row, 'Same author');
  }
  for (const row of sameSubject) add(row, 'Similar subject');
  return { rows: [...chosen.values()], byMeaning: neighbours !== undefined };
}

/**
 * What a neighbour by meaning is called: its abstract (a paper) or description is what made it
 * near; without one, the embedding read mostly its title and subjects.
 */
function meaningReason(row: SearchRow, subjects: readonly string[]): RelatedReason {
  if (!row.description && row.subjects.some((name) => subjects.includes(name.toLowerCase()))) {
    return 'Similar subject';
  }
  return row.kind === 'paper' ? 'Similar abstract' : 'Similar description';
}

/**
 * The item's nearest neighbours by cosine distance, nearest first, withdrawn ones and the item
 * left out; undefined when the item has no embedding of `model` yet. Vectors of two models are
 * not comparable: after a change of model, only items embedded again meet.
 */
export async function nearestItems(
  db: Kysely<Database>,
  id: string,
  model: string,
): Promise<SearchRow[] | undefined> {
  const own = await db
    .selectFrom('item_embeddings')
    .select('embedding')
    .where('item_id', '=', id)
    .where('model', '=', model)
    .executeTakeFirst();
  if (!own || own.embedding.length !== EMBEDDING_DIMENSIONS) return undefined;
  const { rows } = await nearestStatement(id, own.embedding, model).execute(db);
  return rows.map(({ distance: _distance, ...row }) => row);
}

/**
 * The k-NN statement of `nearestItems`: its ORDER BY is the index's expression word for word
 * (server/db/vector.ts), or the index is not used; the filters come after the index has answered.
 */
export function nearestStatement(id: string, embedding: readonly number[], model: string) {
  const query = `[${embedding.join(',')}]`;
  return sql<SearchRow & { distance: number }>`
    SELECT ${COLUMNS}, n.distance
      FROM (SELECT e.item_id, e.model, e.embedding::vector(512) <=> ${query}::vector(512) AS distance
              FROM item_embeddings e
             ORDER BY e.embedding::vector(512) <=> ${query}::vector(512)
             LIMIT ${RELATED_NEIGHBOURS}) n
      JOIN items i ON i.id = n.item_id
     WHERE i.id <> ${id} AND i.withdrawn_at IS NULL AND n.distance <= ${RELATED_MAX_DISTANCE}
       AND n.model = ${model}
     ORDER BY n.distance, i.id`;
}

/** Other items, not withdrawn, holding one of `values` in `column`: most shared, then popular. */
async function sharing(
  db: Kysely<Database>,
  id: string,
  column: 'authors' | 'subjects',
  values: readonly string[],
): Promise<SearchRow[]> {
  const { rows } = await sql<SearchRow>`
    SELECT ${COLUMNS}
      FROM items i
     WHERE i.id <> ${id} AND i.withdrawn_at IS NULL AND ${sharesAny(column, values)}
     ORDER BY (SELECT count(*) FROM unnest(i.${sql.raw(column)}) AS v(name)
                WHERE lower(v.name) IN (${sql.join(values)})) DESC,
              ${popularity} DESC, i.title, i.id
     LIMIT ${CANDIDATES}`.execute(db);
  return rows;
}
