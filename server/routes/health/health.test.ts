import { afterEach, describe, expect, it } from 'vitest';
import { healthResponseSchema } from '#contract/http/health.ts';
import { errorResponseSchema } from '#contract/http/errors.ts';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../db/unavailable.ts';
import { prepareVectorSearch } from '../../db/vector.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.ts';

describe.each(testDatabaseKinds())('GET /api/health on %s', (kind) => {
  let testApp: TestApp | undefined;
  afterEach(async () => {
    await testApp?.close().catch(() => {});
    testApp = undefined;
  });

  it('answers ok and names the database after checking it', async () => {
    testApp = await createTestApp(kind);
    const response = await testApp.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    const meaning = testApp.database.searchByMeaning;
    expect(healthResponseSchema.parse(response.json())).toEqual({
      status: 'ok',
      database: kind,
      // Where it is on, how many items are ready for it: none of none in an empty catalogue.
      searchByMeaning: meaning.available ? { ...meaning, embedded: 0, total: 0 } : meaning,
    });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('says search by meaning is off, and why, and still answers ok', async () => {
    const database = await openTestDatabase(kind);
    // As on a server without pgvector: what start-up found is what the route tells.
    const off = await prepareVectorSearch(database, { availableExtensions: [] });
    testApp = await createTestApp(kind, { database });
    const response = await testApp.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    const body = healthResponseSchema.parse(response.json());
    expect(body).toEqual({ status: 'ok', database: kind, searchByMeaning: off });
    expect(body.searchByMeaning?.available).toBe(false);
    expect(body.searchByMeaning?.reason).toMatch(/pgvector/);
  });

  it('answers 503 with the error shape and Retry-After when the database does not answer', async () => {
    testApp = await createTestApp(kind);
    await testApp.database.close();
    await expect(testApp.database.ping()).rejects.toThrow();
    const response = await testApp.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(503);
    const body = errorResponseSchema.parse(response.json());
    expect(body.message).toMatch(/database is not answering/);
    // A few seconds: what a 503 of any call says while the database is away.
    expect(response.headers['retry-after']).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
    expect(DATABASE_RETRY_AFTER_SECONDS).toBeGreaterThanOrEqual(1);
    expect(DATABASE_RETRY_AFTER_SECONDS).toBeLessThanOrEqual(30);
  });
});
