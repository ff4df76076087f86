import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Embedder } from '../embeddings/embedder.ts';

/** Turns a query's text into its sentence embedding, for the model that embedded the items. */
export interface QueryMeaning {
  /** The model the items' embeddings must have been made with (`item_embeddings.model`). */
  readonly model: string;
  /** The query's embedding, unit length as the items' are. */
  embed(text: string): Promise<Float32Array>;
}

/**
 * Items a search by meaning takes from the index: the fused list's share. More would reach
 * further down the page than anyone reads; fewer would leave a filtered search with little.
 */
export const MEANT_NEIGHBOURS = 50;

/**
 * A query's neighbour farther than this cosine distance is not offered as meant: a query of a
 * word the catalogue does not hold, or of nonsense, still has nearest items, about anything.
 * Measured with the real model over the shared data's papers and courses: the 40 nearest of the
 * 68 topic queries lie within 0.14–0.71, so the cut drops only the far end of vague queries; it
 * cannot tell nonsense from a topic ("asdf" has neighbours at 0.48), which the search rules out
 * by its words instead (`hybridRanking`, server/catalogue/search.ts).
 */
export const MEANT_MAX_DISTANCE = 0.75;

/**
 * How a request is phrased around its topic ("papers on …", "research about …", "I need
 * something on …", "… textbooks"): words that say what kind of item is wanted, not what it is
 * about. The model reads them as part of the topic ("books about AI" lands near items about
 * books), so they are left out of the text it embeds; the words' search still has them.
 */
const REQUEST_LEAD =
  /^(?:(?:i(?:'d| would)? (?:like|need|want)|looking for|find(?: me)?|any|some|show me)\s+)?(?:(?:some|a few|any)\s+)?(?:(?:research\s+)?papers?|research|books?|textbooks?|articles?|courses?|materials?|something|stuff|resources?)\s+(?:on|about|for|regarding)\s+/i;
const REQUEST_TAIL = /\s+(?:papers?|books?|textbooks?|articles?|courses?|materials?)$/i;

/** The topic of a query as the model embeds it: {@link REQUEST_LEAD} and its tail left out. */
export function topicText(text: string): string {
  const topic = text
    .trim()
    .replace(/\s+/g, ' ')
    .replace(REQUEST_LEAD, '')
    .replace(REQUEST_TAIL, '');
  return topic === '' ? text.trim() : topic;
}

/** How many query embeddings are remembered: a page's re-query or next page costs nothing. */
const REMEMBERED_QUERIES = 1_000;

/**
 * The search's {@link QueryMeaning} over `embedder`: each query is embedded once (the last
 * {@link REMEMBERED_QUERIES} are kept, least recently used dropped first), as an urgent call, so
 * a query waits only for the batch a bulk embedding holds, not behind its other batches.
 */
export function queryMeaning(
  embedder: Embedder,
  log?: { warn: (object: object, message: string) => void },
): QueryMeaning {
  const remembered = new Map<string, Promise<Float32Array>>();
  return {
    model: embedder.model,
    embed(text) {
      const key = topicText(text).toLowerCase();
      const known = remembered.get(key);
      if (known) {
        // Most recently used goes last, so the first is always the one to drop.
        remembered.delete(key);
        remembered.set(key, known);
        return known;
      }
      const vector = embedder.embed([key], { urgent: true }).then(([first]) => first!);
      remembered.set(key, vector);
      // A failure is not remembered: the next search asks again (this one ranks by words).
      vector.catch((error: unknown) => {
        remembered.delete(key);
        log?.warn({ err: error }, 'a query could not be embedded; it was ranked by its words');
      });
      if (remembered.size > REMEMBERED_QUERIES) {
        remembered.delete(remembered.keys().next().value!);
      }
      return vector;
    },
  };
}

/**
 * The planner settings of a search's transaction, as select-list items of its first statement:
 * the indexes, never a read of the whole table (a LIMIT can make one look cheap), no JIT, and
 * the prepared statements' generic plans (decision 047). The words search (`searchWords` in
 * search.ts) and the search by meaning (below) set the same, as the ranking runs after either.
 */
export const SEARCH_PLANNER_SETTINGS = sql`set_config('enable_seqscan', 'off', true),
  set_config('jit', 'off', true), set_config('plan_cache_mode', 'force_generic_plan', true)`;

/**
 * The items nearest to `vector` by cosine distance, nearest first, at most
 * {@link MEANT_NEIGHBOURS} within {@link MEANT_MAX_DISTANCE}, of `model`'s embeddings. The ORDER
 * BY is the HNSW index's expression word for word (server/db/vector.ts), or the index is not
 * used; the index is asked for more than the default `hnsw.ef_search` (40) would give, and
 * withdrawn items and filters are left to the search that takes the ids.
 */
export async function nearestToVector(
  trx: Transaction<Database>,
  vector: Float32Array,
  model: string,
): Promise<string[]> {
  const query = `[${Array.from(vector).join(',')}]`;
  // Read when the index scan starts: a statement of its own, for this transaction alone, with
  // the search's settings for the ranking that follows in the same transaction.
  await sql`SELECT set_config('hnsw.ef_search', ${String(MEANT_NEIGHBOURS * 2)}, true),
                   ${SEARCH_PLANNER_SETTINGS}`.execute(trx);
  const { rows } = await sql<{ item_id: string }>`
    SELECT n.item_id FROM (
      SELECT e.item_id, e.model, e.embedding::vector(512) <=> ${query}::vector(512) AS distance
        FROM item_embeddings e
       ORDER BY e.embedding::vector(512) <=> ${query}::vector(512)
       LIMIT ${MEANT_NEIGHBOURS}) n
     WHERE n.distance <= ${MEANT_MAX_DISTANCE} AND n.model = ${model}
     ORDER BY n.distance, n.item_id`.execute(trx);
  return rows.map((row) => row.item_id);
}
