import {
  bookContentsSchema,
  bookmarkParamsSchema,
  bookmarkSchema,
  citationQuerySchema,
  highlightCreateSchema,
  highlightParamsSchema,
  highlightSchema,
  highlightUpdateSchema,
  progressSchema,
  progressUpdateSchema,
  readingDeletedSchema,
  readingItemParamsSchema,
  readingPreferencesSchema,
  readingPreferencesUpdateSchema,
  readingStateSchema,
  recentReadingSchema,
  searchInsideQuerySchema,
  searchInsideResponseSchema,
} from '#contract/http/reading.ts';
import { summariseShelves } from '../../catalogue/copies.ts';
import { parseInput } from '../../http/errors.ts';
import {
  presentBookmark,
  presentHighlight,
  presentProgress,
  presentReadingState,
  presentRecentReading,
} from '../../presenters/reading.ts';
import { bookContents, searchInside } from '../../reading/book-text.ts';
import { bibtexEntry, fileNameOf, risEntry } from '../../reading/citation.ts';
import { notesMarkdown } from '../../reading/notes-markdown.ts';
import {
  addBookmark,
  addHighlight,
  readableItem,
  readingNotes,
  readingPreferences,
  readingState,
  recentReading,
  removeBookmark,
  removeHighlight,
  saveProgress,
  setReadingPreferences,
  updateHighlightNote,
} from '../../reading/store.ts';
import type { RouteContext } from '../context.ts';
import { declareRoute, signedInCaller, type DeclaringInstance } from '../declare-route.ts';

const ITEM_404 = 'No such item in the catalogue (or withdrawn).';
const PAGE_422 = 'The book has no such page.';
const HIGHLIGHT_404 = 'No such highlight of the caller (anyone else’s is the same 404).';

/**
 * Reading a held text (issue 24): its contents and search inside it, and the caller's own
 * reading of it (last page, bookmarks, highlights with notes, display preferences, exports).
 * Members only, as the pages are; everything kept is the caller's alone.
 */
