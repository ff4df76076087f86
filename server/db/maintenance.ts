import { sql } from 'kysely';
import type { DatabaseHandle } from './client.ts';

/**
 * Autovacuum's default thresholds (PostgreSQL's `autovacuum_analyze_threshold`,
 * `autovacuum_analyze_scale_factor`, `autovacuum_vacuum_threshold`,
 * `autovacuum_vacuum_scale_factor`): a table is analyzed once more than 50 rows + 10 % of it
 * changed since it last was, and vacuumed once more than 50 rows + 20 % of it are dead.
 */
export const ANALYZE_THRESHOLD = { rows: 50, share: 0.1 };
export const VACUUM_THRESHOLD = { rows: 50, share: 0.2 };

/**
 * How often PGlite's tables are checked (`startSweeper`). PostgreSQL's autovacuum looks once a
 * minute; a table that grows from a few rows to thousands within that minute (a busy room's first
 * minutes, the chat bench) keeps plans made when it was tiny until its next ANALYZE, and a cached
 * plan is not made again before (a prepared statement's, and the foreign-key checks' own: a check
 * of each new reaction's message by a scan of every message, 53 ms for a batch of 62 at 24,000
 * messages, decision 046). The check itself is one read of the statistics views.
 */
export const MAINTENANCE_INTERVAL_MS = 10_000;

/**
 * The statistics target of these ANALYZEs (PostgreSQL's default is 100). ANALYZE reads 300 rows
 * per unit of target, so 10 reads 3,000 rows of a table instead of 30,000: on PGlite, whose one
 * thread is the server's, an ANALYZE of the chat bench's messages held every request up to 107 ms
 * at 100, 21 ms at 10 (decision 046). Ten most common values and ten histogram buckets are all
 * the plans of these tables need: which index, which join order.
 */
export const SAMPLE_TARGET = 10;

/**
 * Tables analyzed at the full target: the search's stop-word check reads the most common words
 * of `items.search` from their statistics (`documentFrequencies`, server/catalogue/search.ts),
 * which need the full sample, as the catalogue's import gives them.
 */
const FULL_SAMPLE_TABLES = new Set(['public.items', 'public.search_words']);

/** What one {@link maintainTables} did to one table. */
export interface TableMaintenance {
  table: string;
  action: 'analyze' | 'vacuum-analyze';
}

/**
 * What PostgreSQL's autovacuum does, for PGlite, which has none (it runs PostgreSQL as a single
 * process; the autovacuum launcher never starts): each table whose changes since its last ANALYZE
 * or whose dead rows pass autovacuum's thresholds, or that has rows and was never analyzed, is
 * analyzed, and vacuumed first when its dead rows call for it. One table at a time, each of its
 * statements in turn with requests, so they interleave.
 *
 * Without it a PGlite database never has planner statistics: a table of any size is planned as an
 * empty one, and a join the planner thinks cheap becomes a scan of every row. A batch of 75
 * reaction toggles in a room of 15,000 messages took 67 ms to run that way, 3 ms after one
 * ANALYZE (decision 046). Dead rows (reactions taken back, presence, rate counters) were never
 * reclaimed either. On PostgreSQL this does nothing: its autovacuum does the same.
 */
export async function maintainTables(database: DatabaseHandle): Promise<TableMaintenance[]> {
  if (database.kind !== 'pglite') return [];
  // A backend hands its row counts to the statistics at most once a second; the counts of what
  // this process has just written are wanted too (and the tests write and check at once).
  await sql`SELECT pg_stat_force_next_flush()`.execute(database.db);
  const { rows } = await sql<{ name: string; vacuum: boolean }>`
    SELECT format('%I.%I', s.schemaname, s.relname) AS name,
      s.n_dead_tup > ${VACUUM_THRESHOLD.rows} + ${VACUUM_THRESHOLD.share} * greatest(c.reltuples, 0)
        AS vacuum
    FROM pg_stat_user_tables s
    JOIN pg_class c ON c.oid = s.relid
    WHERE s.n_mod_since_analyze > ${ANALYZE_THRESHOLD.rows}
        + ${ANALYZE_THRESHOLD.share} * greatest(c.reltuples, 0)
      OR s.n_dead_tup > ${VACUUM_THRESHOLD.rows}
        + ${VACUUM_THRESHOLD.share} * greatest(c.reltuples, 0)
      -- Never analyzed (-1) and not empty: counts since the last start may not say it changed.
      OR (c.reltuples < 0 AND pg_relation_size(s.relid) > 0)
    ORDER BY s.schemaname, s.relname
  `.execute(database.db);
  const done: TableMaintenance[] = [];
  for (const { name, vacuum } of rows) {
    // VACUUM may not run inside a transaction: `executeSql` runs it on its own, in turn.
    if (vacuum) await database.executeSql(`VACUUM ${name}`);
    // One exec, so no request's statement runs between them with the smaller target.
    const sampled = `SET default_statistics_target = ${SAMPLE_TARGET}; ANALYZE ${name};
      RESET default_statistics_target`;
    await database.executeSql(FULL_SAMPLE_TABLES.has(name) ? `ANALYZE ${name}` : sampled);
    done.push({ table: name, action: vacuum ? 'vacuum-analyze' : 'analyze' });
  }
  return done;
}
