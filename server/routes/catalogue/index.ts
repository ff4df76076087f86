import {
  getBooksResponseSchema,
  itemDetailSchema,
  itemPageQuerySchema,
  itemPageSchema,
  postBookRequestSchema,
  postBookResponseSchema,
  relatedItemsParamsSchema,
  relatedItemsSchema,
  searchQuerySchema,
  searchResponseSchema,
} from '#contract/http/catalogue.ts';
import { suggestQuerySchema, suggestResponseSchema } from '#contract/http/suggestions.ts';
import { createExternalSearch } from '../../catalogue/external.ts';
import {
  cacheCourseMaterials,
  findItem,
  NO_SUCH_ITEM,
  readItemPage,
} from '../../catalogue/items.ts';
import { summariseShelves } from '../../catalogue/copies.ts';
import { editorOf, publishCourseMaterial } from '../../catalogue/editing.ts';
import { relatedItems } from '../../catalogue/related.ts';
import { queryMeaning } from '../../catalogue/meaning.ts';
import { searchCatalogue } from '../../catalogue/search.ts';
import { suggest } from '../../catalogue/suggest.ts';
import { currentUser } from '../../auth/session.ts';
import { parseInput } from '../../http/errors.ts';
import { wakeItemEmbedding } from '../../embeddings/embed-items.ts';
import { Refusal } from '../../refusal.ts';
import {
  presentCatalogueItem,
  presentCourseMaterial,
  presentItemDetail,
  presentRelatedItem,
} from '../../presenters/catalogue.ts';
import { presentSuggestions } from '../../presenters/suggestions.ts';
import type { RouteContext } from '../context.ts';
import { recordInsight, recordSearch } from '../insights/record.ts';
import {
  declareRoute,
  uuidParams,
  signedInCaller,
  type DeclaringInstance,
} from '../declare-route.ts';

/**
 * The catalogue: search (open to guests, as the landing page's search is), item details, the
 * held text page by page (members only: guests are sent to sign in to read), the spec's course
 * materials list and the faculty publish call.
 */
