import { z } from 'zod';
import { catalogueItemSchema } from './catalogue.ts';

/**
 * "My shelf" (issue 24): the catalogue items a person saved, and their named reading lists,
 * private or shared read-only by an unguessable link.
 */

/** Most items one person may save: far beyond a course's reading, short of a bulk copy. */
export const SAVED_ITEMS_MAX = 2000;
/** Most reading lists one person keeps. */
export const READING_LISTS_MAX = 50;
/** Most items in one reading list. */
export const READING_LIST_ITEMS_MAX = 500;
/** Longest name of a reading list, in characters. */
export const READING_LIST_NAME_MAX = 100;
/** Longest description of a reading list, in characters. */
export const READING_LIST_DESCRIPTION_MAX = 500;
/**
 * A share token's shape: base64url of 24 random bytes (192 bits) is 32 characters. Anything
 * else cannot be one, so it is answered as unknown without asking the database.
 */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{22,64}$/;

/** An item id in a body: a catalogue item's UUID. */
const itemIdField = z.uuid({ message: 'itemId must be a catalogue item id (a UUID)' });

const listName = z
  .string({ message: 'Give the list a name' })
  .trim()
  .min(1, 'Give the list a name')
  .max(READING_LIST_NAME_MAX, `A list name is at most ${READING_LIST_NAME_MAX} characters`);
const listDescription = z
  .string({ message: 'The description must be text' })
  .trim()
  .max(
    READING_LIST_DESCRIPTION_MAX,
    `A description is at most ${READING_LIST_DESCRIPTION_MAX} characters`,
  );

/** A saved item: its result card and when it was saved. */
export const savedItemSchema = catalogueItemSchema.extend({ savedAt: z.string() });
export type SavedItem = z.infer<typeof savedItemSchema>;

/** `GET /api/shelf`: the caller's saved items, newest first. */
export const savedItemsResponseSchema = z.object({ items: z.array(savedItemSchema) });
export type SavedItemsResponse = z.infer<typeof savedItemsResponseSchema>;

/** `PUT` and `DELETE /api/shelf/:itemId`: whether the item is saved now. */
export const savedStateSchema = z.object({ itemId: z.string(), saved: z.boolean() });
export type SavedState = z.infer<typeof savedStateSchema>;

/** `:itemId` of the shelf's routes (any other text is a 404, as for an item). */
export const shelfItemParamsSchema = z.object({
  itemId: z.string().describe("The catalogue item's id (a UUID); any other text is a 404."),
});

/** `:listId` of a reading list's routes. */
export const listParamsSchema = z.object({
  listId: z.string().describe("The reading list's id (a UUID); any other text is a 404."),
});

/** `:listId` and `:itemId` of an item in a reading list. */
export const listItemParamsSchema = listParamsSchema.extend({
  itemId: z.string().describe("The catalogue item's id (a UUID)."),
});

/** `:token` of a shared list. */
export const sharedListParamsSchema = z.object({
  token: z.string().describe("The list's share token, from its link; an unknown one is a 404."),
});

/** A reading list as its owner sees it in the overview. */
export const readingListSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** Shared by link: `shareToken` is the link's key. */
  shared: z.boolean(),
  shareToken: z.string().nullable(),
  itemCount: z.number().int().nonnegative(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ReadingListSummary = z.infer<typeof readingListSummarySchema>;

/** `GET /api/lists`: the caller's lists, newest first. */
export const readingListsResponseSchema = z.object({ lists: z.array(readingListSummarySchema) });
export type ReadingListsResponse = z.infer<typeof readingListsResponseSchema>;

/** One item of a list: its card and when it was added. */
export const readingListItemSchema = catalogueItemSchema.extend({ addedAt: z.string() });
export type ReadingListItem = z.infer<typeof readingListItemSchema>;

/** A reading list as its owner sees it: its items in the owner's order. */
export const readingListSchema = readingListSummarySchema.extend({
  items: z.array(readingListItemSchema),
});
export type ReadingList = z.infer<typeof readingListSchema>;

/** `POST /api/lists`. */
export const createReadingListSchema = z.object({
  name: listName,
  description: listDescription.optional(),
});
export type CreateReadingList = z.infer<typeof createReadingListSchema>;

/**
 * `PATCH /api/lists/:listId`: any of the fields. Turning `shared` on makes a new link; turning
 * it off makes the old one unknown for good.
 */
export const updateReadingListSchema = z
  .object({
    name: listName.optional(),
    description: listDescription.optional(),
    shared: z.boolean({ message: 'shared must be true or false' }).optional(),
  })
  .refine(
    (value) =>
      value.name !== undefined || value.description !== undefined || value.shared !== undefined,
    { message: 'Change at least one of name, description or shared' },
  );
export type UpdateReadingList = z.infer<typeof updateReadingListSchema>;

/** `POST /api/lists/:listId/items`: append an item. */
export const addListItemSchema = z.object({ itemId: itemIdField });

/** `PUT /api/lists/:listId/order`: every item of the list, once each, in the new order. */
export const reorderListSchema = z.object({
  itemIds: z
    .array(itemIdField, { message: 'itemIds must be a list of item ids' })
    .max(READING_LIST_ITEMS_MAX, `A list holds at most ${READING_LIST_ITEMS_MAX} items`),
});

/** `DELETE /api/lists/:listId`. */
export const deletedListSchema = z.object({ id: z.string(), deleted: z.literal(true) });

/**
 * `GET /api/shared-lists/:token`: a shared list, read-only, for anyone signed in who has its
 * link. Withdrawn items are left out; `mine` says the caller is its owner.
 */
export const sharedReadingListSchema = z.object({
  name: z.string(),
  description: z.string(),
  ownerName: z.string(),
  mine: z.boolean(),
  items: z.array(catalogueItemSchema),
});
export type SharedReadingList = z.infer<typeof sharedReadingListSchema>;
