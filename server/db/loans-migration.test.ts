import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteMigratedBefore } from '../test/databases.ts';

const MIGRATION = '20261129000000_loans.sql';

describe('the loans migration (decision 030)', () => {
  let database: Awaited<ReturnType<typeof pgliteMigratedBefore>>;
  beforeAll(async () => {
    database = await pgliteMigratedBefore(MIGRATION);
  });
  afterAll(async () => database.close());

  it('gives each reservation collected before loans a loan on a copy still on the shelf', async () => {
    const db = database.handle.db;
    await db
      .insertInto('users')
      .values([
        { id: 'ada', name: 'Ada Lovelace', email: 'ada@uni.example' },
        { id: 'alan', name: 'Alan Turing', email: 'alan@uni.example' },
      ])
      .execute();
    const book = await db
      .insertInto('items')
      .values({ kind: 'book', title: 'Two Copies', authors: [], source: 't', source_id: '1' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('copies')
      .values([
        { item_id: book.id, barcode: 'B-2', status: 'available' },
        { item_id: book.id, barcode: 'B-1', status: 'available' },
      ])
      .execute();
    const collectedAt = new Date('2026-11-20T15:00:00Z');
    const reservation = (user: string, status: 'collected' | 'returned') => ({
      user_id: user,
      item_id: book.id,
      pickup_date: '2026-11-20',
      time_slot: '9:00-9:30 AM',
      slot_starts_at: collectedAt,
      expires_at: new Date(collectedAt.getTime() + 86_400_000),
      status,
      updated_at: collectedAt,
    });
    await db
      .insertInto('reservations')
      .values([reservation('ada', 'collected'), reservation('alan', 'returned')])
      .execute();

    expect(await database.applyIt()).toEqual([MIGRATION]);

    const loans = await db
      .selectFrom('loans')
      .innerJoin('copies', 'copies.id', 'loans.copy_id')
      .select(['loans.user_id', 'copies.barcode', 'copies.status', 'loans.due_at'])
      .execute();
    expect(loans).toEqual([
      {
        user_id: 'ada',
        barcode: 'B-1',
        status: 'on_loan',
        due_at: new Date(collectedAt.getTime() + 21 * 86_400_000),
      },
    ]);
    const item = await db
      .selectFrom('items')
      .select(['copies', 'copies_unavailable'])
      .where('id', '=', book.id)
      .executeTakeFirstOrThrow();
    expect(item).toEqual({ copies: 2, copies_unavailable: 1 });
  });
});
