import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { DatabaseHandle } from '../db/client.ts';
import type { Database } from '../db/schema.ts';
import type { JobKind, JobQueue, JobSpec } from '../jobs/queue.ts';
import { EMBEDDING_MODEL, type Embedder } from './embedder.ts';
import { embeddingText, textHash } from './item-text.ts';

/**
 * Items read, embedded and written per statement: a batch of titles takes well under a second
 * of the model, and a batch of abstracts a few, so a crash loses little and the database is never
 * held long by one statement.
 */
export const EMBED_ITEMS_BATCH = 64;

/**
 * One job embeds for at most this long, then queues its successor and ends: pg-boss counts a
 * job still running after `expireInSeconds` as failed and would start another beside it.
 */
export const EMBED_ITEMS_RUN_MS = 5 * 60_000;

/**
 * How often the sweeper queues a run as a safety net: a run a crash cut short, or an
 * `npm run import` that could not queue one.
 */
export const EMBED_ITEMS_INTERVAL_SECONDS = 300;

/** The one singleton key: pg-boss's 'stately' policy counts waiting and running jobs per key. */
const SINGLETON_KEY = 'catalogue';

/** The kind of job that embeds every item whose embedding is missing or out of date. */
export const EMBED_ITEMS_JOB: JobSpec<Record<string, never>> = {
  name: 'embed-items',
  // Three times a run's budget: a job still "running" after that died with its server.
  expireInSeconds: (3 * EMBED_ITEMS_RUN_MS) / 1000,
  retryLimit: 1,
  // One run at a time across processes, and at most one waiting: a run reads every item that
  // needs it, so a second one queued behind it would only find the edits made meanwhile.
  policy: 'stately',
};

/** How far the catalogue is embedded: items with an embedding of this model, of all items. */
export interface EmbeddingProgress {
  embedded: number;
  total: number;
}

/**
 * How many items have an embedding of `model` (the app's embedder's; the real model's unless
 * given), and how many items there are. Two counts that stay cheap at a million items: the
 * items' count is served by an index, and `item_embeddings`' rows are narrow (their vectors are
 * kept out of line). Approximate in two
 * ways, both short-lived or rare: an item edited since its embedding counts as ready until the
 * job replaces it (seconds later), and an item with no text at all (a title of spaces and no
 * other field, which the forms refuse) counts in the total though it is never embedded.
 */
export async function embeddingProgress(
  db: Kysely<Database>,
  model: string = EMBEDDING_MODEL,
): Promise<EmbeddingProgress> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('item_embeddings')
        .select(sql<string>`count(*)`.as('n'))
        .where('model', '=', model)
        .as('embedded'),
      eb
        .selectFrom('items')
        .select(sql<string>`count(*)`.as('n'))
        .as('total'),
    ])
    .executeTakeFirstOrThrow();
  return { embedded: Number(row.embedded), total: Number(row.total) };
}

/** How long {@link cachedEmbeddingProgress} answers from memory. */
export const EMBEDDING_PROGRESS_TTL_MS = 5_000;

/**
 * {@link embeddingProgress} counted at most once per {@link EMBEDDING_PROGRESS_TTL_MS}: health
 * is asked by monitors and by every librarian's desk, and the counts need not be fresher.
 */
export function cachedEmbeddingProgress(
  db: Kysely<Database>,
  model: string,
): () => Promise<EmbeddingProgress> {
  let cached: { at: number; progress: Promise<EmbeddingProgress> } | undefined;
  return () => {
    const now = performance.now();
    if (!cached || now - cached.at > EMBEDDING_PROGRESS_TTL_MS) {
      const progress = embeddingProgress(db, model);
      cached = { at: now, progress };
      // A failed count is not kept: the next call counts again.
      progress.catch(() => {
        if (cached?.progress === progress) cached = undefined;
      });
    }
    return cached.progress;
  };
}

/** An item read for embedding, with what is stored for it now. */
interface Candidate {
  id: string;
  title: string;
  authors: string[];
  subjects: string[];
  description: string | null;
  page_count: number;
  /** `updated_at` as text, so it is written back to the microsecond (a JS Date keeps ms). */
  version: string;
  stored_model: string | null;
  stored_hash: string | null;
}

