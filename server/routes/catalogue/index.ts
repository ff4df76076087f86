import type { FastifyInstance } from 'fastify';
import {
  itemPageQuerySchema,
  postBookRequestSchema,
  searchQuerySchema,
} from '../../../contract/http/catalogue.ts';
import { requireUser } from '../../auth/session.ts';
import { createExternalSearch } from '../../catalogue/external.ts';
import { searchCatalogue } from '../../catalogue/search.ts';
import { refreshSearchWords } from '../../catalogue/words.ts';
import { isUuid } from '../../db/ids.ts';
import { parseInput } from '../../http/errors.ts';
import { Refusal } from '../../refusal.ts';
import {
  COURSE_MATERIAL_COLUMNS,
  presentCatalogueItem,
  presentCourseMaterial,
  presentItemDetail,
} from '../../presenters/catalogue.ts';
import type { RouteContext } from '../context.ts';

/** How many course materials `users/get-books` lists. */
export const COURSE_MATERIALS_LIMIT = 200;

/**
 * The catalogue: search (open to guests, as the landing page's search is), item details, the
 * held text page by page (members only: guests are sent to sign in to read), the spec's course
 * materials list and the faculty publish call.
 */
export async function catalogueRoutes(app: FastifyInstance, context: RouteContext): Promise<void> {
  const db = context.database.db;
  const external = createExternalSearch(context.config, app.log);

  app.get('/search', async (request) => {
    const query = parseInput(searchQuerySchema, request.query);
    // Outside sources only for a book search by words, on its first page, under our results.
    const federated =
      external.enabled && query.q !== '' && query.page === 1 && (query.type ?? 'book') === 'book';
    const [result, outside] = await Promise.all([
      searchCatalogue(db, query),
      federated ? external.search(query.q) : Promise.resolve(undefined),
    ]);
    return {
      total: result.total,
      page: query.page,
      pageSize: query.pageSize,
      items: [...result.rows.map(presentCatalogueItem), ...(outside?.items ?? [])],
      facets: { type: result.facets },
      ...(result.totalCapped ? { totalCapped: true } : {}),
      ...(result.facetsCapped ? { facetsCapped: true } : {}),
      ...(result.suggestion ? { suggestion: result.suggestion } : {}),
      ...(outside && outside.notes.length > 0 ? { notes: outside.notes } : {}),
    };
  });

  const findItem = async (id: string) => {
    const row = isUuid(id)
      ? await db.selectFrom('items').selectAll().where('id', '=', id).executeTakeFirst()
      : undefined;
    if (!row) throw new Refusal(404, 'There is no such item in the catalogue.');
    return row;
  };

  app.get<{ Params: { id: string } }>('/items/:id', async (request) =>
    presentItemDetail(await findItem(request.params.id)),
  );

  app.get<{ Params: { id: string } }>('/items/:id/pages', async (request, reply) => {
    await requireUser(request, reply, context);
    const { page } = parseInput(itemPageQuerySchema, request.query);
    const item = await findItem(request.params.id);
    if (item.page_count === 0) throw new Refusal(404, 'No content available for this book.');
    if (page > item.page_count) throw new Refusal(404, `This book has ${item.page_count} pages.`);
    const row = await db
      .selectFrom('item_pages')
      .select('content')
      .where('item_id', '=', item.id)
      .where('page_number', '=', page)
      .executeTakeFirst();
    if (!row) throw new Refusal(404, 'No content available for this book.');
    return { itemId: item.id, page, pageCount: item.page_count, content: row.content };
  });

  app.get('/users/get-books', async (request, reply) => {
    await requireUser(request, reply, context);
    // Only what the answer shows: every column (the search vector, descriptions) cost PGlite
    // twice the time to read and hand over.
    const rows = await db
      .selectFrom('items')
      .select(COURSE_MATERIAL_COLUMNS)
      .where('kind', '=', 'course')
      .orderBy('created_at', 'desc')
      .orderBy('published_date', 'desc')
      .orderBy('title')
      .limit(COURSE_MATERIALS_LIMIT)
      .execute();
    return { payload: rows.map(presentCourseMaterial) };
  });

  app.post('/faculty/post-book', async (request, reply) => {
    const user = await requireUser(request, reply, context, ['faculty', 'librarian']);
    const body = parseInput(postBookRequestSchema, request.body);
    const row = await db
      .insertInto('items')
      .values({
        kind: 'course',
        title: body.title,
        authors: [body.author],
        year: Number(body.publishedDate.slice(0, 4)),
        subjects: [body.genre],
        genre: body.genre,
        institution: body.instituteName,
        published_date: body.publishedDate,
        drive_link: body.driveLink,
        source: 'faculty',
        source_id: crypto.randomUUID(),
        created_by: user.id,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await refreshSearchWords(db, row.id);
    return { success: true, payload: presentCourseMaterial(row) };
  });
}
