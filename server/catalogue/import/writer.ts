import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { Database, ItemsTable } from '../../db/schema.ts';
import { gatherImportedAvailability } from '../../reservations/availability.ts';
import { upsertImportedCopies, type ImportedCopy, type ImportedCopyCounts } from '../copies.ts';
import { readCsvRows } from './csv.ts';

/** A catalogue item as a parser makes it; the writer adds `source` and the timestamps. */
export type ImportItem = Omit<
  Insertable<ItemsTable>,
  'id' | 'source' | 'created_at' | 'updated_at' | 'search'
>;

/** A physical copy a parser found with an item (MARC holdings); the writer adds the item's id. */
export type ImportCopy = Omit<ImportedCopy, 'itemId'>;

/** What a parser makes of one row: an item and its copies, or the reason the row is skipped. */
export type ParsedRow =
  | { item: ImportItem; copies?: ImportCopy[]; error?: undefined }
  | { item?: undefined; copies?: undefined; error: string };

/** A skipped row: its 1-based line in the file and why. */
export interface BadRow {
  line: number;
  reason: string;
}

/** Running totals of one import. */
export interface ImportCounts {
  /** Rows (records) read from the file, good and bad. */
  rows: number;
  inserted: number;
  updated: number;
  /** Already in the catalogue exactly as the file has them. */
  unchanged: number;
  /** Bad rows and rows repeating an identifier seen earlier in the same file. */
  skipped: number;
}

/** How far through its file an import has read, for a progress bar before the rows are counted. */
export interface ImportFileProgress {
  /** Bytes of the file read so far (ahead of the rows written by at most one read, 64 KiB). */
  bytesRead: number;
  /** The file's size in bytes. */
  totalBytes: number;
}

/** How a writer reports what happens while it works. */
export interface ImportListener {
  onBadRow?: (row: BadRow) => void;
  /**
   * Called after each batch (500 rows) is written, and once at the end: `counts.rows` is the rows
   * done so far. `file` comes from importers that know how far they have read (MARC).
   */
  onProgress?: (counts: Readonly<ImportCounts>, file?: Readonly<ImportFileProgress>) => void;
}

/** Options of an ItemWriter. */
export interface WriterOptions extends ImportListener {
  /** The importer's name, stored in `items.source`. */
  source: string;
  /** The file's size, when its rows say how many bytes had been read (`LineRow.bytesRead`). */
  totalBytes?: number;
  /** Rows per transaction. */
  batchSize?: number;
  /** What `source_id` is, for messages about repeated rows ("URL"). */
  identifier?: string;
}

/** At most this many bad rows are kept for the summary; every one still goes to `onBadRow`. */
export const KEPT_BAD_ROWS = 1_000;

/** Zeroed counters. */
export function emptyCounts(): ImportCounts {
  return { rows: 0, inserted: 0, updated: 0, unchanged: 0, skipped: 0 };
}

/** The unique index that tells whether an item is already in the catalogue. */
type Target = 'isbn' | 'arxiv_id' | 'source_id';
/** The order a batch is written in, one statement per target. */
const TARGETS = ['isbn', 'arxiv_id', 'source_id'] as const satisfies readonly Target[];

/** Statuses the copies' trigger counts as held but not lendable. */
const UNAVAILABLE = new Set<string>(['on_loan', 'in_repair', 'missing']);

/** An item's copy counts as the copies' trigger keeps them. */
interface HeldCounts {
  copies: number;
  copies_unavailable: number;
}

type Outcome = 'inserted' | 'updated' | 'unchanged' | 'duplicate';

interface Pending {
  line: number;
  item: ImportItem;
  copies: ImportCopy[];
  target: Target;
  key: string;
}

/**
 * The counts each row's copies will give the item it becomes, copies counted as the copies'
 * trigger counts them (migration 20261127060000): withdrawn ones aside, on loan, in repair and
 * missing ones unavailable. A barcode that comes twice is counted where upsertImportedCopies
 * keeps it, with its last row in the order `write` collects copies (TARGETS, then batch order).
 */
