import type { DatabaseHandle, ScriptSession } from './client.ts';

/**
 * Whether search by meaning (pgvector over `item_embeddings`) works on a database; when it does
 * not, `reason` says why in a sentence for a person (the log, `GET /api/health`).
 */
export type SearchByMeaning = { available: true } | { available: false; reason: string };

/** The length of every stored embedding, and the dimension of the index's `vector` cast. */
export const EMBEDDING_DIMENSIONS = 512;

/** The HNSW index over `embedding::vector(512)` that cosine k-NN queries use. */
export const VECTOR_INDEX = 'item_embeddings_vector_idx';

/** What a handle answers before `prepareVectorSearch` has looked at its database. */
export const SEARCH_BY_MEANING_UNCHECKED: SearchByMeaning = {
  available: false,
  reason: 'Search by meaning has not been prepared on this database (prepareVectorSearch).',
};

/**
 * What a handle answers in a server started with SEMANTIC_SEARCH=false, whatever its database
 * could do: `buildApp` sets it, so nothing embeds, queues an embedding job or asks for neighbours.
 */
export const SEARCH_BY_MEANING_TURNED_OFF: Extract<SearchByMeaning, { available: false }> = {
  available: false,
  reason:
    'Turned off by SEMANTIC_SEARCH=false in the environment: set it to true (or leave it out) ' +
    'and restart to turn it on.',
};

// Any fixed number, other than the migrations' own: processes starting together on one
// PostgreSQL create the extension and the index one after another instead of racing.
const VECTOR_LOCK_ID = 7_202_612;

// PostgreSQL's SQLSTATE for "permission denied" (a non-superuser creating an untrusted extension).
const INSUFFICIENT_PRIVILEGE = '42501';

interface VectorState {
  database: string;
  available: boolean;
  installed: boolean;
  has_table: boolean;
  indexed: boolean;
}

/**
 * Makes search by meaning ready where it can be: when `vector` is among the server's available
 * extensions, creates the extension and the HNSW index over `embedding::vector(512)` if they are
 * missing. Never throws for a missing or refused extension: the answer, also kept on
 * `handle.searchByMeaning` for routes to read without a statement, says why it is off.
 * `availableExtensions` replaces what the server lists, for tests of a server without pgvector.
 */
export async function prepareVectorSearch(
  handle: DatabaseHandle,
  options: { availableExtensions?: readonly string[] } = {},
): Promise<SearchByMeaning> {
  const answer = await handle.withSession(async (session) => {
    const postgres = handle.kind === 'postgres';
    if (postgres) await session.query('SELECT pg_advisory_lock($1)', [VECTOR_LOCK_ID]);
    try {
      return await prepareOn(session, handle, options.availableExtensions);
    } finally {
      if (postgres) await session.query('SELECT pg_advisory_unlock($1)', [VECTOR_LOCK_ID]);
    }
  });
  handle.searchByMeaning = answer;
  return answer;
}

async function prepareOn(
  session: ScriptSession,
  handle: DatabaseHandle,
  availableExtensions: readonly string[] | undefined,
): Promise<SearchByMeaning> {
  // One statement on every start after the first, when all is in place already.
  const [state] = await session.query<VectorState>(`
    SELECT current_database() AS database,
           EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available,
           EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AS installed,
           to_regclass('item_embeddings') IS NOT NULL AS has_table,
           to_regclass('${VECTOR_INDEX}') IS NOT NULL AS indexed`);
  if (!state) throw new Error('The database did not answer the search-by-meaning check.');
  const available = availableExtensions ? availableExtensions.includes('vector') : state.available;
  if (!state.has_table) {
    return off('the item_embeddings table does not exist yet: the migrations have not all run.');
  }
  if (!available) {
    return off(
      handle.kind === 'pglite'
        ? 'this PGlite was opened without its pgvector extension (@electric-sql/pglite-pgvector).'
        : 'the pgvector extension is not installed on this PostgreSQL server. An administrator ' +
            'installs pgvector for its PostgreSQL version (a postgresql-<version>-pgvector package ' +
            "where there is one; on Debian 12, Digi Library's scripts/install-pgvector.sh) and " +
            'restarts Digi Library.',
    );
  }
  if (!state.installed) {
    try {
      await session.exec('CREATE EXTENSION IF NOT EXISTS vector');
    } catch (error) {
      const { code, message } = error as { code?: string; message: string };
      const remedy =
        `An administrator runs \`CREATE EXTENSION vector;\` as a superuser in the database ` +
        `"${state.database}" and restarts Digi Library.`;
      return off(
        code === INSUFFICIENT_PRIVILEGE
          ? `creating the vector extension was refused (${message}): only a superuser may. ${remedy}`
          : `creating the vector extension failed (${message}). ${remedy}`,
      );
    }
  }
  if (!state.indexed) {
    try {
      // The cast in the index is the one every k-NN query must order by, word for word:
      // `ORDER BY embedding::vector(512) <=> $1::vector(512) LIMIT k`.
      await session.exec(
        `CREATE INDEX IF NOT EXISTS ${VECTOR_INDEX} ON item_embeddings ` +
          `USING hnsw ((embedding::vector(${EMBEDDING_DIMENSIONS})) vector_cosine_ops)`,
      );
    } catch (error) {
      // Rows stored before the extension came whose length is not 512 cannot be indexed.
      return off(
        `the index over item_embeddings could not be built (${(error as Error).message}); ` +
          'embeddings that are not 512 numbers long must be deleted or made again first.',
      );
    }
  }
  return { available: true };
}

function off(reason: string): SearchByMeaning {
  return { available: false, reason: reason.charAt(0).toUpperCase() + reason.slice(1) };
}

/** The one start-up line that says search by meaning is off, and why; none when it is on. */
export function searchByMeaningWarning(state: SearchByMeaning): string | undefined {
  if (state.available) return undefined;
  return `Search by meaning is off: ${state.reason.charAt(0).toLowerCase()}${state.reason.slice(1)}`;
}
