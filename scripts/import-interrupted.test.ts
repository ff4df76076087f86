import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOODBOOKS_SOURCE } from '#server/catalogue/import/goodbooks.ts';
import { openDatabase, type DatabaseHandle, type DatabaseKind } from '#server/db/client.ts';
import { createPostgresDatabase, testDatabaseKinds } from '#server/test/databases.ts';

// Issue 9: "kill -9 of the server mid-import: after restart every committed row is there, a re-run
// import finishes without duplicates." The importer runs as `npm run import` runs it, on a
// generated goodbooks file, and is killed with SIGKILL once its progress shows rows written.

const ROOT = path.resolve(import.meta.dirname, '..');
const ROWS = 12_000;
/** The writer's rows per transaction (`ItemWriter`'s default): what a kill can cut at. */
const BATCH = 500;

const GOODBOOKS_HEADER =
  'book_id,goodreads_book_id,best_book_id,work_id,books_count,isbn,isbn13,authors,original_publication_year,original_title,title,language_code,average_rating,ratings_count,work_ratings_count,work_text_reviews_count,ratings_1,ratings_2,ratings_3,ratings_4,ratings_5,image_url,small_image_url';

/** The nine digits `body` with their ISBN-10 check digit. */
function withIsbn10Check(body: string): string {
  const sum = [...body].reduce((total, digit, index) => total + Number(digit) * (10 - index), 0);
  const check = (11 - (sum % 11)) % 11;
  return body + (check === 10 ? 'X' : String(check));
}

/** The ISBN-13 of the ISBN-10 whose first nine digits are `body`. */
function isbn13Of(body: string): string {
  const twelve = `978${body}`;
  const sum = [...twelve].reduce(
    (total, digit, index) => total + Number(digit) * (index % 2 === 0 ? 1 : 3),
    0,
  );
  return twelve + String((10 - (sum % 10)) % 10);
}

/**
 * What row `n` (1-based) of the generated file becomes: every other book has an ISBN, written in
 * the file as an ISBN-10 that lost its leading zero, stored as its ISBN-13.
 */
function expectedBook(n: number) {
  const body = n % 2 === 0 ? String(10_000_000 + n).padStart(9, '0') : null;
  const isbn = body === null ? null : isbn13Of(body);
  return {
    source_id: isbn ?? `goodreads:${500_000 + n}`,
    isbn,
    isbnCell: body === null ? '' : withIsbn10Check(body).replace(/^0+/, ''),
    title: `Generated Volume ${n}`,
    authors: [`Author ${n}`, 'Second Writer'],
    year: 1800 + (n % 200),
  };
}

