import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteMigratedBefore } from '../test/databases.ts';

const MIGRATION = '20261128100000_email-verified.sql';

describe('the e-mail verification migration (decision 026)', () => {
  let database: Awaited<ReturnType<typeof pgliteMigratedBefore>>;
  beforeAll(async () => {
    database = await pgliteMigratedBefore(MIGRATION);
  });
  afterAll(async () => database.close());

  it('marks every account that existed before it verified, so nobody using the app is locked out', async () => {
    await database.handle.db
      .insertInto('users')
      .values([
        { id: 'form-user', name: 'Ada Lovelace', email: 'ada@uni.example', signup_method: 'form' },
        {
          id: 'google-user',
          name: 'Alan Turing',
          email: 'alan@uni.example',
          signup_method: 'google',
        },
      ])
      .execute();

    expect(await database.applyIt()).toEqual([MIGRATION]);

    const rows = await database.handle.db
      .selectFrom('users')
      .select(['id', 'email_verified'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: 'form-user', email_verified: true },
      { id: 'google-user', email_verified: true },
    ]);
  });
});
