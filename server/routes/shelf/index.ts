import {
  addListItemSchema,
  createReadingListSchema,
  deletedListSchema,
  listItemParamsSchema,
  listParamsSchema,
  READING_LIST_ITEMS_MAX,
  READING_LISTS_MAX,
  readingListSchema,
  readingListsResponseSchema,
  reorderListSchema,
  SAVED_ITEMS_MAX,
  savedItemsResponseSchema,
  savedStateSchema,
  sharedListParamsSchema,
  sharedReadingListSchema,
  shelfItemParamsSchema,
  updateReadingListSchema,
} from '#contract/http/shelf.ts';
import { summariseShelves } from '../../catalogue/copies.ts';
import { parseInput } from '../../http/errors.ts';
import {
  presentReadingList,
  presentReadingListSummary,
  presentSavedItem,
  presentSharedList,
} from '../../presenters/shelf.ts';
import {
  addListItem,
  createReadingList,
  deleteReadingList,
  listReadingLists,
  listSavedItems,
  readingList,
  removeListItem,
  reorderList,
  saveItem,
  sharedList,
  unsaveItem,
  updateReadingList,
  type ReadingListWithItems,
} from '../../shelf/store.ts';
import type { RouteContext } from '../context.ts';
import { declareRoute, signedInCaller, type DeclaringInstance } from '../declare-route.ts';

const NOT_YOURS = 'No such list, or not yours: the same answer, so list ids cannot be probed.';

/**
 * My shelf (issue 24): one's saved items, one's reading lists (named, ordered by hand, private
 * or shared read-only by link), and a shared list as anyone signed in with its link reads it.
 * Someone else's list is a 404 exactly like a missing one, for librarians too.
 */
