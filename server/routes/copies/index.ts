import {
  copyCreateSchema,
  copyParamsSchema,
  copySchema,
  copyUpdateSchema,
  itemCopiesResponseSchema,
} from '#contract/http/copies.ts';
import { addCopy, listCopies, summariseCopies, updateCopy } from '../../catalogue/copies.ts';
import { editorOf } from '../../catalogue/editing.ts';
import { findItem } from '../../catalogue/items.ts';
import { parseInput } from '../../http/errors.ts';
import { wakeNotices } from '../../notices/job.ts';
import { presentCopy } from '../../presenters/copies.ts';
import type { RouteContext } from '../context.ts';
import {
  declareRoute,
  signedInCaller,
  uuidParams,
  type DeclaringInstance,
} from '../declare-route.ts';

/**
 * Physical copies (issue 20): anyone signed in sees how many copies of an item there are, where,
 * and how many can be reserved; librarians see each copy with its barcode, add copies (a scanner
 * types the barcode) and change them. Barcodes of copies are never shown to anyone else.
 */
export async function copyRoutes(app: DeclaringInstance, context: RouteContext): Promise<void> {
  const db = context.database.db;

  app.get(
    '/items/:id/copies',
    declareRoute({
      tag: 'copies',
      summary: "An item's copies: counts and places; each copy for librarians",
      access: 'signed-in',
      params: uuidParams('item'),
      response: itemCopiesResponseSchema,
    }),
    async (request) => {
      const caller = signedInCaller(request);
      const item = await findItem(db, request.params.id, {
        withdrawn: caller.role === 'librarian',
      });
      const summary = await summariseCopies(db, item.id, context.now());
      const copies =
        caller.role === 'librarian' ? (await listCopies(db, item.id)).map(presentCopy) : undefined;
      return { itemId: item.id, ...summary, ...(copies ? { copies } : {}) };
    },
  );

  app.post(
    '/items/:id/copies',
    declareRoute({
      tag: 'copies',
      summary: 'Add a copy of an item',
      access: ['librarian'],
      params: uuidParams('item'),
      body: copyCreateSchema,
      response: copySchema,
      created: true,
      errors: { 409: 'Another copy already has that barcode.' },
    }),
    async (request, reply) => {
      const caller = signedInCaller(request);
      const copy = parseInput(copyCreateSchema, request.body);
      const row = await addCopy(db, request.params.id, copy, editorOf(caller), context.now());
      wakeNotices(context.jobs, request.log);
      reply.code(201);
      return presentCopy(row);
    },
  );

  app.patch(
    '/copies/:barcode',
    declareRoute({
      tag: 'copies',
      summary: "Change a copy's barcode, location, status or note",
      access: ['librarian'],
      params: copyParamsSchema,
      body: copyUpdateSchema,
      response: copySchema,
      errors: { 409: 'Another copy already has the new barcode.' },
    }),
    async (request) => {
      const caller = signedInCaller(request);
      const patch = parseInput(copyUpdateSchema, request.body);
      const row = await updateCopy(
        db,
        request.params.barcode,
        patch,
        editorOf(caller),
        context.now(),
      );
      wakeNotices(context.jobs, request.log);
      return presentCopy(row);
    },
  );
}