export async function readingRoutes(app: DeclaringInstance, context: RouteContext): Promise<void> {
  const db = context.database.db;

  app.get(
    '/items/:id/contents',
    declareRoute({
      tag: 'reading',
      summary: "A held text's contents: its heading lines, with their pages",
      description: 'In page order; empty for a text without `#` headings (and for no text).',
      access: 'signed-in',
      params: readingItemParamsSchema,
      response: bookContentsSchema,
      errors: { 404: ITEM_404 },
    }),
    async (request) => {
      const { id } = parseInput(readingItemParamsSchema, request.params);
      return bookContents(db, id);
    },
  );

  app.get(
    '/items/:id/search-inside',
    declareRoute({
      tag: 'reading',
      summary: 'Search inside a held text',
      description:
        "The pages holding every word (the catalogue's English stemming; quotes for a phrase, " +
        '`-word` for without), in page order, with a snippet of plain text each and the forms ' +
        'of the words found. A query of only very common words ("the", "of") finds nothing: a ' +
        '200 with `total` 0.',
      access: 'signed-in',
      params: readingItemParamsSchema,
      query: searchInsideQuerySchema,
      response: searchInsideResponseSchema,
      errors: { 404: ITEM_404 },
    }),
    async (request) => {
      const { id } = parseInput(readingItemParamsSchema, request.params);
      const { q } = parseInput(searchInsideQuerySchema, request.query);
      return { query: q, ...(await searchInside(db, id, q)) };
    },
  );

  app.get(
    '/items/:id/reading',
    declareRoute({
      tag: 'reading',
      summary: "The caller's reading of a book: last page, bookmarks, highlights",
      access: 'signed-in',
      params: readingItemParamsSchema,
      response: readingStateSchema,
      errors: { 404: ITEM_404 },
    }),
    async (request) => {
      const user = signedInCaller(request);
      const { id } = parseInput(readingItemParamsSchema, request.params);
      return presentReadingState(await readingState(db, user.id, id));
    },
  );

  app.put(
    '/items/:id/progress',
    declareRoute({
      tag: 'reading',
      summary: 'Keep the page the caller is on, to resume there on any device',
      access: 'signed-in',
      params: readingItemParamsSchema,
      body: progressUpdateSchema,
      response: progressSchema,
      errors: { 404: ITEM_404, 422: PAGE_422 },
    }),
    async (request) => {
      const user = signedInCaller(request);
      const { id } = parseInput(readingItemParamsSchema, request.params);
      const { page } = parseInput(progressUpdateSchema, request.body);
      return presentProgress(await saveProgress(db, user.id, id, page, context.now()));
    },
  );

  app.put(
    '/items/:id/bookmarks/:page',
    declareRoute({
      tag: 'reading',
      summary: 'Bookmark a page',
      description: 'Bookmarking a page again changes nothing.',
      access: 'signed-in',
      params: bookmarkParamsSchema,
      response: bookmarkSchema,
      errors: { 404: ITEM_404, 422: PAGE_422 },
    }),
    async (request) => {
      const user = signedInCaller(request);
      const { id, page } = parseInput(bookmarkParamsSchema, request.params);
      return presentBookmark(await addBookmark(db, user.id, id, page, context.now()));
    },
  );

  app.delete(
    '/items/:id/bookmarks/:page',
    declareRoute({
      tag: 'reading',
      summary: 'Remove a bookmark',
      access: 'signed-in',
      params: bookmarkParamsSchema,
      response: readingDeletedSchema,
      errors: { 404: `${ITEM_404} Or no bookmark on that page.` },
    }),
    async (request) => {
      const user = signedInCaller(request);
      const { id, page } = parseInput(bookmarkParamsSchema, request.params);
      await removeBookmark(db, user.id, id, page);
      return { success: true as const };
    },
  );

  app.post(
    '/items/:id/highlights',
    declareRoute({
      tag: 'reading',
      summary: 'Highlight a passage of a page, with a note',
      description:
        "`quote` must be the page's plain text (`pagePlainText`) from `start` to `end`; 422 " +
        `when it is not (the page changed, or the selection was not on it).`,
      access: 'signed-in',
      params: readingItemParamsSchema,
      body: highlightCreateSchema,
      response: highlightSchema,
      created: true,
      errors: {
        404: ITEM_404,
        409: 'The caller already keeps the most highlights one book may have.',
        422: `${PAGE_422} Or the quote is not the page's text there.`,
      },
    }),
    async (request, reply) => {
      const user = signedInCaller(request);
      const { id } = parseInput(readingItemParamsSchema, request.params);
      const body = parseInput(highlightCreateSchema, request.body);
      const row = await addHighlight(db, user.id, id, body, context.now());
      reply.code(201);
      return presentHighlight(row);
    },
  );

  app.patch(
    '/highlights/:highlightId',
    declareRoute({
      tag: 'reading',
      summary: "Change a highlight's note",
      access: 'signed-in',
      params: highlightParamsSchema,
      body: highlightUpdateSchema,
      response: highlightSchema,
      errors: { 404: HIGHLIGHT_404 },
    }),
    async (request) => {
      const user = signedInCaller(request);
      const { highlightId } = parseInput(highlightParamsSchema, request.params);
      const { note } = parseInput(highlightUpdateSchema, request.body);
      return presentHighlight(
        await updateHighlightNote(db, user.id, highlightId, note, context.now()),
      );
    },
  );

  app.delete(
    '/highlights/:highlightId',
    declareRoute({
      tag: 'reading',
      summary: 'Delete a highlight and its note',
      access: 'signed-in',
      params: highlightParamsSchema,
      response: readingDeletedSchema,
      errors: { 404: HIGHLIGHT_404 },
    }),
    async (request) => {
      const user = signedInCaller(request);
      const { highlightId } = parseInput(highlightParamsSchema, request.params);
      await removeHighlight(db, user.id, highlightId);
      return { success: true as const };
    },
  );

  app.get(
    '/items/:id/notes.md',
    declareRoute({
      tag: 'reading',
      summary: "The caller's bookmarks and highlights in a book, as Markdown",
      access: 'signed-in',
      params: readingItemParamsSchema,
      download: {
        contentType: 'text/markdown',
        description:
          'A heading with the title, a reference line, then page by page each bookmark and ' +
          'each highlight as a `> quote` with its page, its note below.',
      },
      errors: { 404: ITEM_404 },
    }),
    async (request, reply) => {
      const user = signedInCaller(request);
      const { id } = parseInput(readingItemParamsSchema, request.params);
      const { item, bookmarks, highlights } = await readingNotes(db, user.id, id);
      const body = notesMarkdown({
        item,
        bookmarks,
        highlights,
        libraryName: context.config.library.name,
      });
      return reply
        .type('text/markdown; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="${fileNameOf(item.title, 'notes')}-notes.md"`,
        )
        .send(body);
    },
  );

  app.get(
    '/items/:id/citation',
    declareRoute({
      tag: 'reading',
      summary: 'An item as a BibTeX or RIS entry, for Zotero and similar tools',
      description:
        '`format=bibtex` (the default) answers `application/x-bibtex`, `format=ris` ' +
        '`application/x-research-info-systems`: a book, a paper (with its arXiv eprint) or a ' +
        'course material.',
      access: 'signed-in',
      params: readingItemParamsSchema,
      query: citationQuerySchema,
      download: {
        contentType: 'application/x-bibtex',
        description: 'One entry (or, with `format=ris`, one RIS record) for the item.',
      },
      errors: { 404: ITEM_404 },
    }),
    async (request, reply) => {
      const { id } = parseInput(readingItemParamsSchema, request.params);
      const { format } = parseInput(citationQuerySchema, request.query);
      const item = await readableItem(db, id);
      const bibtex = format === 'bibtex';
      return reply
        .type(
          `${bibtex ? 'application/x-bibtex' : 'application/x-research-info-systems'}; charset=utf-8`,
        )
        .header(
          'content-disposition',
          `attachment; filename="${fileNameOf(item.title)}.${bibtex ? 'bib' : 'ris'}"`,
        )
        .send(bibtex ? bibtexEntry(item) : risEntry(item));
    },
  );

  app.get(
    '/reading/preferences',
    declareRoute({
      tag: 'reading',
      summary: "The caller's page display: theme, text size, line width",
      description: 'The defaults for what they have not chosen.',
      access: 'signed-in',
      response: readingPreferencesSchema,
    }),
    async (request) => readingPreferences(db, signedInCaller(request).id),
  );

  app.put(
    '/reading/preferences',
    declareRoute({
      tag: 'reading',
      summary: "Change some of the caller's page display",
      description: 'Fields left out stay as they are. Answers all three.',
      access: 'signed-in',
      body: readingPreferencesUpdateSchema,
      response: readingPreferencesSchema,
    }),
    async (request) => {
      const user = signedInCaller(request);
      const change = parseInput(readingPreferencesUpdateSchema, request.body);
      return setReadingPreferences(db, user.id, change, context.now());
    },
  );

  app.get(
    '/reading/recent',
    declareRoute({
      tag: 'reading',
      summary: "Continue reading: the caller's books, most recently read first",
      description: 'At most 6; withdrawn items are left out.',
      access: 'signed-in',
      response: recentReadingSchema,
    }),
    async (request) => {
      const rows = await recentReading(db, signedInCaller(request).id);
      const shelves = await summariseShelves(
        db,
        rows.map((row) => row.id),
        context.now(),
      );
      return presentRecentReading(rows, shelves);
    },
  );
}
