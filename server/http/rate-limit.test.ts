import { afterEach, describe, expect, it } from 'vitest';
import { createAuth } from '../auth/auth.ts';
import { sweep } from '../sweeper.ts';
import { createTestApp, TEST_AUTH_SECRET, testConfig, type TestApp } from '../test/app.ts';
import { testDatabaseKinds } from '../test/databases.ts';
import { TestClient } from '../test/http.ts';
import {
  AUTH_RATE_WINDOW_MAX_SECONDS,
  enforceRateLimits,
  RateLimitError,
  type RateRule,
} from './rate-limit.ts';

const seconds = (count: number) => new Date(Date.now() + count * 1000);

describe.each(testDatabaseKinds())('rate-limit counters on %s', (kind) => {
  let testApp: TestApp;
  afterEach(async () => testApp.close());

  const keys = async () =>
    (await testApp.database.db.selectFrom('rate_limits').select(['key', 'count']).execute())
      .map((row) => `${row.key} ${row.count}`)
      .sort();

  it('are deleted by a sweep once their window has passed; those inside it stay and still count', async () => {
    testApp = await createTestApp(kind);
    const db = testApp.database.db;
    const short: RateRule = { key: 'login:email:ada@example.edu', limit: 3, windowSeconds: 60 };
    const long: RateRule = { key: 'login:ip:10.0.0.1', limit: 3, windowSeconds: 3600 };
    await enforceRateLimits(db, [short, long]);
    await enforceRateLimits(db, [short, long]);
    const row = await db
      .selectFrom('rate_limits')
      .select(['window_started_at', 'expires_at'])
      .where('key', '=', long.key)
      .executeTakeFirstOrThrow();
    expect(row.expires_at.getTime() - row.window_started_at.getTime()).toBe(3600 * 1000);

    // Inside both windows a sweep deletes nothing.
    await sweep(testApp.database, new Date());
    expect(await keys()).toEqual([`${short.key} 2`, `${long.key} 2`]);

    // Two minutes on, the e-mail's 60 s window has passed: its row is gone, the address's stays.
    await sweep(testApp.database, seconds(120));
    expect(await keys()).toEqual([`${long.key} 2`]);

    // The one that stayed still counts: a third hit is allowed, a fourth refused.
    await enforceRateLimits(db, [long]);
    await expect(enforceRateLimits(db, [long])).rejects.toBeInstanceOf(RateLimitError);
    expect(await keys()).toEqual([`${long.key} 4`]);
  });

  it("deletes better-auth's counters once past its longest window", async () => {
    testApp = await createTestApp(kind);
    const client = new TestClient(testApp.app, testApp.config.publicUrl);
    // better-auth counts every call it serves, by address and path.
    expect((await client.get('/api/auth/get-session')).statusCode).toBe(200);
    const counters = () =>
      testApp.database.db.selectFrom('auth_rate_limits').select(['key', 'last_request']).execute();
    const [row] = await counters();
    expect(row?.key).toContain(client.ip);
    // Milliseconds, as the pruning assumes.
    expect(Math.abs(Number(row!.last_request) - Date.now())).toBeLessThan(60_000);

    // The constant must cover every window better-auth is configured with, its plugins' too.
    const { options } = createAuth({
      config: testConfig({
        OIDC_ISSUER: 'https://login.example.edu',
        OIDC_CLIENT_ID: 'digi-library',
        OIDC_CLIENT_SECRET: 'secret',
      }),
      database: testApp.database,
      secret: TEST_AUTH_SECRET,
      trustedOrigins: [],
    });
    expect(options.rateLimit.window).toBeLessThanOrEqual(AUTH_RATE_WINDOW_MAX_SECONDS);
    expect(options.rateLimit).not.toHaveProperty('customRules');
    expect(options.plugins.length).toBeGreaterThan(0);
    for (const plugin of options.plugins as { rateLimit?: { window: number }[] }[])
      for (const rule of plugin.rateLimit ?? [])
        expect(rule.window).toBeLessThanOrEqual(AUTH_RATE_WINDOW_MAX_SECONDS);

    await sweep(testApp.database, seconds(AUTH_RATE_WINDOW_MAX_SECONDS - 5));
    expect(await counters()).toHaveLength(1);
    await sweep(testApp.database, seconds(AUTH_RATE_WINDOW_MAX_SECONDS + 5));
    expect(await counters()).toEqual([]);
  });
});
