import type { FieldErrors, Resolver } from 'react-hook-form';
import type { ItemDetail, ItemType } from '#contract/http/catalogue.ts';
import { itemCreateSchema, type ItemCreate, type ItemUpdate } from '#contract/http/items.ts';

/** The item form's fields, each as its control holds it (text). */
export interface ItemFormValues {
  type: ItemType | '';
  title: string;
  authors: string;
  year: string;
  isbn: string;
  subjects: string;
  description: string;
  coverUrl: string;
  url: string;
  institution: string;
  genre: string;
  publishedDate: string;
  driveLink: string;
}

/** The fields only course materials show. */
export const COURSE_FIELDS = ['institution', 'genre', 'publishedDate', 'driveLink'] as const;

/**
 * A list typed in one box: one entry per line when there are several lines (so a name with a
 * comma, "Tolkien, J. R. R.", stays whole), otherwise separated by commas. Blanks are dropped.
 */
export function splitList(text: string): string[] {
  const parts = text.includes('\n') ? text.split('\n') : text.split(',');
  return parts.map((part) => part.trim()).filter((part) => part !== '');
}

/** A list as `splitList` reads it back: commas, or lines when an entry holds a comma. */
export function joinList(entries: readonly string[]): string {
  return entries.some((entry) => entry.includes(',')) ? entries.join('\n') : entries.join(', ');
}

/** The form's values for `item`, or an empty form (a book) for a new one. */
export function formValuesOf(item?: ItemDetail): ItemFormValues {
  return {
    type: item?.type ?? 'book',
    title: item?.title ?? '',
    authors: joinList(item?.authors ?? []),
    year: item?.year === null || item?.year === undefined ? '' : String(item.year),
    isbn: item?.isbn ?? '',
    subjects: joinList(item?.subjects ?? []),
    description: item?.description ?? '',
    coverUrl: item?.coverUrl ?? '',
    url: item?.url ?? '',
    institution: item?.institution ?? '',
    genre: item?.genre ?? '',
    publishedDate: item?.publishedDate ?? '',
    driveLink: item?.driveLink ?? '',
  };
}

/** What the form sends before the contract's schema checks it; course fields for courses only. */
function rawFields(values: ItemFormValues): Record<string, unknown> {
  const { authors, subjects, institution, genre, publishedDate, driveLink, ...rest } = values;
  return {
    ...rest,
    authors: splitList(authors),
    subjects: splitList(subjects),
    ...(values.type === 'course' ? { institution, genre, publishedDate, driveLink } : {}),
  };
}

/**
 * Checks the form with the contract's own schema (the one the server applies), and puts each
 * problem on the field it belongs to: "authors.2" is the Authors box.
 */
export const itemFormResolver: Resolver<ItemFormValues, unknown, ItemCreate> = (values) => {
  const parsed = itemCreateSchema.safeParse(rawFields(values));
  if (parsed.success) return { values: parsed.data, errors: {} };
  const errors: FieldErrors<ItemFormValues> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? 'title') as keyof ItemFormValues;
    errors[field] ??= { type: issue.code, message: issue.message };
  }
  return { values: {}, errors };
};

/** A value as the item holds it, for comparing: absent is `null`. */
function currentValue(item: ItemDetail, field: keyof ItemUpdate): unknown {
  const value = (item as Record<string, unknown>)[field];
  return value === undefined ? null : value;
}

/** The fields of `fields` that differ from `item`: what a save changes. */
export function changedFields(item: ItemDetail, fields: ItemCreate): ItemUpdate {
  const patch: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(fields) as [keyof ItemUpdate, unknown][]) {
    if (value === undefined) continue;
    if (JSON.stringify(currentValue(item, field)) !== JSON.stringify(value)) patch[field] = value;
  }
  return patch as ItemUpdate;
}
