import {
  itemCardsQuerySchema,
  itemCardsResponseSchema,
  itemRoomResponseSchema,
} from '#contract/http/item-cards.ts';
import { itemCards } from '../../catalogue/item-cards.ts';
import { findItem } from '../../catalogue/items.ts';
import { openItemRoom } from '../../chat/item-rooms.ts';
import { listRooms } from '../../chat/store.ts';
import { parseInput } from '../../http/errors.ts';
import { presentRoom } from '../../presenters/chat.ts';
import { presentItemCard } from '../../presenters/item-cards.ts';
import type { RouteContext } from '../context.ts';
import {
  declareRoute,
  signedInCaller,
  uuidParams,
  type DeclaringInstance,
} from '../declare-route.ts';

/**
 * The library in the conversation (issue 26, decision 045): the cards a chat message's catalogue
 * links show, many items in one call, and the room tied to an item ("Discuss this book").
 */
export async function itemCardRoutes(app: DeclaringInstance, context: RouteContext): Promise<void> {
  const db = context.database.db;

  app.get(
    '/items/cards',
    declareRoute({
      tag: 'chat',
      summary: 'Cards of catalogue items linked in chat messages',
      description:
        'Up to 50 item ids, comma separated: each found item (not withdrawn) with its cover, ' +
        'title, authors and availability now (copies free of those held, and people waiting). ' +
        'Unknown items are left out. 400 for a malformed list.',
      access: 'signed-in',
      query: itemCardsQuerySchema,
      response: itemCardsResponseSchema,
    }),
    async (request) => {
      const { ids } = parseInput(itemCardsQuerySchema, request.query);
      const rows = await itemCards(db, ids, context.now());
      return { items: rows.map(presentItemCard) };
    },
  );

  app.post(
    '/items/:id/room',
    declareRoute({
      tag: 'chat',
      summary: "Open an item's discussion room, creating it when there is none",
      description:
        'Answers the name of the room tied to the item; the first call creates it, named after ' +
        'the title ("Title (2)" when that name is taken), with a description linking the item. ' +
        'Two calls at once get the one room. 404 for an item not in the catalogue.',
      access: 'signed-in',
      params: uuidParams('item'),
      response: itemRoomResponseSchema,
      verifiedEmail: true,
      errors: { 404: 'No such item in the catalogue.' },
    }),
    async (request) => {
      const user = signedInCaller(request);
      const item = await findItem(db, request.params.id);
      const { room, created } = await openItemRoom(db, item, {
        id: user.id,
        name: user.chat_username ?? user.first_name,
      });
      if (created) {
        request.server.io.emit(
          'available_rooms',
          (await listRooms(db, context.now())).map(presentRoom),
        );
      }
      return { roomName: room.name, created };
    },
  );
}
