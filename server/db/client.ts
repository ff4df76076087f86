import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { vector } from '@electric-sql/pglite-pgvector';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { prepareOnPgClient, prepareOnPglite } from './prepared.ts';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.ts';
import type { Database } from './schema.ts';
import { SEARCH_BY_MEANING_UNCHECKED, type SearchByMeaning } from './vector.ts';

/**
 * PostgreSQL's `date` type. Both engines hand it over as the `YYYY-MM-DD` text it is: turned
 * into a JavaScript Date it would become midnight in the server's own time zone and could shift
 * a day when written back out.
 */
const DATE_OID = 1082;

/** Which engine a handle talks to; `GET /api/health` reports it. */
export type DatabaseKind = 'pglite' | 'postgres';

/**
 * A connection that can run raw multi-statement scripts, used by the migration runner.
 * PGlite and node-postgres both accept several statements in one simple query.
 */
export interface ScriptSession {
  query<Row>(text: string, params?: unknown[]): Promise<Row[]>;
  exec(script: string): Promise<void>;
}

/** An open database: the typed Kysely instance plus what the process needs around it. */
export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** Runs `fn` on one dedicated connection (PGlite has only one; on PostgreSQL a pool client). */
  withSession<T>(fn: (session: ScriptSession) => Promise<T>): Promise<T>;
  /**
   * Runs one statement with `$1` parameters, or a parameterless script of several, and answers
   * the last statement's rows; in turn with the Kysely queries (a PGlite transaction in progress
   * is never entered). For libraries that bring their own SQL, such as the job queue.
   */
  executeSql(text: string, values?: readonly unknown[]): Promise<{ rows: unknown[] }>;
  /** Answers when the database answers a trivial query. */
  ping(): Promise<void>;
  /**
   * Whether search by meaning works here, and why not: set by `prepareVectorSearch`
   * (server/db/vector.ts) when the database is prepared, so a route reads it without a statement,
   * and by `buildApp` in a server started with SEMANTIC_SEARCH=false.
   */
  searchByMeaning: SearchByMeaning;
  /** The PostgreSQL server's URL (Socket.IO's Postgres adapter opens its own pool); none on PGlite. */
  connectionString?: string;
  /**
   * PGlite only: calls `listener` for each committed `NOTIFY channel`, before the statement that
   * committed it returns; resolves to the function that stops it. The process that opened PGlite
   * is the only one that can change its data (decision 017), so this hears every change; on
   * PostgreSQL other processes change data too and are heard late, so it is left out there.
   */
  listen?(channel: string, listener: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Where the embedded database lives inside `DATA_DIR`. */
export function pgliteDirectory(dataDir: string): string {
  return path.join(dataDir, 'pglite');
}

/** Opens PostgreSQL when `databaseUrl` is given, otherwise the embedded PGlite in `dataDir`. */
export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  const directory = pgliteDirectory(options.dataDir);
  // PGlite needs the parent folder to exist before it creates its own.
  await mkdir(path.dirname(directory), { recursive: true });
  const release = lockDataDir(options.dataDir);
  try {
    if (!existsSync(path.join(directory, 'PG_VERSION'))) await createDataDir(directory);
    const handle = wrapPglite(await createPglite({ dataDir: directory }));
    const close = handle.close;
    handle.close = async () => {
      try {
        await close();
      } finally {
        release();
      }
    };
    return handle;
  } catch (error) {
    release();
    throw error;
  }
}

/**
 * PostgreSQL's page cache inside PGlite. PostgreSQL's default, 128 MB, is resident from the
 * moment PGlite starts (about 150 MB of WebAssembly memory in every process that opens the
 * database, before any query); 16 MB costs about 30 MB (bench/README.md, "Memory"). Pages not in
 * it are read from the operating system's file cache.
 */
export const PGLITE_SHARED_BUFFERS = '16MB';

/**
 * Opens PGlite with the extensions our migrations use (pg_trgm) and pgvector, for search by
 * meaning (decision 036). Every PGlite instance of the app and its tests is made here, so none
 * lacks one.
 */
export function createPglite(options: Omit<PGliteOptions, 'extensions'> = {}): Promise<PGlite> {
  return PGlite.create({
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
    ...options,
    extensions: { pg_trgm, vector },
    parsers: { [DATE_OID]: (value: string) => value, ...options.parsers },
  });
}

/**
 * Creates PGlite's files of a new database in `directory`, in a child process that exits when they
 * are written. PGlite creates a database by running initdb in a second PGlite instance (its own
 * WebAssembly memory, fully written) beside the first, keeping a copy of that memory and moving the
 * result across as an in-memory tarball: 700-900 MB for several seconds, and most of it garbage
 * that would stay in the opening process until V8 collects it (bench/README.md, "Memory"). Done
 * here, the server, the importer and `db:migrate` open the finished files like any existing ones.
 * The child is plain JavaScript that needs only PGlite, so it starts in well under a second.
 */
