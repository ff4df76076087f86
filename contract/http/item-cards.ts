import { z } from 'zod';
import { DATABASE_INTEGER_MAX } from '../limits.ts';
import { ROUTES } from '../routes.ts';
import { ITEM_TYPES } from './catalogue.ts';

/*
 * The library in the conversation (issue 26, decision 045): a catalogue link in a chat message
 * shows as a card with the item's live availability, and a room can be tied to one item.
 */

/** Cards shown under one message, at most. */
export const ITEM_CARDS_PER_MESSAGE = 3;
/** Items one `GET /api/items/cards` (and one `watch_items`) may name. */
export const ITEM_CARDS_MAX = 50;
/** Items one socket may watch at once (every room's cards it has shown, and the room's own). */
export const WATCHED_ITEMS_MAX = 200;

/** An item id (a UUID), in either case; no flags, so that JSON Schema's `pattern` says the same. */
export const ITEM_ID_PATTERN =
  /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const UUID = ITEM_ID_PATTERN;

/** True for text shaped like an item id. */
export const isItemId = (value: string) => UUID.test(value);

/** The address of an item's details in the library search, as the app links it. */
export function itemLink(itemId: string): string {
  return `${ROUTES.librarySearch}?item=${encodeURIComponent(itemId)}`;
}

/**
 * A relative link (`/userprofile/openlibrary?item=…`) or an absolute one (`http(s)://host/…`) to
 * an item in the library search. The host of an absolute link is checked by the caller.
 */
const LINK = /(https?:\/\/[^\s/?#<>"']+)?(\/userprofile\/openlibrary\?[^\s<>"']*)/gi;

/**
 * The ids of the catalogue items `text` links to, in order, each once, at most `max`: relative
 * links always, absolute ones only when their origin is one of `origins` (this app's), so a link
 * to another site that happens to share the path never turns into a card.
 */
export function extractItemIds(
  text: string,
  origins: readonly string[] = [],
  max = ITEM_CARDS_PER_MESSAGE,
): string[] {
  const allowed = new Set(origins.map((origin) => origin.toLowerCase()));
  const ids: string[] = [];
  for (const match of text.matchAll(LINK)) {
    const origin = match[1];
    if (origin && !allowed.has(origin.toLowerCase())) continue;
    // A sentence's full stop or closing bracket is not part of the address.
    const path = match[2]!.replace(/[).,;:!?]+$/, '');
    const query = path.slice(path.indexOf('?') + 1);
    let id: string | null;
    try {
      id = new URLSearchParams(query).get('item');
    } catch {
      continue;
    }
    if (!id || !isItemId(id)) continue;
    const lower = id.toLowerCase();
    if (!ids.includes(lower)) ids.push(lower);
    if (ids.length >= max) break;
  }
  return ids;
}

/**
 * `GET /api/items/cards?ids=a,b`: up to {@link ITEM_CARDS_MAX} item ids, comma separated (or,
 * parsed again, the list itself), lower-cased and each once.
 */
export const itemCardsQuerySchema = z.object({
  ids: z.preprocess(
    (value) =>
      typeof value === 'string'
        ? [
            ...new Set(
              value
                .split(',')
                .map((id) => id.trim().toLowerCase())
                .filter(Boolean),
            ),
          ]
        : value,
    z
      .array(z.string().regex(UUID, 'Each id must be an item id (a UUID)'), {
        message: 'ids names the items, comma separated',
      })
      .min(1, 'Name at least one item')
      .max(ITEM_CARDS_MAX, `At most ${ITEM_CARDS_MAX} items at once`),
  ),
});

/**
 * An item's availability now: copies free to reserve of those the library holds, and people
 * waiting (queued or offered a copy). `total` 0: no physical copy ("Online").
 */
export const itemAvailabilitySchema = z.object({
  itemId: z.string(),
  total: z.number().int().min(0).max(DATABASE_INTEGER_MAX),
  available: z.number().int().min(0).max(DATABASE_INTEGER_MAX),
  queue: z.number().int().min(0).max(DATABASE_INTEGER_MAX),
});
export type ItemAvailability = z.infer<typeof itemAvailabilitySchema>;

/** One card: what a message about the item shows. */
export const itemCardSchema = z.object({
  id: z.string(),
  type: z.enum(ITEM_TYPES),
  title: z.string(),
  authors: z.array(z.string()),
  coverUrl: z.string().optional(),
  availability: itemAvailabilitySchema,
});
export type ItemCard = z.infer<typeof itemCardSchema>;

/** The answer: the cards of the items found (withdrawn and unknown ones are left out). */
export const itemCardsResponseSchema = z.object({ items: z.array(itemCardSchema) });
export type ItemCardsResponse = z.infer<typeof itemCardsResponseSchema>;

/** `POST /api/items/:id/room`: the item's room, created by this call when it had none. */
export const itemRoomResponseSchema = z.object({
  roomName: z.string(),
  created: z.boolean(),
});
export type ItemRoomResponse = z.infer<typeof itemRoomResponseSchema>;

/** "2 of 3 copies free", "No copy free", or "Online" for an item without physical copies. */
export function availabilityText({ total, available }: ItemAvailability): string {
  if (total === 0) return 'Online';
  if (available === 0) return total === 1 ? 'The one copy is out' : `All ${total} copies are out`;
  return `${available} of ${total} ${total === 1 ? 'copy' : 'copies'} free`;
}

/** "3 in the queue", or '' when nobody waits. */
export function queueText({ queue }: Pick<ItemAvailability, 'queue'>): string {
  return queue > 0 ? `${queue} in the queue` : '';
}