function heldCounts(batch: readonly Pending[]): Map<Pending, HeldCounts> {
  const keeper = new Map<string, Pending>();
  for (const target of TARGETS) {
    for (const row of batch) {
      if (row.target !== target) continue;
      for (const copy of row.copies) keeper.set(copy.barcode.toUpperCase(), row);
    }
  }
  const counts = new Map<Pending, HeldCounts>();
  for (const row of batch) {
    if (row.copies.length === 0) continue;
    const held = { copies: 0, copies_unavailable: 0 };
    const barcodes = new Set<string>();
    for (const copy of row.copies) {
      const barcode = copy.barcode.toUpperCase();
      if (keeper.get(barcode) !== row || barcodes.has(barcode)) continue;
      barcodes.add(barcode);
      if (copy.status !== 'withdrawn') held.copies += 1;
      if (UNAVAILABLE.has(copy.status)) held.copies_unavailable += 1;
    }
    counts.set(row, held);
  }
  return counts;
}

function targetOf(item: ImportItem): Target {
  if (item.isbn) return 'isbn';
  if (item.arxiv_id) return 'arxiv_id';
  return 'source_id';
}

/** SQLSTATE classes 22 (bad data) and 23 (constraint violated): the row's fault, not the server's. */
function isRowError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'));
}

/**
 * Collects parsed rows and writes them in batches, one transaction per batch, with
 * INSERT ... ON CONFLICT DO UPDATE on the ISBN, arXiv id or (source, source_id) index. Counts what
 * was inserted, updated, left unchanged or skipped.
 */
