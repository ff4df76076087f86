import { z } from 'zod';

/** What a physical copy can be doing. Only `available` copies can be reserved. */
export const COPY_STATUSES = ['available', 'on_loan', 'in_repair', 'missing', 'withdrawn'] as const;

/** A copy's state as a person reads it. */
export const COPY_STATUS_LABELS: Record<CopyStatus, string> = {
  available: 'Available',
  on_loan: 'On loan',
  in_repair: 'In repair',
  missing: 'Missing',
  withdrawn: 'Withdrawn',
};

/** Longest location (shelfmark, branch and room) and note of a copy. */
export const COPY_LOCATION_MAX = 120;
export const COPY_NOTE_MAX = 500;

/**
 * A barcode as a scanner types it: letters, digits and `. _ / -`, 1 to 40 characters, starting
 * with a letter or digit. Upper and lower case are one barcode.
 */
export const barcodeSchema = z
  .string({ message: 'Please scan or type a barcode' })
  .trim()
  .min(1, 'Please scan or type a barcode')
  .max(40, 'Barcodes are at most 40 characters')
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._/-]*$/,
    'Barcodes hold letters, digits, dots, dashes, underscores and slashes only',
  );

const location = z
  .string()
  .trim()
  .max(COPY_LOCATION_MAX, `Locations are at most ${COPY_LOCATION_MAX} characters`);
const note = z.string().trim().max(COPY_NOTE_MAX, `Notes are at most ${COPY_NOTE_MAX} characters`);
const status = z.enum(COPY_STATUSES, { message: 'Please choose a status' });

/** A copy as librarians see it. */
export const copySchema = z.object({
  id: z.string(),
  barcode: z.string(),
  location: z.string(),
  status,
  note: z.string(),
  updatedAt: z.string(),
});

/** `POST /api/items/:id/copies`: a new copy of the item. */
export const copyCreateSchema = z.object({
  barcode: barcodeSchema,
  location: location.default(''),
  status: status.default('available'),
  note: note.default(''),
});

/** `PATCH /api/copies/:barcode`: any of a copy's fields, a new barcode label too. */
export const copyUpdateSchema = z
  .object({ barcode: barcodeSchema, location, status, note })
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, 'Nothing to change: send at least one field');

/** One place where copies of an item stand, and how many of them can be reserved now. */
export const copyLocationSchema = z.object({
  location: z.string().meta({ example: 'Main library, PR 4034' }),
  // Examples for the API reference, whose made-up answer would otherwise show 2^53 - 1.
  total: z.number().int().nonnegative().meta({ example: 2 }),
  available: z.number().int().nonnegative().meta({ example: 1 }),
});

/**
 * `GET /api/items/:id/copies`: counts and places for everyone signed in; the copies themselves,
 * with their barcodes, for librarians only.
 */
export const itemCopiesResponseSchema = z.object({
  itemId: z.string(),
  /** Copies the library holds (withdrawn ones aside). */
  total: z.number().int(),
  /** Copies free to reserve now: on the shelf and not held for anyone. */
  available: z.number().int(),
  locations: z.array(copyLocationSchema),
  copies: z.array(copySchema).optional(),
});

/** The `:barcode` of `PATCH /api/copies/:barcode`. */
export const copyParamsSchema = z.object({ barcode: z.string() });

export type CopyStatus = (typeof COPY_STATUSES)[number];
export type Copy = z.infer<typeof copySchema>;
export type CopyCreate = z.input<typeof copyCreateSchema>;
export type CopyUpdate = z.infer<typeof copyUpdateSchema>;
export type ItemCopies = z.infer<typeof itemCopiesResponseSchema>;
