/**
 * `npm run bench:import`: imports the 10k-book file into a fresh database of each engine and
 * reports rows per second and the process's peak resident memory during the import.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { importFile } from '#server/catalogue/import/import-file.ts';
import { benchDatabases, SHARED_DATA } from './lib.ts';

const file = path.join(SHARED_DATA, 'books', 'goodbooks-10k_books.csv');
if (!existsSync(file)) {
  console.error(`No ${file}: the shared data must sit beside the repository.`);
  process.exit(1);
}

for (const { name, handle, dispose } of await benchDatabases()) {
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const before = process.memoryUsage().rss;
  const start = performance.now();
  const { counts } = await importFile(handle.db, 'books', file);
  const seconds = (performance.now() - start) / 1000;
  clearInterval(sampler);
  const rows = counts.rows;
  console.log(
    `${name}: ${rows.toLocaleString('en-US')} rows in ${seconds.toFixed(2)} s = ${Math.round(rows / seconds).toLocaleString('en-US')} rows/s; ` +
      `resident memory ${Math.round(before / 2 ** 20)} MB before, peak ${Math.round(peak / 2 ** 20)} MB`,
  );
  await dispose();
}