export async function catalogueRoutes(
  app: DeclaringInstance,
  context: RouteContext,
): Promise<void> {
  const db = context.database.db;
  const external = createExternalSearch(context.config, app.log);
  // One memo of query embeddings for the app: a next page or a repeated search embeds nothing.
  const meaning = queryMeaning(context.embedder, app.log);
  // The course list from memory until the items change (decision 019).
  const courseMaterials = await cacheCourseMaterials(context.database);
  app.addHook('onClose', () => courseMaterials.close());

  app.get(
    '/search',
    declareRoute({
      tag: 'catalogue',
      summary: 'Search the catalogue',
      description: '400 with no query and no filter, unless `featured` is true.',
      access: 'guest',
      query: searchQuerySchema,
      response: searchResponseSchema,
    }),
    async (request, reply) => {
      const query = parseInput(searchQuerySchema, request.query);
      // Withdrawn items only for a librarian who asks (the desk's catalogue); who asks is read
      // only then, so a plain search costs no session read.
      const withdrawn =
        query.withdrawn && (await currentUser(request, reply, context))?.role === 'librarian';
      // Outside sources only for a book search by words, on its first page, under our results.
      const federated =
        !withdrawn &&
        external.enabled &&
        query.q !== '' &&
        query.page === 1 &&
        (query.type ?? 'book') === 'book';
      const [result, outside] = await Promise.all([
        searchCatalogue(db, query, {
          withdrawn,
          now: context.now(),
          ...(context.database.searchByMeaning.available ? { meaning } : {}),
        }),
        federated ? external.search(query.q) : Promise.resolve(undefined),
      ]);
      if (!withdrawn) recordSearch(context.insights, request, query, result.total);
      // Copies of the page's items the library holds (none for papers and courses), counted in
      // two statements: where to find them, and how many can be reserved. A page without any
      // sends neither.
      const shelves = await summariseShelves(
        db,
        result.rows.filter((row) => row.copies > 0).map((row) => row.id),
        context.now(),
      );
      return {
        total: result.total,
        page: query.page,
        pageSize: query.pageSize,
        items: [
          ...result.rows.map((row) => presentCatalogueItem(row, shelves.get(row.id))),
          ...(outside?.items ?? []),
        ],
        facets: { type: result.facets },
        ...(result.totalCapped ? { totalCapped: true } : {}),
        ...(result.facetsCapped ? { facetsCapped: true } : {}),
        ...(result.facetCounts ? { facetCounts: result.facetCounts } : {}),
        ...(result.suggestion ? { suggestion: result.suggestion } : {}),
        ...(result.correctedQuery ? { correctedQuery: result.correctedQuery } : {}),
        ...(result.partialMatch ? { partialMatch: true } : {}),
        ...(result.byMeaning ? { byMeaning: true } : {}),
        ...(outside && outside.notes.length > 0 ? { notes: outside.notes } : {}),
      };
    },
  );

  app.get(
    '/search/suggest',
    declareRoute({
      tag: 'catalogue',
      summary: 'As-you-type suggestions: titles and authors',
      description:
        '400 when `q` is shorter than 2 characters. Titles open their item; authors run a search by author.',
      access: 'guest',
      query: suggestQuerySchema,
      response: suggestResponseSchema,
    }),
    async (request) => {
      const { q, limit } = parseInput(suggestQuerySchema, request.query);
      return { suggestions: presentSuggestions(await suggest(db, q, limit)) };
    },
  );

  app.get(
    '/items/:id',
    declareRoute({
      tag: 'catalogue',
      summary: "An item's details",
      access: 'guest',
      params: uuidParams('item'),
      response: itemDetailSchema,
    }),
    async (request, reply) => {
      const item = await findItem(db, request.params.id, { withdrawn: true });
      // A withdrawn item is there only for librarians; who asks is read only then.
      if (item.withdrawn_at !== null) {
        const user = await currentUser(request, reply, context);
        if (user?.role !== 'librarian') {
          throw new Refusal(404, NO_SUCH_ITEM);
        }
      }
      recordInsight(context.insights, request, { kind: 'view', subject: item.id });
      const shelves = await summariseShelves(db, [item.id], context.now());
      return presentItemDetail(item, shelves.get(item.id));
    },
  );

  app.get(
    '/items/:id/related',
    declareRoute({
      tag: 'catalogue',
      summary: 'More like this: related items',
      description:
        'Up to 6 other items, none withdrawn, each with why it is listed: the same author, a ' +
        "shared subject, or (`byMeaning`) an embedding near the item's. Without search by " +
        'meaning, or before the item is embedded, only shared authors and subjects are asked. ' +
        '400 for an id that is not a UUID; 404 for an item not in the catalogue.',
      access: 'guest',
      params: relatedItemsParamsSchema,
      response: relatedItemsSchema,
    }),
    async (request, reply) => {
      const { id } = parseInput(relatedItemsParamsSchema, request.params);
      const item = await findItem(db, id, { withdrawn: true });
      // As for its details: a withdrawn item is there only for librarians.
      if (item.withdrawn_at !== null) {
        const user = await currentUser(request, reply, context);
        if (user?.role !== 'librarian') throw new Refusal(404, NO_SUCH_ITEM);
      }
      const related = await relatedItems(context.database, item, context.embedder.model);
      const shelves = await summariseShelves(
        db,
        related.rows.map((row) => row.id),
        context.now(),
      );
      return {
        items: related.rows.map((row) => presentRelatedItem(row, shelves.get(row.id))),
        byMeaning: related.byMeaning,
      };
    },
  );

  app.get(
    '/items/:id/pages',
    declareRoute({
      tag: 'catalogue',
      summary: 'One page of a held text',
      access: 'signed-in',
      params: uuidParams('item'),
      query: itemPageQuerySchema,
      response: itemPageSchema,
    }),
    async (request) => {
      const { page } = parseInput(itemPageQuerySchema, request.query);
      const { item, content } = await readItemPage(db, request.params.id, page);
      return { itemId: item.id, page, pageCount: item.page_count, content };
    },
  );

  app.get(
    '/users/get-books',
    declareRoute({
      tag: 'catalogue',
      summary: 'Course materials, newest first',
      access: 'signed-in',
      response: getBooksResponseSchema,
    }),
    async () => {
      const rows = await courseMaterials.read();
      return { payload: rows.map(presentCourseMaterial) };
    },
  );

  app.post(
    '/faculty/post-book',
    declareRoute({
      tag: 'catalogue',
      summary: 'Publish a course material',
      access: ['faculty', 'librarian'],
      body: postBookRequestSchema,
      response: postBookResponseSchema,
    }),
    async (request) => {
      const user = signedInCaller(request);
      const body = parseInput(postBookRequestSchema, request.body);
      const row = await publishCourseMaterial(db, body, editorOf(user));
      wakeItemEmbedding(context, request.log);
      return { success: true as const, payload: presentCourseMaterial(row) };
    },
  );
}