/** What one call of {@link embedItems} did. */
export interface EmbedItemsResult {
  /** Items whose vector was computed and stored. */
  embedded: number;
  /** Items whose text was unchanged since their vector: only their marker was brought up to date. */
  refreshed: number;
  /** Items with no text (nothing to embed), or whose text the model refused. */
  skipped: number;
  /** True when it stopped early (budget or stopping) with items perhaps left to do. */
  unfinished: boolean;
}

/**
 * Embeds, batch by batch, every item whose embedding is missing, of another model, or older than
 * the item (`item_embeddings.embedded_at` differs from `items.updated_at`, which every edit, import
 * and new page text bumps). The job's only state is that table, so a crash loses at most the
 * batch in hand, and the next run goes on.
 *
 * `embedded_at` is written as the `updated_at` the text was read with, not as the clock: an item
 * is out of date exactly when the two differ, whatever the clocks of the server and the database,
 * and an edit landing between the read and the write leaves the row out of date, to be redone.
 *
 * It first embeds the items created or changed in the last {@link RECENT_ITEMS_MS}, newest
 * first, and looks for such items again every {@link RECENT_RECHECK_MS} as it goes, so a paper
 * added while a long first embedding of the catalogue runs is related within a minute instead of
 * when the walk reaches it. Then it walks the items once in id order (a keyset). An item it tried
 * and that is still out of date at the same version (no text, or refused by the model) is passed
 * by: never read twice in a run. Withdrawn items are embedded too: librarians search them, and
 * one restored is found at once; search by meaning leaves them out for everyone else, as the
 * word search does.
 */
export async function embedItems(
  handle: DatabaseHandle,
  options: {
    /** The app's embedder (`RouteContext.embedder`): its model's vectors are the ones kept. */
    embedder: Embedder;
    stopping?: () => boolean;
    batchSize?: number;
    /** {@link SCAN_WINDOW} unless given (tests of small catalogues pass a smaller one). */
    scanWindow?: number;
    budgetMs?: number;
    /** {@link RECENT_RECHECK_MS} unless given (tests pass 0: a look before every batch). */
    recheckMs?: number;
    log?: { warn: (object: object, message: string) => void };
  },
): Promise<EmbedItemsResult> {
  const result: EmbedItemsResult = { embedded: 0, refreshed: 0, skipped: 0, unfinished: false };
  // On a PostgreSQL without pgvector search by meaning is off: nothing would read the vectors.
  if (!handle.searchByMeaning.available) return result;
  const db = handle.db;
  const { embedder } = options;
  const batchSize = options.batchSize ?? EMBED_ITEMS_BATCH;
  const deadline = performance.now() + (options.budgetMs ?? EMBED_ITEMS_RUN_MS);
  const stopped = () => options.stopping?.() === true || performance.now() > deadline;
  // What this run tried, not to be tried again at the same version (`Tried`).
  const tried: Tried = new Map();
  // When to look for new items next: at once, then every RECENT_RECHECK_MS of the walk.
  let recentDue = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  try {
    for (;;) {
      if (performance.now() >= recentDue) {
        if (!(await embedRecent(db, embedder, batchSize, tried, result, options, stopped))) {
          result.unfinished = true;
          return result;
        }
        recentDue = performance.now() + (options.recheckMs ?? RECENT_RECHECK_MS);
      }
      if (stopped()) {
        result.unfinished = true;
        return result;
      }
      // Each statement looks at a window of ids, never at the rest of the table: when nearly
      // every item is embedded already, a search for 64 that need it would otherwise read them.
      const end = await windowEnd(db, after, options.scanWindow ?? SCAN_WINDOW);
      const batch = await candidates(db, embedder.model, { after, end }, batchSize);
      const untried = batch.filter((item) => tried.get(item.id) !== item.version);
      if (untried.length > 0) await embedBatch(db, embedder, untried, result, tried, options);
      if (batch.length === batchSize) after = batch[batch.length - 1]!.id;
      else if (end === undefined) return result;
      else after = end;
    }
  } catch (error) {
    if (!(error instanceof Stopped)) throw error;
    result.unfinished = true;
    return result;
  }
}

/**
 * How long an item counts as new: each run embeds the items created or changed since, newest
 * first, before its walk by id reaches them.
 */
export const RECENT_ITEMS_MS = 60 * 60_000;

/**
 * How often a run's walk by id stops to embed items added or changed meanwhile: with the edit's
 * own wake-up (queued behind the running job), a new item is embedded well within a minute.
 */
export const RECENT_RECHECK_MS = 20_000;

