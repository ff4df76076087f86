import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPglite, wrapPglite, type DatabaseHandle } from './client.ts';
import { migrate, MIGRATIONS_DIR } from './migrate.ts';

const MIGRATION = '20261127040000_isbn-13.sql';

// The migration's data change is checked on PGlite, the one engine where a database can be
// migrated part of the way (the PostgreSQL test databases are copies of a fully migrated one).
describe('the ISBN-13 migration', () => {
  let handle: DatabaseHandle;
  let folder: string;

  beforeAll(async () => {
    handle = wrapPglite(await createPglite());
    folder = await mkdtemp(path.join(tmpdir(), 'digi-isbn-migration-'));
    const earlier = (await readdir(MIGRATIONS_DIR)).filter(
      (file) => file.endsWith('.sql') && file < MIGRATION,
    );
    for (const file of earlier)
      await copyFile(path.join(MIGRATIONS_DIR, file), path.join(folder, file));
    await migrate(handle, folder);
  });
  afterAll(async () => {
    await handle.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('turns stored ISBN-10s into ISBN-13s, clears wrong ones, and then takes ISBN-13s only', async () => {
    const book = (title: string, isbn: string | null, source = 'goodbooks', sourceId = isbn) => ({
      kind: 'book' as const,
      title,
      authors: [],
      isbn,
      source,
      source_id: sourceId ?? title,
    });
    await handle.db
      .insertInto('items')
      .values([
        book('Hunger Games', '0439023483'),
        book('With an X', '043965548X'),
        book('Typed in', '0306406152', 'librarian', 'x1'),
        book('Wrong check digit', '0031601584'),
        book('No ISBN', null),
      ])
      .execute();

    expect(await migrate(handle)).toContain(MIGRATION);

    const rows = await handle.db
      .selectFrom('items')
      .select(['title', 'isbn', 'source_id'])
      .orderBy('title')
      .execute();
    expect(rows).toEqual([
      { title: 'Hunger Games', isbn: '9780439023481', source_id: '9780439023481' },
      { title: 'No ISBN', isbn: null, source_id: 'No ISBN' },
      { title: 'Typed in', isbn: '9780306406157', source_id: 'x1' },
      { title: 'With an X', isbn: '9780439655484', source_id: '9780439655484' },
      { title: 'Wrong check digit', isbn: null, source_id: '0031601584' },
    ]);
    await expect(
      sql`UPDATE items SET isbn = '0306406152' WHERE title = 'Typed in'`.execute(handle.db),
    ).rejects.toThrow(/items_isbn_check/);
  });
});