async function createDataDir(directory: string): Promise<void> {
  // initdb's own trial and bootstrap runs then use the same small page cache as the app (`--set`
  // also writes it into postgresql.conf, where the start parameter overrides it anyway).
  const script = `
    const { PGlite } = await import('@electric-sql/pglite');
    const [directory, sharedBuffers] = process.argv.slice(1);
    const pglite = await PGlite.create({
      dataDir: directory,
      startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=' + sharedBuffers],
      initDbStartParams: ['--set', 'shared_buffers=' + sharedBuffers],
    });
    await pglite.close();
  `;
  const child = spawn(
    process.execPath,
    ['--input-type=module', '--eval', script, path.resolve(directory), PGLITE_SHARED_BUFFERS],
    // Run from this folder, so that the script finds PGlite in the app's node_modules.
    { cwd: path.dirname(fileURLToPath(import.meta.url)), stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>(
    (resolve, reject) => {
      child.once('error', reject);
      child.once('close', (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
    },
  );
  if (code !== 0) {
    throw new Error(
      `Could not create the database in ${directory}: ${errors.trim() || `initdb process ended with ${signal ?? code}`}`,
    );
  }
}

/** Wraps an already open PGlite instance (tests open theirs from a prepared dump). */
export function wrapPglite(pglite: PGlite): DatabaseHandle {
  prepareOnPglite(pglite);
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return {
    db,
    kind: 'pglite',
    searchByMeaning: SEARCH_BY_MEANING_UNCHECKED,
    async withSession(fn) {
      return fn({
        query: async <Row>(text: string, params?: unknown[]) =>
          (await pglite.query<Row>(text, params)).rows,
        exec: async (script) => {
          await pglite.exec(script);
        },
      });
    },
    // Inside Kysely's one connection: PGlite's own lock does not know of a Kysely transaction,
    // whose BEGIN and COMMIT are statements like any other.
    executeSql: (text, values) =>
      db.connection().execute(async () => {
        if (values && values.length > 0) return pglite.query(text, [...values]);
        return (await pglite.exec(text)).at(-1) ?? { rows: [] };
      }),
    async ping() {
      await sql`select 1`.execute(db);
    },
    // PGlite hands a notification to its listeners (as microtasks) while it reads the answer of
    // the statement that committed it, so they run before that statement's caller goes on.
    listen: (channel, listener) => pglite.listen(channel, () => listener()),
    async close() {
      // Kysely closes PGlite only if it ever ran a query; close it ourselves otherwise.
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}

/** How long a query waits for a connection before it fails (a 503, not a hang). */
export const CONNECT_TIMEOUT_MS = 5_000;
/** Idle time before TCP keep-alive starts probing a PostgreSQL connection. */
export const KEEPALIVE_DELAY_MS = 10_000;

/**
 * A node-postgres pool that lives through its server going away. A connection that loses its
 * server emits 'error'; with no listener that event ends the process. The pool listens while a
 * connection is idle (and drops it), but not while one is checked out: a query in flight, a
 * transaction, or the Socket.IO adapter's LISTEN connection. So every connection gets a listener
 * of its own; the query using it fails instead, the pool drops it when it is released, and opens
 * new ones once the server is back. Connecting gives up after CONNECT_TIMEOUT_MS.
 *
 * A connection whose server vanished without closing it (a host gone, a firewall that forgot the
 * flow) raises nothing at all, and the LISTEN connection would wait on it for good: TCP
 * keep-alive probes every idle connection after KEEPALIVE_DELAY_MS, so the operating system ends
 * it and the adapter takes a new one.
 */
export function createPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool({
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
    ...config,
  });
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** Opens a pool on a real PostgreSQL server. */
export function openPostgres(connectionString: string): DatabaseHandle {
  const pool = createPool({
    connectionString,
    max: 10,
    // JIT compiles a statement the planner thinks costly (a word search over a million rows is
    // estimated so) for longer than it then runs: a search took hundreds of milliseconds with
    // it. Nothing here is a long analytic query, so it is off for every statement.
    options: '-c jit=off',
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === DATE_OID
          ? (value: string) => value
          : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // Statements marked PREPARED run as named statements, planned once per connection.
  pool.on('connect', (client) => prepareOnPgClient(client));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: 'postgres',
    searchByMeaning: SEARCH_BY_MEANING_UNCHECKED,
    connectionString,
    async withSession(fn) {
      const client = await pool.connect();
      try {
        return await fn({
          query: async <Row>(text: string, params?: unknown[]) =>
            (await client.query(text, params)).rows as Row[],
          exec: async (script) => {
            await client.query(script);
          },
        });
      } finally {
        client.release();
      }
    },
    // node-postgres sends a query without parameters as a simple query, which may hold several.
    executeSql: (text, values) => pool.query(text, values ? [...values] : undefined),
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      // Kysely ends the pool only if it ever ran a query; end it ourselves otherwise.
      await db.destroy();
      if (!pool.ended) await pool.end();
    },
  };
}