/**
 * The newest items one look for new ones reads at most, and embeds at most: a bound on each
 * statement however many items an import has just written (the walk by id does the others).
 */
const RECENT_WINDOW = 2_000;

/**
 * Items a run has tried, by id, with the `updated_at` (as text) it read them at: every item a
 * look for new ones handed over, and every item the walk skipped. The walk's others are up to
 * date once done, so it keeps only those, whose number does not grow with the catalogue.
 */
type Tried = Map<string, string>;

/**
 * Embeds, newest first and batch by batch, the items created or changed in the last
 * {@link RECENT_ITEMS_MS} whose embedding is missing or out of date, up to
 * {@link RECENT_WINDOW} of them. Answers false when it stopped (budget or stopping) first.
 */
async function embedRecent(
  db: Kysely<Database>,
  embedder: Embedder,
  batchSize: number,
  tried: Tried,
  result: EmbedItemsResult,
  options: {
    stopping?: () => boolean;
    log?: { warn: (object: object, message: string) => void };
  },
  stopped: () => boolean,
): Promise<boolean> {
  for (let handed = 0; handed < RECENT_WINDOW;) {
    if (stopped()) return false;
    // The untried among the first `batchSize + tried.size` are at least `batchSize`, if any.
    const recent = await recentCandidates(
      db,
      embedder.model,
      Math.min(RECENT_WINDOW, batchSize + tried.size),
    );
    const next = recent.filter((item) => tried.get(item.id) !== item.version).slice(0, batchSize);
    if (next.length === 0) return true;
    // Every item handed over counts as tried, so one the model refuses, or one embedded by
    // another process meanwhile, is not looked for again and again.
    for (const item of next) tried.set(item.id, item.version);
    handed += next.length;
    const batch = await candidates(db, embedder.model, { ids: next.map((item) => item.id) });
    if (batch.length > 0) await embedBatch(db, embedder, batch, result, tried, options);
  }
  return true;
}

/**
 * Ids and versions of the newest items, changed in the last {@link RECENT_ITEMS_MS}, whose
 * embedding is missing or out of date, newest first. It reads at most {@link RECENT_WINDOW} of
 * the newest items, by `items_updated_idx`, whatever the size of the catalogue.
 */
function recentCandidates(
  db: Kysely<Database>,
  model: string,
  limit: number,
): Promise<{ id: string; version: string }[]> {
  const newest = db
    .selectFrom('items')
    .select(['id', 'updated_at'])
    .where('updated_at', '>', sql<Date>`now() - ${`${RECENT_ITEMS_MS / 1000} seconds`}::interval`)
    .orderBy('updated_at', 'desc')
    .limit(RECENT_WINDOW);
  return db
    .selectFrom(newest.as('i'))
    .leftJoin('item_embeddings as e', 'e.item_id', 'i.id')
    .select(['i.id', sql<string>`i.updated_at::text`.as('version')])
    .where((eb) => stale(eb, model))
    .orderBy('i.updated_at', 'desc')
    .orderBy('i.id', 'desc')
    .limit(limit)
    .execute();
}

/** Item ids one statement of {@link embedItems} looks through at most. */
const SCAN_WINDOW = 2_000;