export class ItemWriter {
  readonly counts: ImportCounts = emptyCounts();
  readonly badRows: BadRow[] = [];
  /** Copies written with the items (MARC holdings). */
  readonly copyCounts: ImportedCopyCounts = { inserted: 0, updated: 0, unchanged: 0 };
  private pending: Pending[] = [];
  // Bad rows wait for their batch, so that they are reported in line order with its repeats.
  private pendingBad: BadRow[] = [];
  private readonly batchSize: number;
  private bytesRead = 0;
  /**
   * Every row this run writes gets this `updated_at`. A later row of the same file that matches it
   * is then recognised as a repeat (first one wins) instead of silently overwriting it, without
   * keeping every identifier of the file in memory.
   */
  private readonly stamp = new Date().toISOString();
  /** Items whose copies changed, for the cards in chat rooms (decision 045), said at the end. */
  private readonly availability: ReturnType<typeof gatherImportedAvailability>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: WriterOptions,
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.availability = gatherImportedAvailability(db);
  }

  /**
   * Queues one parsed row (or records why it is bad); writes a batch when one is full. `bytesRead`:
   * how much of the file had been read when the row was.
   */
  async add(line: number, parsed: ParsedRow, bytesRead?: number): Promise<void> {
    this.counts.rows += 1;
    if (bytesRead !== undefined) this.bytesRead = bytesRead;
    if (parsed.error !== undefined) {
      this.pendingBad.push({ line, reason: parsed.error });
      if (this.pendingBad.length >= this.batchSize) await this.flush();
      return;
    }
    const target = targetOf(parsed.item);
    this.pending.push({
      line,
      item: parsed.item,
      copies: parsed.copies ?? [],
      target,
      key: String(parsed.item[target]),
    });
    if (this.pending.length >= this.batchSize) await this.flush();
  }

  /** Writes what is still queued and returns the totals. */
  async finish(): Promise<ImportCounts> {
    try {
      await this.flush();
    } finally {
      this.availability.done();
    }
    return { ...this.counts };
  }

  private reject(line: number, reason: string): void {
    this.counts.skipped += 1;
    const bad = { line, reason };
    if (this.badRows.length < KEPT_BAD_ROWS) this.badRows.push(bad);
    this.options.onBadRow?.(bad);
  }

  private repeated(row: Pending, firstLine?: number): BadRow {
    const earlier = firstLine === undefined ? 'an earlier row' : `line ${firstLine}`;
    return {
      line: row.line,
      reason: `repeats the ${this.label(row.target)} ${row.key} of ${earlier}; the first one is kept`,
    };
  }

  private label(target: Target): string {
    if (target === 'isbn') return 'ISBN';
    if (target === 'arxiv_id') return 'arXiv id';
    return this.options.identifier ?? 'identifier';
  }

  private async flush(): Promise<void> {
    const rejected = this.pendingBad;
    this.pendingBad = [];
    const batch: Pending[] = [];
    const firsts = new Map<string, Pending>();
    const repeats: { row: Pending; first: Pending }[] = [];
    for (const row of this.pending) {
      const id = `${row.target}:${row.key}`;
      const first = firsts.get(id);
      if (first === undefined) {
        firsts.set(id, row);
        batch.push(row);
      } else {
        repeats.push({ row, first });
      }
    }
    this.pending = [];

    let outcomes = new Map<Pending, Outcome>();
    const copies: (ImportedCopyCounts & { touched: string[] })[] = [];
    try {
      if (batch.length > 0) {
        outcomes = await this.db.transaction().execute(async (trx) => {
          const written = await this.write(trx, batch);
          copies.push(written.copies);
          return written.outcomes;
        });
      }
    } catch (error) {
      if (!isRowError(error)) throw error;
      // One row the database refuses fails its whole batch: retry row by row to skip only it.
      for (const row of batch) {
        try {
          const single = await this.db.transaction().execute((trx) => this.write(trx, [row]));
          for (const [key, value] of single.outcomes) outcomes.set(key, value);
          copies.push(single.copies);
        } catch (rowError) {
          if (!isRowError(rowError)) throw rowError;
          rejected.push({
            line: row.line,
            reason: `the database refused it: ${(rowError as Error).message}`,
          });
        }
      }
    }
    for (const counts of copies) {
      for (const key of ['inserted', 'updated', 'unchanged'] as const)
        this.copyCounts[key] += counts[key];
      this.availability.add(counts.touched);
    }
    for (const [row, outcome] of outcomes) {
      if (outcome === 'duplicate') rejected.push(this.repeated(row));
      else this.counts[outcome] += 1;
    }
    for (const { row, first } of repeats) {
      // When the first of the batch was itself a repeat, name the row that really came first.
      rejected.push(
        this.repeated(row, outcomes.get(first) === 'duplicate' ? undefined : first.line),
      );
    }
    for (const { line, reason } of rejected.sort((a, b) => a.line - b.line))
      this.reject(line, reason);
    const { totalBytes } = this.options;
    this.options.onProgress?.(
      { ...this.counts },
      totalBytes === undefined ? undefined : { bytesRead: this.bytesRead, totalBytes },
    );
  }

  private async write(
    trx: Transaction<Database>,
    batch: Pending[],
  ): Promise<{
    outcomes: Map<Pending, Outcome>;
    copies: ImportedCopyCounts & { touched: string[] };
  }> {
    const outcomes = new Map<Pending, Outcome>();
    const copies: ImportedCopy[] = [];
    const held = heldCounts(batch);
    for (const target of TARGETS) {
      const group = batch.filter((row) => row.target === target);
      if (group.length === 0) continue;
      const result = await this.upsert(trx, target, group, held);
      for (const row of group) outcomes.set(row, result.get(row.key) ?? 'unchanged');
      // A repeated row's copies are skipped with it; the others join the item the row became.
      const holders = group.filter(
        (row) => row.copies.length > 0 && outcomes.get(row) !== 'duplicate',
      );
      if (holders.length === 0) continue;
      const ids = await this.itemIds(
        trx,
        target,
        holders.map((row) => row.key),
      );
      for (const row of holders) {
        const itemId = ids.get(row.key);
        if (itemId) copies.push(...row.copies.map((copy) => ({ ...copy, itemId })));
      }
    }
    return { outcomes, copies: await upsertImportedCopies(trx, copies) };
  }

  /** The ids of the items with these ISBNs, arXiv ids or (this source's) source ids. */
  private async itemIds(
    trx: Transaction<Database>,
    target: Target,
    keys: string[],
  ): Promise<Map<string, string>> {
    let query = trx.selectFrom('items').select(['id', target]).where(target, 'in', keys);
    if (target === 'source_id') query = query.where('source', '=', this.options.source);
    const rows = await query.execute();
    return new Map(rows.map((row) => [String(row[target]), row.id]));
  }

  /** One INSERT ... ON CONFLICT for rows sharing a conflict target; returns outcomes by key. */
  private async upsert(
    trx: Transaction<Database>,
    target: Target,
    rows: Pending[],
    held: ReadonlyMap<Pending, HeldCounts>,
  ): Promise<Map<string, Outcome>> {
    const { source } = this.options;
    const stamp = sql<Date>`${this.stamp}::timestamptz`;
    // A row matched by ISBN or arXiv id may belong to another source: it keeps its own source_id.
    const columns = Object.keys(rows[0]?.item ?? {}).filter(
      (column) => column !== 'source_id',
    ) as (keyof ImportItem)[];
    const set = Object.fromEntries([
      ...columns.map((column) => [column, sql.ref(`excluded.${column}`)]),
      ['updated_at', stamp],
    ]);
    const current = sql.join(columns.map((column) => sql.ref(`items.${column}`)));
    const incoming = sql.join(columns.map((column) => sql.ref(`excluded.${column}`)));

    const returned = await trx
      .insertInto('items')
      .values(
        rows.map((row) => ({
          ...row.item,
          // A new item is given the counts its copies, written next, will give it: otherwise the
          // copies' trigger writes each new item's row a second time, all its indexes (GIN too)
          // again. The trigger still recounts every item the copies touch, and finds these
          // right: an item counted here gets at least one copy row below, so none keeps a wrong
          // count. Only an insert takes them; an update leaves an item's counts to the trigger.
          ...(held.get(row) as Insertable<ItemsTable> | undefined),
          source,
          updated_at: this.stamp,
        })),
      )
      .onConflict((conflict) => {
        const on =
          target === 'source_id'
            ? conflict.columns(['source', 'source_id'])
            : conflict.column(target).where(target, 'is not', null);
        return (
          on
            .doUpdateSet(set)
            // Unchanged rows are not rewritten, so a re-run touches nothing it need not.
            .where(
              sql<boolean>`items.updated_at <> ${stamp} AND (${current}) IS DISTINCT FROM (${incoming})`,
            )
        );
      })
      .returning([target, sql<boolean>`xmax = 0`.as('inserted')])
      .execute();

    const outcomes = new Map<string, Outcome>();
    for (const row of returned) {
      outcomes.set(String(row[target]), row.inserted ? 'inserted' : 'updated');
    }
    const missing = rows.map((row) => row.key).filter((key) => !outcomes.has(key));
    if (missing.length > 0) {
      let repeats = trx
        .selectFrom('items')
        .select(target)
        .where(target, 'in', missing)
        .where(sql<boolean>`updated_at = ${stamp}`);
      if (target === 'source_id') repeats = repeats.where('source', '=', source);
      for (const row of await repeats.execute()) outcomes.set(String(row[target]), 'duplicate');
    }
    return outcomes;
  }
}

