import { getMigrations } from 'better-auth/db/migration';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client.ts';
import { testConfig } from '../test/app.ts';
import { openTestDatabase, testDatabaseKinds } from '../test/databases.ts';
import { createAuth } from './auth.ts';

describe.each(testDatabaseKinds())('better-auth on our schema (%s)', (kind) => {
  let database: DatabaseHandle | undefined;
  afterEach(async () => database?.close());

  it('finds every table and column it needs in our SQL migrations', async () => {
    database = await openTestDatabase(kind);
    const auth = createAuth({
      config: testConfig(),
      database,
      secret: 'x'.repeat(48),
      trustedOrigins: [],
    });
    const { toBeCreated, toBeAdded } = await getMigrations(auth.options);
    expect(toBeCreated.map((table) => table.table)).toEqual([]);
    expect(
      toBeAdded.map((table) => `${table.table}: ${Object.keys(table.fields).join(', ')}`),
    ).toEqual([]);
  });
});
