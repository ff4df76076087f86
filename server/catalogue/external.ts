import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { CatalogueItem } from '#contract/http/catalogue.ts';
import type { Config } from '../config.ts';

/** How long an outside source may take before we answer without it. */
export const EXTERNAL_TIMEOUT_MS = 3_000;
const CACHE_TTL_MS = 10 * 60_000;
const CACHE_SIZE = 500;
const RESULTS_PER_SOURCE = 10;

interface OpenLibraryDoc {
  key?: string;
  title?: string;
  author_name?: string[];
  first_publish_year?: number;
  subject?: string[];
  cover_i?: number;
}

interface Volume {
  id?: string;
  volumeInfo?: {
    title?: string;
    authors?: string[];
    description?: string;
    publishedDate?: string;
    categories?: string[];
    imageLinks?: { thumbnail?: string };
    infoLink?: string;
  };
}

/** What the outside sources found, and a note for each that did not answer. */
export interface ExternalResults {
  items: CatalogueItem[];
  notes: string[];
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

/** Entries that are objects: one `null` in an outside answer must not lose the whole answer. */
const records = <T>(value: unknown[]): T[] =>
  value.filter((item): item is T => item !== null && typeof item === 'object');

/**
 * An outside source's address for a link or a cover, kept only when it is an absolute http(s) URL:
 * the screens open it as it is, so a `javascript:` or `data:` one must never reach them.
 */
export function webUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Open Library's `docs[]` as result cards. */
export function fromOpenLibrary(body: unknown): CatalogueItem[] {
  const docs = (body as { docs?: OpenLibraryDoc[] })?.docs;
  if (!Array.isArray(docs)) throw new Error('no docs in the answer');
  return records<OpenLibraryDoc>(docs)
    .filter((doc) => typeof doc.title === 'string' && doc.title.trim() !== '')
    .slice(0, RESULTS_PER_SOURCE)
    .map((doc, index) => ({
      // Only a string key: a source's object could not even be turned into text.
      id: `openlibrary:${typeof doc.key === 'string' ? doc.key : index}`,
      type: 'book' as const,
      title: doc.title!.trim(),
      authors: strings(doc.author_name),
      year: typeof doc.first_publish_year === 'number' ? doc.first_publish_year : null,
      subjects: strings(doc.subject).slice(0, 10),
      ...(typeof doc.cover_i === 'number'
        ? { coverUrl: `https://covers.openlibrary.org/b/id/${doc.cover_i}-M.jpg` }
        : {}),
      ...(typeof doc.key === 'string' && doc.key.startsWith('/')
        ? { url: `https://openlibrary.org${doc.key}` }
        : {}),
      hasContent: false,
      external: 'Open Library',
    }));
}

/** A books volumes API's `items[]` as result cards. */
export function fromBooksApi(body: unknown): CatalogueItem[] {
  const items = (body as { items?: Volume[] })?.items;
  if (items === undefined) return [];
  if (!Array.isArray(items)) throw new Error('items is not a list');
  return records<Volume>(items)
    .filter((item) => typeof item.volumeInfo?.title === 'string')
    .slice(0, RESULTS_PER_SOURCE)
    .map((item, index) => {
      const info = item.volumeInfo!;
      const year =
        typeof info.publishedDate === 'string' ? Number.parseInt(info.publishedDate, 10) : NaN;
      const coverUrl = webUrl(info.imageLinks?.thumbnail);
      const url = webUrl(info.infoLink);
      return {
        id: `books:${typeof item.id === 'string' ? item.id : index}`,
        type: 'book' as const,
        title: info.title!.trim(),
        authors: strings(info.authors),
        year: Number.isFinite(year) ? year : null,
        subjects: strings(info.categories),
        ...(typeof info.description === 'string' ? { description: info.description } : {}),
        ...(coverUrl ? { coverUrl } : {}),
        ...(url ? { url } : {}),
        hasContent: false,
        external: 'Books',
      };
    });
}

/** One outside source: its name, the address of a search, and how to read its answer. */
interface Source {
  name: string;
  url: (q: string) => string;
  parse: (body: unknown) => CatalogueItem[];
}

/**
 * Searches the configured outside book sources in parallel, each within 3 seconds, with answers
 * cached for 10 minutes. A source that fails or is slow becomes a quiet note, never an error.
 * Identical searches at the same time share one request to each source.
 */
export function createExternalSearch(config: Config, logger: FastifyBaseLogger) {
  const sources = [
    config.external.openLibraryUrl && {
      name: 'Open Library',
      url: (q: string) =>
        `${config.external.openLibraryUrl}?q=${encodeURIComponent(q)}&limit=${RESULTS_PER_SOURCE}`,
      parse: fromOpenLibrary,
    },
    config.external.booksApiUrl && {
      name: 'Books',
      url: (q: string) => `${config.external.booksApiUrl}?q=${encodeURIComponent(q)}&maxResults=15`,
      parse: fromBooksApi,
    },
  ].filter((source): source is Source => Boolean(source));

  // lru-cache's fetch() keeps one request in flight per key, and caches only what it resolves
  // to: a failed or timed-out request is forgotten, so the next search asks again.
  const cache = new LRUCache<string, CatalogueItem[], { source: Source; q: string }>({
    max: CACHE_SIZE,
    ttl: CACHE_TTL_MS,
    fetchMethod: async (_key, _stale, { signal, context }) => {
      // The time-out bounds every request, its body included. It is a timer of our own, not
      // AbortSignal.timeout(): inside AbortSignal.any() Node 20 may garbage-collect that signal
      // before it fires (nodejs/node#57736), and a slow source then held the search for as long
      // as it liked. The cache's own signal aborts a request whose entry it drops.
      const timeout = new AbortController();
      const timer = setTimeout(
        () => timeout.abort(new DOMException('The source took too long', 'TimeoutError')),
        EXTERNAL_TIMEOUT_MS,
      );
      try {
        const response = await fetch(context.source.url(context.q), {
          signal: AbortSignal.any([signal, timeout.signal]),
          headers: { accept: 'application/json' },
        });
        if (!response.ok) throw new Error(`answered ${response.status}`);
        return context.source.parse(await response.json());
      } finally {
        clearTimeout(timer);
      }
    },
  });

  async function fetchSource(source: Source, q: string): Promise<CatalogueItem[]> {
    const items = await cache.fetch(`${source.name}\u0000${q.toLowerCase()}`, {
      context: { source, q },
    });
    // Undefined only when the cache dropped the entry while its request was in flight.
    if (items === undefined) throw new Error('the search was dropped from the cache');
    return items;
  }

  return {
    enabled: sources.length > 0,
    async search(q: string): Promise<ExternalResults> {
      const settled = await Promise.allSettled(sources.map((source) => fetchSource(source, q)));
      const results: ExternalResults = { items: [], notes: [] };
      settled.forEach((outcome, index) => {
        const source = sources[index]!;
        if (outcome.status === 'fulfilled') results.items.push(...outcome.value);
        else {
          logger.warn({ source: source.name, err: outcome.reason }, 'external source unavailable');
          results.notes.push(
            `External source unavailable: ${source.name}. Showing the library’s own results.`,
          );
        }
      });
      return results;
    },
  };
}