/** A parsed row and the 1-based line it came from. */
export interface LineRow {
  line: number;
  parsed: ParsedRow;
  /** Bytes of the file read when the row was (for ImportFileProgress). */
  bytesRead?: number;
}

/** Streams a CSV file's rows through `parse`, keeping each row's line and the reader's own errors. */
export async function* parsedCsvRows(
  file: string,
  columns: readonly string[],
  parse: (row: Record<string, string>) => ParsedRow,
): AsyncGenerator<LineRow> {
  for await (const row of readCsvRows(file, columns)) {
    yield {
      line: row.line,
      parsed: row.error !== undefined ? { error: row.error } : parse(row.row),
    };
  }
}

/** What an import did: its totals and the first KEPT_BAD_ROWS bad rows. */
export interface ImportResult {
  counts: ImportCounts;
  badRows: BadRow[];
  /** Texts only: the pages the text was split into. */
  pages?: number;
  /** MARC and holdings imports: the copies written. */
  copies?: ImportedCopyCounts;
}

/** Writes every row of `rows` through one ItemWriter and returns what it did. */
export async function writeRows(
  db: Kysely<Database>,
  rows: AsyncIterable<LineRow> | Iterable<LineRow>,
  options: WriterOptions,
): Promise<ImportResult> {
  const writer = new ItemWriter(db, options);
  for await (const { line, parsed, bytesRead } of rows) await writer.add(line, parsed, bytesRead);
  const counts = await writer.finish();
  const result: ImportResult = { counts, badRows: writer.badRows };
  const copies = writer.copyCounts;
  if (copies.inserted + copies.updated + copies.unchanged > 0) result.copies = { ...copies };
  return result;
}