/** Writes a goodbooks-10k style `books.csv` of ROWS books. */
async function writeBooksFile(file: string): Promise<void> {
  const out = createWriteStream(file);
  out.write(`${GOODBOOKS_HEADER}\n`);
  for (let n = 1; n <= ROWS; n += 1) {
    const book = expectedBook(n);
    const line = [
      n,
      500_000 + n,
      500_000 + n,
      900_000 + n,
      1,
      book.isbnCell,
      '',
      `"${book.authors.join(', ')}"`,
      `${book.year}.0`,
      book.title,
      `"${book.title} (Generated, #${n})"`,
      'eng',
      '4.0',
      10,
      11,
      1,
      1,
      2,
      3,
      2,
      2,
      `https://images.example.org/${n}m.jpg`,
      `https://images.example.org/${n}s.jpg`,
    ].join(',');
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** `npm run import -- books <file>` as a child process. */
function startImport(file: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/import.ts', 'books', file], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

/** The highest row count the importer's progress lines have shown. */
function reportedRows(stderr: string): number {
  const counts = [...stderr.matchAll(/^books: ([\d,]+) rows/gm)].map((match) =>
    Number(match[1]!.replace(/,/g, '')),
  );
  return Math.max(0, ...counts);
}

/** The imported books, by their row number in the file. */
async function importedRows(handle: DatabaseHandle) {
  const rows = await handle.db
    .selectFrom('items')
    .select(['source_id', 'isbn', 'title', 'authors', 'year'])
    .where('source', '=', GOODBOOKS_SOURCE)
    .execute();
  return rows.map((row) => ({ n: Number(/(\d+)$/.exec(row.title)?.[1]), row }));
}

/** Checks the database answers consistently through its indexes and its table alike. */
async function expectConsistent(handle: DatabaseHandle, count: number): Promise<void> {
  await handle.withSession(async (session) => {
    await session.exec('SET enable_seqscan = off');
    const [byIndex] = await session.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM items WHERE source = '${GOODBOOKS_SOURCE}' AND source_id IS NOT NULL`,
    );
    await session.exec('RESET enable_seqscan');
    expect(byIndex?.count).toBe(count);
  });
  const duplicates = await sql<{ key: string }>`
    SELECT coalesce(isbn, source_id) AS key FROM items WHERE source = ${GOODBOOKS_SOURCE}
    GROUP BY 1 HAVING count(*) > 1
  `.execute(handle.db);
  expect(duplicates.rows).toEqual([]);
}

describe.each(testDatabaseKinds())('npm run import killed with SIGKILL on %s', (kind) => {
  let folder: string;
  let file: string;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'digi-import-kill-'));
    file = path.join(folder, 'books.csv');
    await writeBooksFile(file);
  });
  afterAll(async () => rm(folder, { recursive: true, force: true }));

  const open = (env: Record<string, string>, which: DatabaseKind) =>
    openDatabase(
      which === 'postgres'
        ? { databaseUrl: env.DATABASE_URL, dataDir: folder }
        : { dataDir: env.DATA_DIR! },
    );

  it('keeps every committed row, and a re-run finishes the file without duplicates', async () => {
    const env: Record<string, string> =
      kind === 'postgres'
        ? { DATABASE_URL: await createPostgresDatabase(), DATA_DIR: path.join(folder, 'unused') }
        : { DATA_DIR: path.join(folder, 'data') };

    // Killed as soon as its progress shows rows written, well before the end of the file.
    const first = startImport(file, env);
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (reportedRows(first.stderr()) > 0) {
          first.child.kill('SIGKILL');
          resolve();
        }
      };
      first.child.stderr.on('data', check);
      void first.exited.then(() =>
        reject(new Error(`the import ended before it could be killed:\n${first.stderr()}`)),
      );
    });
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(first.stdout()).not.toContain('Imported books');
    const reported = reportedRows(first.stderr());

    // The database opens (PGlite recovers its files; the lock of the dead process is taken over)
    // and holds whole batches: every row the progress reported, each as the file has it.
    const afterKill = await open(env, kind);
    let committed: number;
    try {
      const rows = await importedRows(afterKill);
      committed = rows.length;
      expect(committed).toBeGreaterThanOrEqual(reported);
      expect(committed).toBeLessThan(ROWS);
      expect(committed % BATCH).toBe(0);
      // Batches are written in file order: the rows there are exactly the first `committed`.
      expect(rows.map(({ n }) => n).sort((a, b) => a - b)).toEqual(
        Array.from({ length: committed }, (_, index) => index + 1),
      );
      for (const { n, row } of rows) {
        const book = expectedBook(n);
        expect(row).toEqual({
          source_id: book.source_id,
          isbn: book.isbn,
          title: book.title,
          authors: book.authors,
          year: book.year,
        });
      }
      await expectConsistent(afterKill, committed);
    } finally {
      await afterKill.close();
    }

    // Run again to the end: what was there is recognised, the rest inserted, nothing twice.
    const second = startImport(file, env);
    expect(await second.exited, second.stderr()).toEqual({ code: 0, signal: null });
    const summary = second.stdout();
    expect(summary).toMatch(new RegExp(`rows read +${ROWS.toLocaleString('en-US')}$`, 'm'));
    expect(summary).toMatch(
      new RegExp(`inserted +${(ROWS - committed).toLocaleString('en-US')}$`, 'm'),
    );
    expect(summary).toMatch(new RegExp(`unchanged +${committed.toLocaleString('en-US')}$`, 'm'));
    expect(summary).toMatch(/updated +0$/m);
    expect(summary).toMatch(/skipped \(bad\) +0$/m);

    const done = await open(env, kind);
    try {
      const rows = await importedRows(done);
      expect(rows).toHaveLength(ROWS);
      expect(new Set(rows.map(({ n }) => n)).size).toBe(ROWS);
      await expectConsistent(done, ROWS);
      const words = await done.db
        .selectFrom('search_words')
        .select('word')
        .where('word', '=', 'generated')
        .execute();
      expect(words).toHaveLength(1);
    } finally {
      await done.close();
    }
  }, 120_000);
});
