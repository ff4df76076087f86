import { z } from 'zod';
import { TAG_MAX_COUNT, TAG_MAX_LENGTH } from '../limits.ts';
import { blankToUndefined, ITEM_TYPES, itemDetailSchema } from './catalogue.ts';

/** Longest title, author, description and other free text of an item a librarian edits. */
export const ITEM_TITLE_MAX = 300;
export const ITEM_AUTHOR_MAX = 200;
export const ITEM_AUTHORS_MAX = 20;
export const ITEM_DESCRIPTION_MAX = 5000;

const isRealDate = (value: string) => {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
};

/** Optional text: blank means "none" (`null`), so a librarian can clear a field. */
const optionalText = (max: number, label: string) =>
  z.preprocess(
    (value) => (blankToUndefined(value) === undefined && value !== undefined ? null : value),
    z.string().trim().max(max, `${label} is at most ${max} characters`).nullable().optional(),
  );

const webAddress = (label: string) =>
  z.preprocess(
    (value) => (blankToUndefined(value) === undefined && value !== undefined ? null : value),
    z
      .string()
      .trim()
      .max(2000, `${label} is at most 2,000 characters`)
      .pipe(z.url({ protocol: /^https?$/, message: `${label} must be an http:// or https:// URL` }))
      .nullable()
      .optional(),
  );

/**
 * An item's fields as librarians edit them. `isbn` is any ISBN-10 or ISBN-13 (hyphens and spaces
 * allowed); the server checks its check digit and stores the ISBN-13.
 */
const itemFields = {
  type: z.enum(ITEM_TYPES, { message: 'Please choose book, paper or course material' }),
  title: z
    .string({ message: 'Title is required' })
    .trim()
    .min(1, 'Title is required')
    .max(ITEM_TITLE_MAX, `Title is at most ${ITEM_TITLE_MAX} characters`),
  authors: z
    .array(
      z
        .string()
        .trim()
        .min(1, 'An author cannot be blank')
        .max(ITEM_AUTHOR_MAX, `An author is at most ${ITEM_AUTHOR_MAX} characters`),
    )
    .max(ITEM_AUTHORS_MAX, `At most ${ITEM_AUTHORS_MAX} authors`),
  year: z.preprocess(
    (value) => (blankToUndefined(value) === undefined && value !== undefined ? null : value),
    z.coerce
      .number({ message: 'Year must be a number' })
      .int('Year must be a whole number')
      .min(-3000, 'Year must be between -3000 and 3000')
      .max(3000, 'Year must be between -3000 and 3000')
      .nullable()
      .optional(),
  ),
  isbn: optionalText(20, 'ISBN'),
  subjects: z
    .array(
      z
        .string()
        .trim()
        .min(1, 'A subject cannot be blank')
        .max(TAG_MAX_LENGTH, `A subject is at most ${TAG_MAX_LENGTH} characters`),
    )
    .max(TAG_MAX_COUNT, `At most ${TAG_MAX_COUNT} subjects`),
  description: optionalText(ITEM_DESCRIPTION_MAX, 'Description'),
  coverUrl: webAddress('Cover URL'),
  url: webAddress('Link'),
  language: optionalText(20, 'Language'),
  /** Course materials: the publishing institute, genre, publication date and Drive link. */
  institution: optionalText(200, 'Institution'),
  genre: optionalText(100, 'Genre'),
  publishedDate: z.preprocess(
    (value) => (blankToUndefined(value) === undefined && value !== undefined ? null : value),
    z
      .string()
      .trim()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'Publication date must be a date (YYYY-MM-DD)')
      .refine(isRealDate, 'Publication date must be a real date')
      .nullable()
      .optional(),
  ),
  driveLink: webAddress('Drive link'),
};

/** `POST /api/items`: a new item; type and title are required. */
export const itemCreateSchema = z.object({
  ...itemFields,
  authors: itemFields.authors.default([]),
  subjects: itemFields.subjects.default([]),
});

/** `PATCH /api/items/:id`: any of the fields; a blank optional field clears it. */
export const itemUpdateSchema = z
  .object(itemFields)
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, 'Nothing to change: send at least one field');

/** An item as librarians see it: its details, and when it was withdrawn if it was. */
export const managedItemSchema = itemDetailSchema.extend({
  withdrawnAt: z.string().optional(),
  updatedAt: z.string(),
});

/** `GET /api/items/mine`: the caller's own course materials, newest first, withdrawn ones too. */
export const myItemsResponseSchema = z.object({ items: z.array(managedItemSchema) });

/** One recorded change of an item or of one of its copies. */
export const itemChangeSchema = z.object({
  id: z.string(),
  at: z.string(),
  by: z.object({ id: z.string().nullable(), name: z.string() }),
  action: z.enum(['created', 'edited', 'withdrawn', 'restored', 'copy_added', 'copy_changed']),
  changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
});

/** `GET /api/items/:id/history`: newest first. */
export const itemHistoryResponseSchema = z.object({ changes: z.array(itemChangeSchema) });

export type ItemCreate = z.output<typeof itemCreateSchema>;
export type ItemUpdate = z.output<typeof itemUpdateSchema>;
export type ManagedItem = z.infer<typeof managedItemSchema>;
export type MyItemsResponse = z.infer<typeof myItemsResponseSchema>;
export type ItemChange = z.infer<typeof itemChangeSchema>;
