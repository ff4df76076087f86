import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteMigratedBefore } from '../test/databases.ts';

const MIGRATION = '20261127040000_isbn-13.sql';

// The migration's data change is checked on PGlite, the one engine where a database can be
// migrated part of the way (the PostgreSQL test databases are copies of a fully migrated one).
describe('the ISBN-13 migration', () => {
  let database: Awaited<ReturnType<typeof pgliteMigratedBefore>>;
  let handle: (typeof database)['handle'];

  beforeAll(async () => {
    database = await pgliteMigratedBefore(MIGRATION);
    handle = database.handle;
  });
  afterAll(async () => database.close());

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

    expect(await database.applyIt()).toContain(MIGRATION);

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
