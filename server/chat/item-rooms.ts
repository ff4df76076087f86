import type { Kysely, Selectable } from 'kysely';
import { itemLink } from '#contract/http/item-cards.ts';
import { hasInvisibleCharacters, normaliseName } from '#contract/names.ts';
import { ROOM_DESCRIPTION_MAX, ROOM_NAME_MAX } from '#contract/socket/chat.ts';
import type { Database, ItemsTable } from '../db/schema.ts';
import { Refusal } from '../refusal.ts';
import { createRoom, type RoomRow } from './store.ts';

/** Names tried for an item's room before giving up: the title, then "Title (2)" and on. */
const NAME_ATTEMPTS = 20;

/** The room tied to `itemId`, if it has one. */
export async function findItemRoom(
  db: Kysely<Database>,
  itemId: string,
): Promise<RoomRow | undefined> {
  return db.selectFrom('chat_rooms').selectAll().where('item_id', '=', itemId).executeTakeFirst();
}

/**
 * A room name made from a title: as names are stored (NFKC, single spaces), without characters a
 * room name may not hold, cut to fit `ROOM_NAME_MAX` with `suffix`.
 */
export function roomNameFor(title: string, suffix = ''): string {
  const clean = [...normaliseName(title)]
    .filter((char) => !/\p{Cc}/u.test(char) && !hasInvisibleCharacters(char))
    .join('');
  const base = clean === '' || clean === '.' || clean === '..' ? 'Book discussion' : clean;
  const cut = [...base].slice(0, ROOM_NAME_MAX - suffix.length).join('');
  return `${cut.trim()}${suffix}`;
}

/** What the room says about itself: which item it discusses, with its link. */
export function itemRoomDescription(item: Pick<Selectable<ItemsTable>, 'id' | 'title'>): string {
  const link = itemLink(item.id);
  const what = `Discussing "${item.title}": `;
  const room = ROOM_DESCRIPTION_MAX - link.length;
  return `${what.length <= room ? what : `${[...what].slice(0, room - 4).join('')}…": `}${link}`;
}

/**
 * The room tied to `item`, created for `creator` when it has none (decision 045): named after the
 * title, or "Title (2)" and on when a room of that name (or one that looks the same) exists. Two
 * people asking at once get the one room: the unique index on `item_id` lets one insert win, and
 * the other finds it.
 */
export async function openItemRoom(
  db: Kysely<Database>,
  item: Pick<Selectable<ItemsTable>, 'id' | 'title'>,
  creator: { id: string; name: string },
): Promise<{ room: RoomRow; created: boolean }> {
  const existing = await findItemRoom(db, item.id);
  if (existing) return { room: existing, created: false };
  const description = itemRoomDescription(item);
  for (let attempt = 1; attempt <= NAME_ATTEMPTS; attempt += 1) {
    const name = roomNameFor(item.title, attempt === 1 ? '' : ` (${attempt})`);
    const inserted = await createRoom(db, {
      name,
      description,
      creatorId: creator.id,
      creatorName: creator.name,
      itemId: item.id,
    });
    if (inserted) return { room: inserted, created: true };
    // Nothing inserted: another person's request made the item's room, or the name is taken.
    const made = await findItemRoom(db, item.id);
    if (made) return { room: made, created: false };
  }
  throw new Refusal(409, 'Rooms of this name already exist. Please create one with another name.');
}
