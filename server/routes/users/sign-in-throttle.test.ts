import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_ADDRESS_CEILING, SIGN_IN_THROTTLE } from '../../http/sign-in-throttle.ts';
import { sweep } from '../../sweeper.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { registrationFactory } from '../../test/factories.ts';
import { TestClient } from '../../test/http.ts';

const { freeFailures, firstDelaySeconds, maxDelaySeconds, forgetAfterSeconds } = SIGN_IN_THROTTLE;
const WRONG = 'not the password';

/** The wait after `failures` counted attempts, as decision 020 states it. */
const waitAfter = (failures: number) =>
  Math.min(firstDelaySeconds * 2 ** (failures - freeFailures), maxDelaySeconds);

/** Real time, a little past `seconds`, for a wait short enough to sit through. */
const sleep = (seconds: number) =>
  new Promise((resolve) => setTimeout(resolve, seconds * 1000 + 150));

describe.each(testDatabaseKinds())('sign-in throttling on %s', (kind) => {
  let testApp: TestApp;
  const client = () => new TestClient(testApp.app, testApp.config.publicUrl);

  beforeAll(async () => {
    testApp = await createTestApp(kind);
  });
  afterAll(async () => testApp.close());

  /** A registered account (its own browser signs up, then is forgotten). */
  const account = async () => {
    const registration = registrationFactory();
    expect((await client().post('/api/users/register', registration)).statusCode).toBe(200);
    return registration;
  };
  const login = (from: TestClient, email: string, password: string) =>
    from.post('/api/users/login', { email, password });
  const statuses = async (count: number, attempt: () => Promise<{ statusCode: number }>) => {
    const answers: number[] = [];
    for (let index = 0; index < count; index += 1) answers.push((await attempt()).statusCode);
    return answers;
  };
  /** The clock moves on past the pair's wait (the long waits cannot be sat through). */
  const waitPasses = (email: string, from: TestClient) =>
    testApp.database.db
      .updateTable('sign_in_throttles')
      .set({ next_attempt_at: sql<Date>`now()` })
      .where('email', '=', email)
      .where('address', '=', from.ip)
      .execute();
  const ceilingCount = async (from: TestClient) =>
    (
      await testApp.database.db
        .selectFrom('rate_limits')
        .select('count')
        .where('key', '=', `login:ip:${from.ip}`)
        .executeTakeFirst()
    )?.count;

  it("a stranger's wrong passwords never lock the owner out from another address (issue 19, finding 2)", async () => {
    const owner = await account();
    const stranger = client();
    const fromStranger = await statuses(50, () => login(stranger, owner.email, WRONG));
    expect(fromStranger.slice(0, freeFailures)).toEqual(Array(freeFailures).fill(401));
    expect(fromStranger.slice(freeFailures).every((status) => status === 429)).toBe(true);
    // Four more addresses, each with its free failures: every one is a password checked.
    const others = Array.from({ length: 4 }, client);
    const fromOthers = await Promise.all(
      others.map((other) => statuses(freeFailures, () => login(other, owner.email, WRONG))),
    );
    expect(fromOthers.flat()).toEqual(Array(4 * freeFailures).fill(401));

    const response = await login(client(), owner.email, owner.password);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ success: true, message: 'Login successful' });
  });

  it('slows one address with growing waits and Retry-After; the owner signs in after the wait, which clears them', async () => {
    const owner = await account();
    const home = client();
    expect(await statuses(freeFailures, () => login(home, owner.email, WRONG))).toEqual(
      Array(freeFailures).fill(401),
    );
    const first = await login(home, owner.email, WRONG);
    expect(first.statusCode).toBe(429);
    expect(first.headers['retry-after']).toBe(String(firstDelaySeconds));
    expect(first.json()).toEqual({
      success: false,
      message: 'Too many attempts. Please try again in 1 second.',
    });

    await sleep(firstDelaySeconds);
    expect((await login(home, owner.email, WRONG)).statusCode).toBe(401);
    const second = await login(home, owner.email, WRONG);
    expect(second.statusCode).toBe(429);
    expect(second.headers['retry-after']).toBe(String(2 * firstDelaySeconds));
    expect(second.json().message).toBe('Too many attempts. Please try again in 2 seconds.');
    // Refused attempts are not guesses: they do not lengthen the wait.
    expect((await login(home, owner.email, owner.password)).headers['retry-after']).toBe('2');

    await sleep(2 * firstDelaySeconds);
    expect((await login(home, owner.email, owner.password)).statusCode).toBe(200);
    // Cleared: the same address has its free failures again, then the first wait.
    expect(await statuses(freeFailures, () => login(home, owner.email, WRONG))).toEqual(
      Array(freeFailures).fill(401),
    );
    expect((await login(home, owner.email, WRONG)).headers['retry-after']).toBe(
      String(firstDelaySeconds),
    );
  });

  it('doubles the wait up to its cap, and keeps it there', async () => {
    const owner = await account();
    const home = client();
    await statuses(freeFailures, () => login(home, owner.email, WRONG));
    const waits: number[] = [];
    for (let failures = freeFailures; failures < freeFailures + 12; failures += 1) {
      const refused = await login(home, owner.email, WRONG);
      expect(refused.statusCode).toBe(429);
      waits.push(Number(refused.headers['retry-after']));
      await waitPasses(owner.email, home);
      expect((await login(home, owner.email, WRONG)).statusCode).toBe(401);
    }
    expect(waits).toEqual(waits.map((_, index) => waitAfter(freeFailures + index)));
    expect(waits.slice(0, 4)).toEqual([1, 2, 4, 8]);
    expect(waits.at(-1)).toBe(maxDelaySeconds);
    expect((await login(home, owner.email, owner.password)).json().message).toBe(
      'Too many attempts. Please try again in 5 minutes.',
    );
    await waitPasses(owner.email, home);
    expect((await login(home, owner.email, owner.password)).statusCode).toBe(200);
  });

  it('counts only failures: sign-ins never slow the pair nor use up the address', async () => {
    const owner = await account();
    const home = client();
    expect(
      await statuses(2 * freeFailures, () => login(home, owner.email, owner.password)),
    ).toEqual(Array(2 * freeFailures).fill(200));
    expect(await ceilingCount(home)).toBe(0);
    expect(await statuses(freeFailures, () => login(home, owner.email, WRONG))).toEqual(
      Array(freeFailures).fill(401),
    );
    expect(await ceilingCount(home)).toBe(freeFailures);
  });

  it('lets no more than the free failures through when they are sent at once', async () => {
    const owner = await account();
    const home = client();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => login(home, owner.email, WRONG)),
    );
    const codes = answers.map((answer) => answer.statusCode).sort();
    expect(codes).toEqual([
      ...Array(freeFailures).fill(401),
      ...Array(20 - freeFailures).fill(429),
    ]);
  });

  it('treats an unknown e-mail exactly like a known one', async () => {
    const home = client();
    const ghost = `ghost.${Date.now()}@uni.example`;
    const answers = await statuses(freeFailures + 1, () => login(home, ghost, WRONG));
    expect(answers).toEqual([...Array(freeFailures).fill(401), 429]);
  });

  it('keeps a ceiling per address, whatever the e-mails, until its window ends', async () => {
    const owner = await account();
    const busy = client();
    // Refused attempts count against the address too: after the free failures they are cheap.
    const stuffed = `stuffed.${Date.now()}@uni.example`;
    const answers = await statuses(SIGN_IN_ADDRESS_CEILING.limit, () =>
      login(busy, stuffed, WRONG),
    );
    expect(answers.every((status) => status === 401 || status === 429)).toBe(true);
    // The pair's first waits may pass while the loop runs: a few more passwords are checked.
    expect(answers.filter((status) => status === 401).length).toBeLessThan(freeFailures + 4);
    const over = await login(busy, owner.email, owner.password);
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(maxDelaySeconds);
    expect(over.json().message).toBe('Too many attempts. Please try again in 15 minutes.');
    // Another address is not affected.
    expect((await login(client(), owner.email, owner.password)).statusCode).toBe(200);
  });

  it("forgets a pair's failures (its e-mail and address) once they are old", async () => {
    const owner = await account();
    const home = client();
    await statuses(freeFailures + 1, () => login(home, owner.email, WRONG));
    const rows = () =>
      testApp.database.db
        .selectFrom('sign_in_throttles')
        .select(['failures'])
        .where('email', '=', owner.email)
        .where('address', '=', home.ip)
        .execute();
    expect(await rows()).toEqual([{ failures: freeFailures }]);
    await sweep(testApp.database, new Date(Date.now() + (forgetAfterSeconds - 60) * 1000));
    expect(await rows()).toHaveLength(1);
    await sweep(testApp.database, new Date(Date.now() + (forgetAfterSeconds + 60) * 1000));
    expect(await rows()).toEqual([]);
  });
});