export async function shelfRoutes(app: DeclaringInstance, context: RouteContext): Promise<void> {
  const db = context.database.db;

  /** A list as its owner sees it, with the copies of its items. */
  const ownerView = async (list: ReadingListWithItems) =>
    presentReadingList(
      list,
      await summariseShelves(
        db,
        list.items.map((item) => item.id),
        context.now(),
      ),
    );

  app.get(
    '/shelf',
    declareRoute({
      tag: 'shelf',
      summary: "The caller's saved items, newest first",
      description: `As search result cards, with \`savedAt\`; withdrawn ones marked, so they can be removed. At most ${SAVED_ITEMS_MAX}.`,
      access: 'signed-in',
      response: savedItemsResponseSchema,
    }),
    async (request) => {
      const caller = signedInCaller(request);
      const rows = await listSavedItems(db, caller.id);
      const shelves = await summariseShelves(
        db,
        rows.map((row) => row.id),
        context.now(),
      );
      return { items: rows.map((row) => presentSavedItem(row, shelves)) };
    },
  );

  app.put(
    '/shelf/:itemId',
    declareRoute({
      tag: 'shelf',
      summary: 'Save an item to my shelf',
      description: 'Saving it again changes nothing. 404 for an item not in the catalogue.',
      access: 'signed-in',
      params: shelfItemParamsSchema,
      response: savedStateSchema,
      errors: { 404: 'No such item.', 409: `The shelf holds ${SAVED_ITEMS_MAX} items already.` },
    }),
    async (request) => {
      const caller = signedInCaller(request);
      const { itemId } = parseInput(shelfItemParamsSchema, request.params);
      await saveItem(db, caller.id, itemId, context.now());
      return { itemId, saved: true };
    },
  );

  app.delete(
    '/shelf/:itemId',
    declareRoute({
      tag: 'shelf',
      summary: 'Take an item off my shelf',
      description: 'An item not on it changes nothing. Its places in reading lists stay.',
      access: 'signed-in',
      params: shelfItemParamsSchema,
      response: savedStateSchema,
    }),
    async (request) => {
      const caller = signedInCaller(request);
      const { itemId } = parseInput(shelfItemParamsSchema, request.params);
      await unsaveItem(db, caller.id, itemId);
      return { itemId, saved: false };
    },
  );

  app.get(
    '/lists',
    declareRoute({
      tag: 'shelf',
      summary: "The caller's reading lists, newest first, with item counts",
      access: 'signed-in',
      response: readingListsResponseSchema,
    }),
    async (request) => {
      const caller = signedInCaller(request);
      return {
        lists: (await listReadingLists(db, caller.id)).map(presentReadingListSummary),
      };
    },
  );

  app.post(
    '/lists',
    declareRoute({
      tag: 'shelf',
      summary: 'Make a reading list',
      description: `Private and empty; at most ${READING_LISTS_MAX} per person.`,
      access: 'signed-in',
      body: createReadingListSchema,
      response: readingListSchema,
      created: true,
      errors: { 409: `${READING_LISTS_MAX} lists already.` },
    }),
    async (request, reply) => {
      const caller = signedInCaller(request);
      const fields = parseInput(createReadingListSchema, request.body);
      const list = await createReadingList(db, caller.id, fields, context.now());
      reply.code(201);
      return ownerView(list);
    },
  );

  app.get(
    '/lists/:listId',
    declareRoute({
      tag: 'shelf',
      summary: 'One of my reading lists, its items in order',
      access: 'signed-in',
      params: listParamsSchema,
      response: readingListSchema,
      errors: { 404: NOT_YOURS },
    }),
    async (request) => {
      const caller = signedInCaller(request);
      const { listId } = parseInput(listParamsSchema, request.params);
      return ownerView(await readingList(db, caller.id, listId));
    },
  );

  app.patch(
    '/lists/:listId',
    declareRoute({
      tag: 'shelf',
      summary: 'Rename, describe, share or unshare one of my reading lists',
      description:
        '`shared: true` makes a new unguessable link (`shareToken`); `shared: false` forgets it, so the old link never works again.',
      access: 'signed-in',
      params: listParamsSchema,
      body: updateReadingListSchema,
      response: readingListSchema,
      errors: { 404: NOT_YOURS },
    }),
    async (request) => {
      const caller = signedInCaller(request);
      const { listId } = parseInput(listParamsSchema, request.params);
      const patch = parseInput(updateReadingListSchema, request.body);
      return ownerView(await updateReadingList(db, caller.id, listId, patch, context.now()));
    },
  );

  app.delete(
    '/lists/:listId',
    declareRoute({
      tag: 'shelf',
      summary: 'Delete one of my reading lists',
      description: 'The items stay in the catalogue and on the shelf; a shared link stops working.',
      access: 'signed-in',
      params: listParamsSchema,
      response: deletedListSchema,
      errors: { 404: NOT_YOURS },
    }),
    async (request) => {
      const caller = signedInCaller(request);
      const { listId } = parseInput(listParamsSchema, request.params);
      await deleteReadingList(db, caller.id, listId);
      return { id: listId, deleted: true as const };
    },
  );

  app.post(
    '/lists/:listId/items',
    declareRoute({
      tag: 'shelf',
      summary: 'Add an item to the end of one of my reading lists',
      access: 'signed-in',
      params: listParamsSchema,
      body: addListItemSchema,
      response: readingListSchema,
      errors: {
        404: `${NOT_YOURS} Or no such item.`,
        409: `Already in the list, or the list holds ${READING_LIST_ITEMS_MAX} items.`,
      },
    }),
    async (request) => {
      const caller = signedInCaller(request);
      const { listId } = parseInput(listParamsSchema, request.params);
      const { itemId } = parseInput(addListItemSchema, request.body);
      return ownerView(await addListItem(db, caller.id, listId, itemId, context.now()));
    },
  );

  app.delete(
    '/lists/:listId/items/:itemId',
    declareRoute({
      tag: 'shelf',
      summary: 'Take an item out of one of my reading lists',
      access: 'signed-in',
      params: listItemParamsSchema,
      response: readingListSchema,
      errors: { 404: `${NOT_YOURS} Or the item is not in it.` },
    }),
    async (request) => {
      const caller = signedInCaller(request);
      const { listId, itemId } = parseInput(listItemParamsSchema, request.params);
      return ownerView(await removeListItem(db, caller.id, listId, itemId, context.now()));
    },
  );

  app.put(
    '/lists/:listId/order',
    declareRoute({
      tag: 'shelf',
      summary: 'Put one of my reading lists in a new order',
      description: '`itemIds` must name every item of the list exactly once (422 otherwise).',
      access: 'signed-in',
      params: listParamsSchema,
      body: reorderListSchema,
      response: readingListSchema,
      errors: { 404: NOT_YOURS, 422: 'Not exactly the items of the list.' },
    }),
    async (request) => {
      const caller = signedInCaller(request);
      const { listId } = parseInput(listParamsSchema, request.params);
      const { itemIds } = parseInput(reorderListSchema, request.body);
      return ownerView(await reorderList(db, caller.id, listId, itemIds, context.now()));
    },
  );

  app.get(
    '/shared-lists/:token',
    declareRoute({
      tag: 'shelf',
      summary: 'A reading list shared by link, read-only',
      description:
        "Its name, description, owner's name and items in order, withdrawn ones left out. 404 for a link that is unknown or no longer shared.",
      access: 'signed-in',
      params: sharedListParamsSchema,
      response: sharedReadingListSchema,
      errors: { 404: 'Unknown or unshared link.' },
    }),
    async (request, reply) => {
      const caller = signedInCaller(request);
      const { token } = parseInput(sharedListParamsSchema, request.params);
      const view = await sharedList(db, token);
      // The token is the key: no shared cache may keep the answer.
      reply.header('cache-control', 'no-store');
      const shelves = await summariseShelves(
        db,
        view.items.map((item) => item.id),
        context.now(),
      );
      return presentSharedList(view, shelves, caller.id);
    },
  );
}