/** The last id of the next window after `after`; undefined when fewer items than that are left. */
async function windowEnd(
  db: Kysely<Database>,
  after: string,
  size: number,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('items')
    .select('id')
    .where('id', '>', after)
    .orderBy('id')
    .offset(size - 1)
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

/** Thrown when the server began stopping while the model worked: the batch is given up. */
class Stopped extends Error {}

/** How often a wait for the model looks whether the server is stopping. */
const STOPPING_POLL_MS = 100;

/**
 * Waits for the model's vectors, unless the server begins stopping first: a batch can take
 * seconds on a busy machine (the model's thread runs at a low priority), longer than a shutdown
 * may wait. The vectors are then dropped; the table says what is left to do.
 */
function unlessStopping<T>(work: Promise<T>, stopping: (() => boolean) | undefined): Promise<T> {
  if (!stopping) return work;
  let timer: NodeJS.Timeout | undefined;
  const stopped = new Promise<never>((_resolve, reject) => {
    timer = setInterval(() => {
      if (stopping()) reject(new Stopped('The server is stopping.'));
    }, STOPPING_POLL_MS);
  });
  // A call given up still settles later, when the embedder is closed: nothing waits for it.
  work.catch(() => {});
  return Promise.race([work, stopped]).finally(() => clearInterval(timer));
}

/** Whether the item `i`'s embedding `e` is missing, of another model, or older than the item. */
function stale(
  eb: ExpressionBuilder<
    { i: { id: string; updated_at: Date } } & { e: Database['item_embeddings'] },
    'i' | 'e'
  >,
  model: string,
) {
  return eb.or([
    eb('e.item_id', 'is', null),
    eb('e.model', '<>', model),
    eb('e.embedded_at', '<>', eb.ref('i.updated_at')),
  ]);
}

/**
 * The items whose embedding is missing or out of date: the next after `after` (up to `end`), in
 * id order, at most `limit`; or those of `ids`.
 */
function candidates(
  db: Kysely<Database>,
  model: string,
  range: { after: string; end: string | undefined } | { ids: string[] },
  limit?: number,
): Promise<Candidate[]> {
  let query = db
    .selectFrom('items as i')
    .leftJoin('item_embeddings as e', 'e.item_id', 'i.id')
    .select([
      'i.id',
      'i.title',
      'i.authors',
      'i.subjects',
      'i.description',
      'i.page_count',
      sql<string>`i.updated_at::text`.as('version'),
      'e.model as stored_model',
      'e.text_hash as stored_hash',
    ])
    .where((eb) => stale(eb, model));
  if ('ids' in range) return query.where('i.id', 'in', range.ids).execute();
  query = query.where('i.id', '>', range.after).orderBy('i.id');
  if (range.end !== undefined) query = query.where('i.id', '<=', range.end);
  if (limit !== undefined) query = query.limit(limit);
  return query.execute();
}

/**
 * Builds the texts of `batch`, embeds those that changed and writes them in one statement. The
 * items it skips, still out of date, go into `tried`.
 */
async function embedBatch(
  db: Kysely<Database>,
  embedder: Embedder,
  batch: Candidate[],
  result: EmbedItemsResult,
  tried: Tried,
  options: {
    stopping?: () => boolean;
    log?: { warn: (object: object, message: string) => void };
  },
): Promise<void> {
  const withPages = batch.filter((item) => item.page_count > 0).map((item) => item.id);
  // A held book's first page says what it is about; one is plenty (item-text.ts).
  const firstPages = new Map(
    withPages.length === 0
      ? []
      : (
          await db
            .selectFrom('item_pages')
            .select(['item_id', 'content'])
            .where('item_id', 'in', withPages)
            .where('page_number', '=', 1)
            .execute()
        ).map((page) => [page.item_id, page.content]),
  );
  const toEmbed: { item: Candidate; text: string; hash: string }[] = [];
  const unchanged: Candidate[] = [];
  const emptied: string[] = [];
  for (const item of batch) {
    const page = firstPages.get(item.id);
    const text = embeddingText(item, page === undefined ? [] : [page]);
    if (text === '') {
      result.skipped += 1;
      tried.set(item.id, item.version);
      if (item.stored_hash !== null) emptied.push(item.id);
      continue;
    }
    const hash = textHash(text, embedder.model);
    // An edit of the year or the ISBN changes no embedded word: the vector stands.
    if (item.stored_model === embedder.model && item.stored_hash === hash) unchanged.push(item);
    else toEmbed.push({ item, text, hash });
  }
  const vectors = await unlessStopping(embedEach(embedder, toEmbed, options), options.stopping);
  const rows = toEmbed.flatMap(({ item, hash }, index) => {
    const vector = vectors[index];
    if (!vector) {
      result.skipped += 1;
      tried.set(item.id, item.version);
      return [];
    }
    return [{ id: item.id, hash, version: item.version, vector: `{${vector.join(',')}}` }];
  });
  if (rows.length > 0) {
    // One statement for the batch. Only items still there: one deleted meanwhile is left out
    // instead of failing the batch on its foreign key.
    await sql`
      INSERT INTO item_embeddings (item_id, model, text_hash, embedding, embedded_at)
      SELECT v.item_id, ${embedder.model}, v.text_hash, v.embedding::real[], v.version::timestamptz
      FROM (VALUES ${sql.join(
        rows.map((row) => sql`(${row.id}::uuid, ${row.hash}, ${row.vector}, ${row.version})`),
      )}) AS v (item_id, text_hash, embedding, version)
      WHERE EXISTS (SELECT 1 FROM items WHERE items.id = v.item_id)
      ON CONFLICT (item_id) DO UPDATE SET
        model = excluded.model,
        text_hash = excluded.text_hash,
        embedding = excluded.embedding,
        embedded_at = excluded.embedded_at
    `.execute(db);
    result.embedded += rows.length;
  }
  if (unchanged.length > 0) {
    await sql`
      UPDATE item_embeddings e SET embedded_at = v.version::timestamptz
      FROM (VALUES ${sql.join(
        unchanged.map((item) => sql`(${item.id}::uuid, ${item.version})`),
      )}) AS v (item_id, version)
      WHERE e.item_id = v.item_id
    `.execute(db);
    result.refreshed += unchanged.length;
  }
  // An item whose every field was emptied has no meaning left to search by.
  if (emptied.length > 0) {
    await db.deleteFrom('item_embeddings').where('item_id', 'in', emptied).execute();
  }
}

/**
 * The vectors of the texts, in order. When the model refuses the batch, each text goes alone and
 * those it refuses again are left out (undefined), so one bad text cannot hold the catalogue
 * back; when it refuses them all, the model itself is at fault and the job fails.
 */
async function embedEach(
  embedder: Embedder,
  texts: readonly { item: { id: string }; text: string }[],
  {
    stopping,
    log,
  }: { stopping?: () => boolean; log?: { warn: (object: object, message: string) => void } },
): Promise<(Float32Array | undefined)[]> {
  if (texts.length === 0) return [];
  try {
    return await embedder.embed(texts.map(({ text }) => text));
  } catch (batchError) {
    if (texts.length === 1) throw batchError;
    const vectors: (Float32Array | undefined)[] = [];
    for (const { item, text } of texts) {
      if (stopping?.()) throw new Stopped('The server is stopping.');
      try {
        vectors.push((await embedder.embed([text]))[0]);
      } catch (error) {
        log?.warn({ err: error, item: item.id }, 'the embedding model refused an item; skipped');
        vectors.push(undefined);
      }
    }
    if (vectors.every((vector) => vector === undefined)) throw batchError;
    return vectors;
  }
}

/** Where embedding jobs are queued from: the queue, and the database whose vectors they make. */
export interface EmbeddingContext {
  jobs: JobQueue;
  database: DatabaseHandle;
}

/**
 * Queues a run of the embedding job unless one is waiting already (the job's 'stately' policy),
 * or search by meaning is off here. `periodic` (the sweeper's) lets in at most one per
 * {@link EMBED_ITEMS_INTERVAL_SECONDS} whatever the number of processes.
 */
export async function queueItemEmbedding(
  context: EmbeddingContext,
  options: { periodic?: boolean } = {},
): Promise<void> {
  if (!context.database.searchByMeaning.available) return;
  await context.jobs.send(
    EMBED_ITEMS_JOB,
    {},
    options.periodic
      ? { singletonKey: SINGLETON_KEY, singletonSeconds: EMBED_ITEMS_INTERVAL_SECONDS }
      : { singletonKey: SINGLETON_KEY },
  );
}

/**
 * {@link queueItemEmbedding} without waiting, after an item is created, edited or imported: a
 * failure to queue is logged, and the sweeper's next run embeds the item.
 */
export function wakeItemEmbedding(
  context: EmbeddingContext,
  log: { warn: (object: object, message: string) => void },
): void {
  queueItemEmbedding(context).catch((error: unknown) =>
    log.warn({ err: error }, 'the embedding job was not queued; the sweeper queues it soon'),
  );
}

/**
 * EMBED_ITEMS_JOB with what runs it. A run that used its budget with items left queues the next
 * (`requeue`), which starts once this one has ended.
 */
export function embedItemsJob(context: {
  database: DatabaseHandle;
  log: {
    info: (object: object, message: string) => void;
    warn: (object: object, message: string) => void;
  };
  requeue: () => Promise<void>;
  /** The app's embedder (`RouteContext.embedder`). */
  embedder: Embedder;
}): JobKind<Record<string, never>> {
  return {
    ...EMBED_ITEMS_JOB,
    async run(_data, stopping) {
      const result = await embedItems(context.database, {
        embedder: context.embedder,
        stopping,
        log: context.log,
      });
      if (result.embedded + result.refreshed > 0) {
        context.log.info({ ...result }, 'items embedded for search by meaning');
      }
      if (result.unfinished && !stopping()) await context.requeue();
    },
  };
}
