import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from './client.ts';
import { isPrepared, PREPARED, preparedName, sqlLiteral } from './prepared.ts';
import { openTestDatabase, testDatabaseKinds } from '../test/databases.ts';

describe('values as SQL literals', () => {
  it('writes strings, arrays, numbers, booleans, dates and null, quotes and backslashes escaped', () => {
    expect(sqlLiteral("it's a \\ test")).toBe("E'it\\'s a \\\\ test'");
    expect(sqlLiteral(['a"b', 'c\\d', null])).toBe(`E'{"a\\\\"b","c\\\\\\\\d",NULL}'`);
    expect(sqlLiteral(12.5)).toBe('12.5');
    expect(sqlLiteral(true)).toBe('TRUE');
    expect(sqlLiteral(null)).toBe('NULL');
    expect(sqlLiteral(new Date('2026-01-02T03:04:05.000Z'))).toBe("E'2026-01-02T03:04:05.000Z'");
  });
  it('has no literal for what it cannot write safely', () => {
    for (const value of [Number.NaN, Infinity, { a: 1 }, [{ a: 1 }], new Date('nonsense')]) {
      expect(sqlLiteral(value)).toBeUndefined();
    }
  });
  it('names a text the same way every time, and knows a marked one', () => {
    expect(preparedName('SELECT 1')).toBe(preparedName('SELECT 1'));
    expect(preparedName('SELECT 1')).not.toBe(preparedName('SELECT 2'));
    expect(isPrepared('\n  /*prepared*/ SELECT 1')).toBe(true);
    expect(isPrepared('select /*prepared*/ "i"."id" from items')).toBe(true);
    expect(isPrepared('SELECT 1 /*prepared*/')).toBe(false);
  });
});

describe.each(testDatabaseKinds())('prepared statements on %s', (kind) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase(kind);
  });
  afterAll(async () => handle.close());

  it('answers as the statement would, for awkward values too, run after run', async () => {
    const tricky = ['O\'Brien \\ "quoted"', 'ünïcödé 🙂', '', "'; DROP TABLE items; --"];
    for (let run = 0; run < 3; run++) {
      for (const text of tricky) {
        const { rows } = await sql<{
          text: string;
          words: string[];
          n: number;
          flag: boolean;
        }>`${PREPARED}
          SELECT ${text}::text AS text, ${[text, 'b']}::text[] AS words, ${41}::int + 1 AS n,
                 ${run === 1}::boolean AS flag`.execute(handle.db);
        expect(rows).toEqual([{ text, words: [text, 'b'], n: 42, flag: run === 1 }]);
      }
    }
    expect(
      Number(
        (await sql<{ n: string }>`SELECT count(*) AS n FROM items`.execute(handle.db)).rows[0]?.n,
      ),
    ).toBeGreaterThanOrEqual(0);
  });

  it('counts the rows a prepared change touched, and keeps its error code', async () => {
    await sql`CREATE TABLE prepared_probe (n int PRIMARY KEY)`.execute(handle.db);
    const insert = (from: number, to: number) =>
      sql`${PREPARED} INSERT INTO prepared_probe SELECT generate_series(${from}::int, ${to}::int)`;
    expect((await insert(1, 3).execute(handle.db)).numAffectedRows).toBe(3n);
    const update =
      await sql`${PREPARED} UPDATE prepared_probe SET n = n + 10 WHERE n > ${1}::int`.execute(
        handle.db,
      );
    expect(update.numAffectedRows).toBe(2n);
    await expect(insert(1, 1).execute(handle.db)).rejects.toMatchObject({ code: '23505' });
  });

  it('keeps a prepared statement through a rolled-back transaction', async () => {
    const select = () => sql<{ v: number }>`${PREPARED} SELECT ${1}::int + 1 AS v`;
    await handle.db
      .transaction()
      .execute(async (trx) => {
        expect((await select().execute(trx)).rows).toEqual([{ v: 2 }]);
        throw new Error('roll back');
      })
      .catch(() => {});
    expect((await select().execute(handle.db)).rows).toEqual([{ v: 2 }]);
  });
});
