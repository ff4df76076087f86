/**
 * `npm run bench:embeddings`: the sentence embedding model of search by meaning (issue 23) as the
 * server runs it, in its own thread (`createEmbedder`, server/embeddings/embedder.ts). Prints
 * how long the thread takes to start and load the model and how long the first call takes; a
 * short query's time (p50/p95 of 50, after warm-up); titles per second in calls of 32 (the real
 * catalogue's book titles); paragraphs per second (arXiv abstracts) and catalogue papers per
 * second as `embeddingText` makes them; a short query's time while a bulk call of papers runs
 * (calls take turns batch by batch); one text of 5, 50, 300 and 10,000 words (cut to
 * `EMBEDDING_MAX_CHARACTERS`); and the process's resident memory before, after loading and at its
 * peak (the thread is in the same process). Figures only, nothing is asserted.
 *
 * Reads `../shared/data` (books/goodbooks-10k_books.csv, papers/arxiv_sample_2000.csv). The
 * thread runs at nice 10, as in the server: on a busy machine it gets what the others leave.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { createEmbedder } from '#server/embeddings/embedder.ts';
import { embeddingText } from '#server/embeddings/item-text.ts';
import { formatNumber, loadAverage, machineLine, ms, percentile, SHARED_DATA } from './lib.ts';

const QUERY_RUNS = 50;
const TITLES = 1_024;
const PAPERS = 256;

const csv = (file: string) =>
  parse(readFileSync(path.join(SHARED_DATA, file), 'utf8'), {
    columns: true,
    relax_quotes: true,
  }) as Record<string, string>[];
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const mb = (bytes: number) => `${formatNumber(bytes / 2 ** 20)} MB`;
const peakRss = () => process.resourceUsage().maxRSS * 1024;
const seconds = async (work: () => Promise<unknown>) => {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
};

const QUERIES = [
  'books about the history of rome',
  'machine learning for beginners',
  'a cookbook of italian recipes',
  'introduction to quantum physics',
  'poetry of the romantic period',
  'how to write a novel',
];

console.log(machineLine());
const titles = csv('books/goodbooks-10k_books.csv')
  .map((row) => row.title ?? '')
  .filter(Boolean)
  .slice(0, TITLES);
const papers = csv('papers/arxiv_sample_2000.csv')
  .filter((row) => row.abstract?.trim())
  .slice(0, PAPERS);
const abstracts = papers.map((row) => row.abstract!);
const paperTexts = papers.map((row) =>
  embeddingText({
    title: row.title ?? '',
    authors: (row.authors ?? '').split(/,\s*|\s+and\s+/),
    subjects: (row.categories ?? '').split(' '),
    description: row.abstract ?? null,
  }),
);
const meanWords = (texts: string[]) =>
  formatNumber(texts.reduce((sum, text) => sum + words(text), 0) / texts.length);

const rssBefore = process.memoryUsage().rss;
let loadMs = NaN;
const embedder = createEmbedder({
  log: {
    info: (...args: unknown[]) => {
      loadMs = (args[0] as { loadMs?: number }).loadMs ?? loadMs;
    },
    warn: (...args: unknown[]) => console.warn(...args),
  },
});

const firstCall = await seconds(() => embedder.embed(['warm up']));
const rssLoaded = process.memoryUsage().rss;
console.log(
  `model: thread start and load ${formatNumber(loadMs)} ms; first call (start, load, first embed) ${ms(firstCall * 1000)} ms`,
);

for (let index = 0; index < 3; index += 1) await embedder.embed([QUERIES[index]!]);
const queryTimes: number[] = [];
for (let index = 0; index < QUERY_RUNS; index += 1) {
  const query = QUERIES[index % QUERIES.length]!;
  queryTimes.push((await seconds(() => embedder.embed([query]))) * 1000);
}
console.log(
  `short query (${QUERY_RUNS} runs): p50 ${ms(percentile(queryTimes, 50))} ms, p95 ${ms(percentile(queryTimes, 95))} ms`,
);

const titleSeconds = await seconds(async () => {
  for (let start = 0; start < titles.length; start += 32)
    await embedder.embed(titles.slice(start, start + 32));
});
console.log(
  `titles in calls of 32: ${formatNumber(titles.length / titleSeconds)}/s (${formatNumber(titles.length)} titles, mean ${meanWords(titles)} words, ${ms((titleSeconds * 1000) / titles.length)} ms each)`,
);

const abstractSeconds = await seconds(() => embedder.embed(abstracts));
console.log(
  `paragraphs (arXiv abstracts): ${formatNumber(abstracts.length / abstractSeconds, 1)}/s (${abstracts.length}, mean ${meanWords(abstracts)} words, ${ms((abstractSeconds * 1000) / abstracts.length)} ms each)`,
);

const paperSeconds = await seconds(() => embedder.embed(paperTexts));
console.log(
  `papers as embeddingText: ${formatNumber(paperTexts.length / paperSeconds, 1)}/s (mean ${meanWords(paperTexts)} words, ${ms((paperSeconds * 1000) / paperTexts.length)} ms each)`,
);

// One text by its length (median of 5): the embedder cuts a text at EMBEDDING_MAX_CHARACTERS.
const prose = abstracts.join(' ').split(/\s+/);
for (const count of [5, 50, 300, 10_000]) {
  const text = Array.from({ length: count }, (_, index) => prose[index % prose.length]).join(' ');
  const times: number[] = [];
  for (let run = 0; run < 5; run += 1)
    times.push((await seconds(() => embedder.embed([text]))) * 1000);
  console.log(`one text of ${formatNumber(count)} words: ${ms(percentile(times, 50))} ms`);
}

// A search's query while the catalogue is being embedded: it waits for at most one batch.
let bulkDone = false;
const bulk = embedder.embed(paperTexts).then(() => {
  bulkDone = true;
});
const busyTimes: number[] = [];
for (let index = 0; !bulkDone && index < QUERY_RUNS; index += 1) {
  const query = QUERIES[index % QUERIES.length]!;
  busyTimes.push((await seconds(() => embedder.embed([query]))) * 1000);
}
await bulk;
console.log(
  `short query during a bulk call of ${paperTexts.length} papers (${busyTimes.length} runs): p50 ${ms(percentile(busyTimes, 50))} ms, p95 ${ms(percentile(busyTimes, 95))} ms`,
);

console.log(
  `resident memory: ${mb(rssBefore)} before, ${mb(rssLoaded)} with the model loaded, ${mb(process.memoryUsage().rss)} at the end, peak ${mb(peakRss())}`,
);
await embedder.close();
console.log(`load average after: ${loadAverage()}`);
