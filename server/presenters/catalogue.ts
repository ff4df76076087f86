import type { Selectable } from 'kysely';
import type { CatalogueItem, CourseMaterial, ItemDetail } from '#contract/http/catalogue.ts';
import type { CourseMaterialRow } from '../catalogue/items.ts';
import type { SearchRow } from '../catalogue/search.ts';
import type { ItemsTable } from '../db/schema.ts';

const optional = <Key extends string>(key: Key, value: string | null | undefined) =>
  (value ? { [key]: value } : {}) as Partial<Record<Key, string>>;

/** A result card. */
export function presentCatalogueItem(row: SearchRow): CatalogueItem {
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
  };
}

const isoDate = (value: string | null) => (value === null ? undefined : value.slice(0, 10));

/** Everything the detail view shows. */
export function presentItemDetail(row: Selectable<ItemsTable>): ItemDetail {
  return {
    ...presentCatalogueItem(row),
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
