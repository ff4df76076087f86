import type { Kysely } from 'kysely';
import {
  barcodeSchema,
  COPY_LOCATION_MAX,
  COPY_STATUSES,
  type CopyStatus,
} from '#contract/http/copies.ts';
import type { Database } from '../../db/schema.ts';
import { gatherImportedAvailability } from '../../reservations/availability.ts';
import { upsertImportedCopies, type ImportedCopy } from '../copies.ts';
import { normaliseIsbn } from '../isbn.ts';
import { ImportFileError, readCsvRows } from './csv.ts';
import { squash } from './text.ts';
import {
  emptyCounts,
  KEPT_BAD_ROWS,
  type BadRow,
  type ImportListener,
  type ImportResult,
} from './writer.ts';

/** Columns a holdings CSV must have; it also needs `isbn` or `item_id`, and may have `status`. */
export const HOLDINGS_COLUMNS = ['barcode', 'location'] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;

/** One holdings row as read: the item it names and the copy to attach. */
export interface HoldingRow {
  isbn: string | null;
  itemId: string | null;
  barcode: string;
  location: string;
  status: CopyStatus;
}

/** A status as people write it ("On loan", "on-loan", "ON_LOAN"), or null when it is none. */
export function copyStatus(text: string): CopyStatus | null {
  const value = squash(text)
    .toLowerCase()
    .replace(/[\s-]+/gu, '_');
  if (value === '') return 'available';
  return (COPY_STATUSES as readonly string[]).includes(value) ? (value as CopyStatus) : null;
}

/** Reads one row of a holdings CSV, or says why it cannot be used. */
export function parseHoldingRow(
  row: Readonly<Record<string, string>>,
): { holding: HoldingRow; error?: undefined } | { holding?: undefined; error: string } {
  const rawIsbn = squash(row.isbn ?? '');
  const itemId = squash(row.item_id ?? '');
  if (rawIsbn === '' && itemId === '')
    return { error: 'names no item: isbn and item_id are empty' };
  let isbn: string | null = null;
  if (rawIsbn !== '') {
    isbn = normaliseIsbn(rawIsbn);
    if (!isbn) return { error: `"${rawIsbn}" is not an ISBN` };
  } else if (!UUID.test(itemId)) {
    return { error: `"${itemId}" is not an item id` };
  }
  const barcode = barcodeSchema.safeParse(row.barcode ?? '');
  if (!barcode.success) return { error: barcode.error.issues[0]?.message ?? 'bad barcode' };
  const location = squash(row.location ?? '');
  if (location.length > COPY_LOCATION_MAX) {
    return { error: `the location is longer than ${COPY_LOCATION_MAX} characters` };
  }
  const status = copyStatus(row.status ?? '');
  if (!status) {
    return {
      error: `the status "${squash(row.status ?? '')}" is not one of ${COPY_STATUSES.join(', ')}`,
    };
  }
  return {
    holding: {
      isbn,
      itemId: isbn ? null : itemId.toLowerCase(),
      barcode: barcode.data,
      location,
      status,
    },
  };
}

const BATCH = 500;

/**
 * Imports a holdings CSV (`isbn` or `item_id`, `barcode`, `location`, optional `status`): each row
 * attaches a copy to an item already in the catalogue, or updates the copy that carries its
 * barcode. Rows naming no known item are reported by line and skipped. The counts are of copies.
 */
export async function importHoldings(
  db: Kysely<Database>,
  file: string,
  listener: ImportListener = {},
): Promise<ImportResult> {
  const counts = emptyCounts();
  const badRows: BadRow[] = [];
  const reject = (bad: BadRow) => {
    counts.skipped += 1;
    if (badRows.length < KEPT_BAD_ROWS) badRows.push(bad);
    listener.onBadRow?.(bad);
  };
  let batch: { line: number; holding: HoldingRow }[] = [];
  let rejected: BadRow[] = [];
  // Cards in chat rooms show live availability: said once the import is over (decision 045).
  const availability = gatherImportedAvailability(db);

  const flush = async () => {
    const isbns = [...new Set(batch.flatMap(({ holding }) => holding.isbn ?? []))];
    const ids = [...new Set(batch.flatMap(({ holding }) => holding.itemId ?? []))];
    const [byIsbn, byId] = await Promise.all([
      isbns.length === 0
        ? []
        : db.selectFrom('items').select(['id', 'isbn']).where('isbn', 'in', isbns).execute(),
      ids.length === 0 ? [] : db.selectFrom('items').select('id').where('id', 'in', ids).execute(),
    ]);
    const isbnItems = new Map(byIsbn.map((item) => [item.isbn, item.id]));
    const knownIds = new Set(byId.map((item) => item.id));
    const copies: ImportedCopy[] = [];
    const seen = new Map<string, number>();
    for (const { line, holding } of batch) {
      const itemId = holding.isbn ? isbnItems.get(holding.isbn) : holding.itemId;
      if (!itemId || (holding.itemId && !knownIds.has(holding.itemId))) {
        rejected.push({
          line,
          reason: holding.isbn
            ? `no item has the ISBN ${holding.isbn}`
            : `no item has the id ${holding.itemId}`,
        });
        continue;
      }
      const key = holding.barcode.toUpperCase();
      const earlier = seen.get(key);
      if (earlier !== undefined) {
        rejected.push({
          line,
          reason: `repeats the barcode ${holding.barcode} of line ${earlier}; the first one is kept`,
        });
        continue;
      }
      seen.set(key, line);
      copies.push({
        itemId,
        barcode: holding.barcode,
        location: holding.location,
        status: holding.status,
      });
    }
    const written = await db.transaction().execute((trx) => upsertImportedCopies(trx, copies));
    availability.add(written.touched);
    counts.inserted += written.inserted;
    counts.updated += written.updated;
    counts.unchanged += written.unchanged;
    for (const bad of rejected.sort((a, b) => a.line - b.line)) reject(bad);
    batch = [];
    rejected = [];
    listener.onProgress?.({ ...counts });
  };

  const readHoldings = async () => {
    let checkedHeader = false;
    for await (const row of readCsvRows(file, HOLDINGS_COLUMNS)) {
      if (!checkedHeader && row.row) {
        if (!('isbn' in row.row) && !('item_id' in row.row)) {
          throw new ImportFileError(
            `${file} does not look like a holdings CSV: its header lacks isbn or item_id`,
          );
        }
        checkedHeader = true;
      }
      counts.rows += 1;
      const parsed = row.error !== undefined ? { error: row.error } : parseHoldingRow(row.row);
      if (parsed.error !== undefined) rejected.push({ line: row.line, reason: parsed.error });
      else if (parsed.holding) batch.push({ line: row.line, holding: parsed.holding });
      if (batch.length + rejected.length >= BATCH) await flush();
    }
    await flush();
  };

  try {
    await readHoldings();
  } finally {
    // What committed counts, even when a later batch failed.
    availability.done();
  }
  return { counts, badRows };
}
