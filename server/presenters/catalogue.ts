import type { Selectable } from 'kysely';
import type {
  CatalogueItem,
  CourseMaterial,
  ItemDetail,
  RelatedItem,
  Shelf,
} from '#contract/http/catalogue.ts';
import type { ItemChange, ManagedItem } from '#contract/http/items.ts';
import type { CourseMaterialRow } from '../catalogue/items.ts';
import type { RelatedRow } from '../catalogue/related.ts';
import type { SearchRow } from '../catalogue/search.ts';
import type { ItemChangesTable, ItemsTable } from '../db/schema.ts';

const optional = <Key extends string>(key: Key, value: string | null | undefined) =>
  (value ? { [key]: value } : {}) as Partial<Record<Key, string>>;

/** A result card, with its copies when the library holds some (`summariseShelves`). */
export function presentCatalogueItem(row: SearchRow, shelf?: Shelf): CatalogueItem {
  return {
    id: row.id,
    type: row.kind,
    title: row.title,
    authors: row.authors,
    year: row.year,
    subjects: row.subjects,
    ...optional('description', row.description),
    ...optional('coverUrl', row.cover_url),
    ...optional('driveLink', row.drive_link),
    ...optional('url', row.url),
    hasContent: row.page_count > 0,
    ...(row.withdrawn_at ? { withdrawn: true } : {}),
    ...(shelf ? { shelf } : {}),
  };
}

/** A "More like this" card: a result card and why it is listed. */
export function presentRelatedItem(row: RelatedRow, shelf?: Shelf): RelatedItem {
  return { ...presentCatalogueItem(row, shelf), reason: row.reason };
}

const isoDate = (value: string | null) => (value === null ? undefined : value.slice(0, 10));

/** Everything the detail view shows. */
export function presentItemDetail(row: Selectable<ItemsTable>, shelf?: Shelf): ItemDetail {
  return {
    ...presentCatalogueItem(row, shelf),
    ...optional('isbn', row.isbn),
    ...optional('arxivId', row.arxiv_id),
    ...optional('language', row.language),
    ...optional('institution', row.institution),
    ...optional('genre', row.genre),
    ...optional('publishedDate', isoDate(row.published_date)),
    pageCount: row.page_count,
    copies: row.copies,
  };
}

/** A course material in the spec's shape (`_id` as the old client expects). */
export function presentCourseMaterial(row: CourseMaterialRow): CourseMaterial {
  return {
    _id: row.id,
    title: row.title,
    author: row.authors.join(', '),
    publishedDate: isoDate(row.published_date) ?? (row.year ? String(row.year) : ''),
    driveLink: row.drive_link ?? row.url ?? '',
    instituteName: row.institution ?? '',
    genre: row.genre ?? row.subjects[0] ?? '',
  };
}

/** An item as librarians see it: its details, and when it was withdrawn if it was. */
export function presentManagedItem(row: Selectable<ItemsTable>): ManagedItem {
  return {
    ...presentItemDetail(row),
    ...(row.withdrawn_at ? { withdrawnAt: row.withdrawn_at.toISOString() } : {}),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** One recorded change of an item or its copies. */
export function presentItemChange(row: Selectable<ItemChangesTable>): ItemChange {
  return {
    id: String(row.id),
    at: row.changed_at.toISOString(),
    by: { id: row.changed_by, name: row.changed_by_name },
    action: row.action,
    changes: row.changes,
  };
}
