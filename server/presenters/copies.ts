import type { Copy } from '#contract/http/copies.ts';
import type { CopyRow } from '../catalogue/copies.ts';

/** A copy as librarians see it. */
export function presentCopy(row: CopyRow): Copy {
  return {
    id: row.id,
    barcode: row.barcode,
    location: row.location,
    status: row.status,
    note: row.note,
    updatedAt: row.updated_at.toISOString(),
  };
}
