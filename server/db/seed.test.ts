import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from './client.ts';
import { DEMO_ITEMS } from './demo-data.ts';
import { DEMO_SOURCE, seedDemoData } from './seed.ts';
import { openTestDatabase, testDatabaseKinds } from '../test/databases.ts';

describe.each(testDatabaseKinds())('demo data on %s', (kind) => {
  let handle: DatabaseHandle | undefined;
  afterEach(async () => handle?.close());

  it('inserts the demo catalogue once; a second run changes nothing', async () => {
    handle = await openTestDatabase(kind);
    expect(await seedDemoData(handle.db)).toBe(DEMO_ITEMS.length);
    const before = await handle.db.selectFrom('items').selectAll().orderBy('source_id').execute();
    expect(before).toHaveLength(DEMO_ITEMS.length);
    expect(new Set(before.map((item) => item.kind))).toEqual(new Set(['book', 'paper', 'course']));

    expect(await seedDemoData(handle.db)).toBe(0);
    const after = await handle.db.selectFrom('items').selectAll().orderBy('source_id').execute();
    expect(after).toEqual(before);
  });

  it('leaves an edited demo row as the librarian left it', async () => {
    handle = await openTestDatabase(kind);
    await seedDemoData(handle.db);
    await handle.db
      .updateTable('items')
      .set({ title: 'Pride and Prejudice (annotated)' })
      .where('source', '=', DEMO_SOURCE)
      .where('source_id', '=', 'book-pride-and-prejudice')
      .execute();
    await seedDemoData(handle.db);
    const row = await handle.db
      .selectFrom('items')
      .select('title')
      .where('source_id', '=', 'book-pride-and-prejudice')
      .executeTakeFirstOrThrow();
    expect(row.title).toBe('Pride and Prejudice (annotated)');
  });
});
