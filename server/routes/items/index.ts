import {
  itemCreateSchema,
  itemHistoryResponseSchema,
  itemUpdateSchema,
  managedItemSchema,
  myItemsResponseSchema,
} from '#contract/http/items.ts';
import {
  createItem,
  editItem,
  editorOf,
  itemHistory,
  itemsPublishedBy,
  NOT_YOUR_MATERIAL,
  setWithdrawn,
} from '../../catalogue/editing.ts';
import { wakeItemEmbedding } from '../../embeddings/embed-items.ts';
import { parseInput } from '../../http/errors.ts';
import { presentItemChange, presentManagedItem } from '../../presenters/catalogue.ts';
import type { RouteContext } from '../context.ts';
import {
  declareRoute,
  signedInCaller,
  uuidParams,
  type DeclaringInstance,
} from '../declare-route.ts';

/**
 * Librarians maintain the catalogue (issue 20): add an item, edit it, withdraw it (hidden from
 * everyone else; its reservations stay readable) and restore it, and read its history, where
 * every change is recorded with who made it and when. Faculty edit, unpublish (withdraw) and
 * publish again the course materials they published; the domain refuses them anything else.
 */
export async function itemRoutes(app: DeclaringInstance, context: RouteContext): Promise<void> {
  const db = context.database.db;

  app.post(
    '/items',
    declareRoute({
      tag: 'items',
      summary: 'Add an item to the catalogue',
      access: ['librarian'],
      body: itemCreateSchema,
      response: managedItemSchema,
      created: true,
      errors: { 409: 'Another item already has that ISBN.' },
    }),
    async (request, reply) => {
      const caller = signedInCaller(request);
      const fields = parseInput(itemCreateSchema, request.body);
      const row = await createItem(db, fields, editorOf(caller));
      wakeItemEmbedding(context, request.log);
      reply.code(201);
      return presentManagedItem(row);
    },
  );

  app.get(
    '/items/mine',
    declareRoute({
      tag: 'items',
      summary: 'The course materials you published, newest first',
      description: 'Unpublished (withdrawn) ones too, with `withdrawnAt`.',
      access: ['faculty', 'librarian'],
      response: myItemsResponseSchema,
    }),
    async (request) => {
      const caller = signedInCaller(request);
      return { items: (await itemsPublishedBy(db, editorOf(caller))).map(presentManagedItem) };
    },
  );

  app.patch(
    '/items/:id',
    declareRoute({
      tag: 'items',
      summary: "Change an item's fields",
      description:
        'Any of the fields; a blank optional field clears it. Withdrawn items too. Faculty change only the course materials they published, and not their type.',
      access: ['faculty', 'librarian'],
      params: uuidParams('item'),
      body: itemUpdateSchema,
      response: managedItemSchema,
      errors: { 403: NOT_YOUR_MATERIAL, 409: 'Another item already has that ISBN.' },
    }),
    async (request) => {
      const caller = signedInCaller(request);
      const fields = parseInput(itemUpdateSchema, request.body);
      const row = await editItem(db, request.params.id, fields, editorOf(caller));
      // An edit that changed nothing leaves the job nothing to do: it ends at its first read.
      wakeItemEmbedding(context, request.log);
      return presentManagedItem(row);
    },
  );

  app.delete(
    '/items/:id',
    declareRoute({
      tag: 'items',
      summary: 'Withdraw an item',
      description:
        'Hidden from everyone but librarians until restored; its reservations stay readable. Withdrawing it again changes nothing. Faculty unpublish only the course materials they published.',
      access: ['faculty', 'librarian'],
      params: uuidParams('item'),
      response: managedItemSchema,
      errors: { 403: NOT_YOUR_MATERIAL },
    }),
    async (request) => {
      const caller = signedInCaller(request);
      return presentManagedItem(await setWithdrawn(db, request.params.id, true, editorOf(caller)));
    },
  );

  app.post(
    '/items/:id/restore',
    declareRoute({
      tag: 'items',
      summary: 'Restore a withdrawn item',
      description: 'Faculty publish again only the course materials they published.',
      access: ['faculty', 'librarian'],
      params: uuidParams('item'),
      response: managedItemSchema,
      errors: { 403: NOT_YOUR_MATERIAL },
    }),
    async (request) => {
      const caller = signedInCaller(request);
      return presentManagedItem(await setWithdrawn(db, request.params.id, false, editorOf(caller)));
    },
  );

  app.get(
    '/items/:id/history',
    declareRoute({
      tag: 'items',
      summary: "An item's recorded changes, newest first",
      access: ['librarian'],
      params: uuidParams('item'),
      response: itemHistoryResponseSchema,
    }),
    async (request) => ({
      changes: (await itemHistory(db, request.params.id)).map(presentItemChange),
    }),
  );
}
